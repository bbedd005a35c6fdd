import {
  AnalyzeExpenseCommand,
  BadDocumentException,
  DocumentTooLargeException,
  InvalidParameterException,
  ProvisionedThroughputExceededException,
  TextractClient,
  TextractServiceException,
  ThrottlingException,
  UnsupportedDocumentException,
  AccessDeniedException,
  InvalidS3ObjectException,
  InternalServerError,
} from '@aws-sdk/client-textract';
import { AnalyzerError } from '@receipts/core';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { TextractAnalyzer } from '../src';
import { expenseResponse, field, lineItem } from './expense-builder';

const client = new TextractClient({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});
const textract = mockClient(client);
const analyzer = new TextractAnalyzer({ client });
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const receipt = expenseResponse({
  summary: [field('VENDOR_NAME', 'CORNER SHOP'), field('TOTAL', '£3.50')],
  items: [lineItem(['ITEM', 'HEINZ BEANZ'], ['PRICE', '3.50'])],
});
const meta = { $metadata: {} };

afterEach(() => {
  textract.reset();
});

async function failure(promise: Promise<unknown>): Promise<AnalyzerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalyzerError);
  return error as AnalyzerError;
}

describe('TextractAnalyzer', () => {
  it('is named textract', () => {
    expect(analyzer.name).toBe('textract');
  });

  it('sends the bytes when the image is not stored in S3, and maps the answer', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ...receipt, ...meta });
    const result = await analyzer.analyze(jpeg, 'image/jpeg');
    const calls = textract.commandCalls(AnalyzeExpenseCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ Document: { Bytes: jpeg } });
    expect(result.analyzer).toBe('textract');
    expect(result.merchant.name).toBe('CORNER SHOP');
    expect(result.receipt).toMatchObject({ total_amount: 3.5, currency_code: 'GBP', total_checks_out: true });
    expect(result.items).toMatchObject([{ description: 'HEINZ BEANZ', total_price: 3.5 }]);
    expect(result.raw).toMatchObject({ ExpenseDocuments: receipt.ExpenseDocuments });
  });

  it('names the S3 object instead of sending bytes when the image is stored there', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ...receipt, ...meta });
    await analyzer.analyze(jpeg, 'image/png', {
      bucket: 'receipts-images',
      key: 'user-1/1700000000000-receipt.png',
    });
    const input = textract.commandCalls(AnalyzeExpenseCommand)[0]!.args[0].input;
    expect(input).toEqual({
      Document: { S3Object: { Bucket: 'receipts-images', Name: 'user-1/1700000000000-receipt.png' } },
    });
    expect(input.Document).not.toHaveProperty('Bytes');
  });

  it('accepts a content type with parameters and in capitals', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({ ...receipt, ...meta });
    await expect(analyzer.analyze(jpeg, 'IMAGE/JPEG; charset=binary')).resolves.toBeDefined();
  });

  it.each([
    ['ThrottlingException', new ThrottlingException({ message: 'Rate exceeded', ...meta })],
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'Too many requests', ...meta }),
    ],
    ['InternalServerError', new InternalServerError({ message: 'oops', ...meta })],
  ])('treats %s as worth another try', async (_name, vendorError) => {
    textract.on(AnalyzeExpenseCommand).rejects(vendorError);
    const error = await failure(analyzer.analyze(jpeg, 'image/jpeg'));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/tried again/);
    expect(error.cause).toBe(vendorError);
  });

  it.each([
    [
      'UnsupportedDocumentException',
      new UnsupportedDocumentException({ message: 'x', ...meta }),
      /JPEG or PNG/,
    ],
    [
      'BadDocumentException',
      new BadDocumentException({ message: 'x', ...meta }),
      /could not open this image/,
    ],
    [
      'DocumentTooLargeException',
      new DocumentTooLargeException({ message: 'x', ...meta }),
      /too large.*smaller photo/,
    ],
    [
      'InvalidParameterException',
      new InvalidParameterException({ message: 'x', ...meta }),
      /Upload it again/,
    ],
    [
      'InvalidS3ObjectException',
      new InvalidS3ObjectException({ message: 'x', ...meta }),
      /Upload the receipt again/,
    ],
    ['AccessDeniedException', new AccessDeniedException({ message: 'x', ...meta }), /administrator/],
  ])('treats %s as final, with a message the user can act on', async (name, vendorError, message) => {
    textract.on(AnalyzeExpenseCommand).rejects(vendorError);
    const error = await failure(analyzer.analyze(jpeg, 'image/jpeg'));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(message);
    expect(error.code).toBe(`Textract${name}`);
    expect(error.message).not.toMatch(/Exception/);
  });

  it('retries an unknown service fault but not an unknown client fault', async () => {
    const server = new TextractServiceException({ name: 'SomethingNew', $fault: 'server', ...meta });
    textract.on(AnalyzeExpenseCommand).rejects(server);
    expect((await failure(analyzer.analyze(jpeg, 'image/jpeg'))).retryable).toBe(true);
    const clientFault = new TextractServiceException({ name: 'SomethingElse', $fault: 'client', ...meta });
    textract.on(AnalyzeExpenseCommand).rejects(clientFault);
    expect((await failure(analyzer.analyze(jpeg, 'image/jpeg'))).retryable).toBe(false);
  });

  it('retries when Textract cannot be reached', async () => {
    const network = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    textract.on(AnalyzeExpenseCommand).rejects(network);
    const error = await failure(analyzer.analyze(jpeg, 'image/jpeg'));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/could not be reached/);
  });

  it('lets other errors through unchanged', async () => {
    const bug = new TypeError('not a function');
    textract.on(AnalyzeExpenseCommand).rejects(bug);
    await expect(analyzer.analyze(jpeg, 'image/jpeg')).rejects.toBe(bug);
  });

  it('refuses WebP and other types Textract cannot read, without calling it', async () => {
    const webp = await failure(analyzer.analyze(jpeg, 'image/webp'));
    expect(webp.retryable).toBe(false);
    expect(webp.message).toMatch(/WebP.*JPEG or PNG/);
    const gif = await failure(analyzer.analyze(jpeg, 'image/gif'));
    expect(gif.message).toMatch(/image\/gif/);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
  });

  it('refuses bytes over the 10 MB limit without calling Textract, but not a stored object', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    const error = await failure(analyzer.analyze(big, 'image/jpeg'));
    expect(error.retryable).toBe(false);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
    textract.on(AnalyzeExpenseCommand).resolves({ ...receipt, ...meta });
    await expect(analyzer.analyze(big, 'image/jpeg', { bucket: 'b', key: 'k' })).resolves.toBeDefined();
  });

  it('reports an image with nothing readable as a final failure', async () => {
    textract
      .on(AnalyzeExpenseCommand)
      .resolves({ ...expenseResponse({ summary: [field('OTHER', 'x')] }), ...meta });
    const error = await failure(analyzer.analyze(jpeg, 'image/jpeg'));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/No receipt could be read/);
  });
});
