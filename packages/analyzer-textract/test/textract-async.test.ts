import {
  AnalyzeExpenseCommand,
  GetExpenseAnalysisCommand,
  StartExpenseAnalysisCommand,
  TextractClient,
  ThrottlingException,
  UnsupportedDocumentException,
} from '@aws-sdk/client-textract';
import { AnalyzerError } from '@receipts/core';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { TextractAnalyzer } from '../src';
import { expenseResponse, field, lineItem } from './expense-builder';

const client = new TextractClient({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});
const textract = mockClient(client);
const meta = { $metadata: {} };
const source = { bucket: 'receipts-images', key: 'user-1/1700000000000-receipt.pdf' };

/** The pauses the analyzer asked for, instead of waiting them. */
let slept: number[] = [];
const analyzer = new TextractAnalyzer({
  client,
  maxWaitMs: 10_000,
  sleep: async (ms) => {
    slept.push(ms);
  },
});

/** A PDF whose page tree is written out plainly, as most receipt printers and mailers write it. */
function plainPdf(pages: number): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  let text = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj\n`;
  for (let i = 0; i < pages; i++) text += `${i + 3} 0 obj << /Type/Page /Parent 2 0 R >> endobj\n`;
  return new TextEncoder().encode(text + '%%EOF\n');
}

/** A PDF as pdf-lib saves it by default: its objects, the page tree included, in compressed object streams. */
async function objectStreamPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 300]).drawText(`page ${i + 1}`);
  return doc.save({ useObjectStreams: true });
}

// Page 1: the shop and the first items; page 2: the last item and the total.
const pageOne = {
  summary: [field('VENDOR_NAME', 'FRESHMART GROCERS'), field('INVOICE_RECEIPT_DATE', '2024-03-12')],
  items: [
    lineItem(['ITEM', 'COCA-COLA 1.5L'], ['PRICE', '3.98']),
    lineItem(['ITEM', 'HEINZ KETCHUP'], ['PRICE', '3.49']),
  ],
};
const pageTwo = {
  summary: [field('SUBTOTAL', '12.46'), field('TAX', '1.00'), field('TOTAL', '$13.46')],
  items: [lineItem(['ITEM', 'DOVE SOAP'], ['PRICE', '4.99'])],
};
const twoPages = expenseResponse(pageOne, pageTwo);

afterEach(() => {
  textract.reset();
  slept = [];
});

async function failure(promise: Promise<unknown>): Promise<AnalyzerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalyzerError);
  return error as AnalyzerError;
}

describe('TextractAnalyzer page count', () => {
  it('counts the pages of a PDF that keeps its page tree in object streams, and sends none past 10', async () => {
    const long = await failure(analyzer.analyze(await objectStreamPdf(11), 'application/pdf', source));
    expect(long.message).toBe(
      'This PDF has 11 pages; a receipt may have at most 10. Upload a PDF with only the receipt’s pages.',
    );
    expect(long.retryable).toBe(false);
    expect(textract.calls()).toHaveLength(0);
  });

  it('sends such a PDF of two pages to the asynchronous analysis, never to AnalyzeExpense', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-7', ...meta });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', ...twoPages, ...meta });
    await analyzer.analyze(await objectStreamPdf(2), 'application/pdf', source);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(1);
  });

  it('sends nothing for a PDF whose page tree cannot be read', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    const error = await failure(analyzer.analyze(broken, 'application/pdf', source));
    expect(error.code).toBe('UnreadablePdf');
    expect(error.retryable).toBe(false);
    expect(textract.calls()).toHaveLength(0);
  });
});

describe('TextractAnalyzer on a multi-page PDF (StartExpenseAnalysis / GetExpenseAnalysis)', () => {
  it('starts an analysis of the S3 object, polls until it succeeds and merges the pages into one receipt', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-1', ...meta });
    textract
      .on(GetExpenseAnalysisCommand)
      .resolvesOnce({ JobStatus: 'IN_PROGRESS', ...meta })
      .resolvesOnce({ JobStatus: 'IN_PROGRESS', ...meta })
      .resolves({ JobStatus: 'SUCCEEDED', ...twoPages, ...meta });

    const result = await analyzer.analyze(plainPdf(2), 'application/pdf', source);

    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(0);
    const start = textract.commandCalls(StartExpenseAnalysisCommand);
    expect(start).toHaveLength(1);
    expect(start[0]!.args[0].input).toMatchObject({
      DocumentLocation: { S3Object: { Bucket: source.bucket, Name: source.key } },
    });
    expect(start[0]!.args[0].input.ClientRequestToken).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const polls = textract.commandCalls(GetExpenseAnalysisCommand);
    expect(polls).toHaveLength(3);
    expect(polls.every((c) => c.args[0].input.JobId === 'job-1')).toBe(true);
    // The pause grows between polls.
    expect(slept).toEqual([1000, 2000]);

    expect(result.analyzer).toBe('textract');
    expect(result.merchant.name).toBe('FRESHMART GROCERS');
    expect(result.receipt).toMatchObject({ total_amount: 13.46, transaction_date: '2024-03-12' });
    expect(result.items.map((i) => [i.description, i.total_price])).toEqual([
      ['COCA-COLA 1.5L', 3.98],
      ['HEINZ KETCHUP', 3.49],
      ['DOVE SOAP', 4.99],
    ]);
  });

  it('reads every page of results when GetExpenseAnalysis answers in several parts', async () => {
    const [first, second] = twoPages.ExpenseDocuments!;
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-2', ...meta });
    textract
      .on(GetExpenseAnalysisCommand, { JobId: 'job-2' })
      .resolves({ JobStatus: 'SUCCEEDED', ExpenseDocuments: [first!], NextToken: 'more', ...meta });
    textract
      .on(GetExpenseAnalysisCommand, { JobId: 'job-2', NextToken: 'more' })
      .resolves({ JobStatus: 'SUCCEEDED', ExpenseDocuments: [second!], ...meta });

    const result = await analyzer.analyze(plainPdf(2), 'application/pdf', source);
    expect(textract.commandCalls(GetExpenseAnalysisCommand)).toHaveLength(2);
    expect(result.items).toHaveLength(3);
    expect(result.receipt.total_amount).toBe(13.46);
  });

  it('asks for the same job on a later attempt: the start token names the stored object', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-3', ...meta });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', ...twoPages, ...meta });
    await analyzer.analyze(plainPdf(2), 'application/pdf', source);
    await analyzer.analyze(plainPdf(2), 'application/pdf', source);
    await analyzer.analyze(plainPdf(2), 'application/pdf', { ...source, key: 'user-1/other.pdf' });
    const tokens = textract
      .commandCalls(StartExpenseAnalysisCommand)
      .map((c) => c.args[0].input.ClientRequestToken);
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  it('gives up after the bounded wait with a retryable error', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-4', ...meta });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'IN_PROGRESS', ...meta });
    const error = await failure(analyzer.analyze(plainPdf(2), 'application/pdf', source));
    expect(error.retryable).toBe(true);
    expect(error.code).toBe('TextractJobStillRunning');
    expect(error.message).toMatch(/taking longer than usual.*tried again/);
    // 1 + 2 + 5 s waited (the pause is capped at 5 s); another 5 s would pass the 10 s bound.
    expect(slept).toEqual([1000, 2000, 4000]);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
  });

  it('reports a failed job as final, with a message the user can act on', async () => {
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-5', ...meta });
    textract
      .on(GetExpenseAnalysisCommand)
      .resolves({ JobStatus: 'FAILED', StatusMessage: 'Unable to read document', ...meta });
    const error = await failure(analyzer.analyze(plainPdf(2), 'application/pdf', source));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/could not read this PDF.*photo of the receipt/);
  });

  it('translates a throttled start like any other Textract call', async () => {
    textract
      .on(StartExpenseAnalysisCommand)
      .rejects(new ThrottlingException({ message: 'slow down', ...meta }));
    const error = await failure(analyzer.analyze(plainPdf(2), 'application/pdf', source));
    expect(error.retryable).toBe(true);
    expect(error.code).toBe('TextractThrottlingException');
  });

  it('refuses a multi-page PDF that is not in S3, and one with too many pages, without calling Textract', async () => {
    const local = await failure(analyzer.analyze(plainPdf(2), 'application/pdf'));
    expect(local.retryable).toBe(false);
    expect(local.message).toMatch(/several pages can only be read from the receipt store/);
    const long = await failure(analyzer.analyze(plainPdf(11), 'application/pdf', source));
    expect(long.message).toBe(
      'This PDF has 11 pages; a receipt may have at most 10. Upload a PDF with only the receipt’s pages.',
    );
    expect(textract.calls()).toHaveLength(0);
  });

  it('keeps one-page PDFs on the synchronous AnalyzeExpense', async () => {
    textract.on(AnalyzeExpenseCommand).resolves({
      ...expenseResponse({ ...pageOne, summary: [...pageOne.summary, ...pageTwo.summary] }),
      ...meta,
    });
    const result = await analyzer.analyze(plainPdf(1), 'application/pdf', source);
    expect(result.receipt.total_amount).toBe(13.46);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(1);
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(0);
  });

  it('moves a one-page PDF to the asynchronous analysis when AnalyzeExpense refuses it', async () => {
    textract.on(AnalyzeExpenseCommand).rejects(new UnsupportedDocumentException({ message: 'x', ...meta }));
    textract.on(StartExpenseAnalysisCommand).resolves({ JobId: 'job-6', ...meta });
    textract.on(GetExpenseAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', ...twoPages, ...meta });
    const result = await analyzer.analyze(await objectStreamPdf(1), 'application/pdf', source);
    expect(textract.commandCalls(AnalyzeExpenseCommand)).toHaveLength(1);
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(1);
    expect(result.items).toHaveLength(3);
  });

  it('does not move an image that AnalyzeExpense refuses', async () => {
    textract.on(AnalyzeExpenseCommand).rejects(new UnsupportedDocumentException({ message: 'x', ...meta }));
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const error = await failure(analyzer.analyze(jpeg, 'image/jpeg', source));
    expect(error.code).toBe('TextractUnsupportedDocumentException');
    expect(textract.commandCalls(StartExpenseAnalysisCommand)).toHaveLength(0);
  });
});
