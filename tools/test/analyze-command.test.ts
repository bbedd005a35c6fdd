import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyzerError, type AnalysisResult, type Analyzer } from '@receipts/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyze } from '../src/cli/analyze-command';

let dir: string;

const value = (type: string, text: string, label?: string) => ({
  Type: { Text: type, Confidence: 99 },
  ...(label ? { LabelDetection: { Text: label, Confidence: 99 } } : {}),
  ValueDetection: { Text: text, Confidence: 98 },
  PageNumber: 1,
});
const textractResponse = {
  DocumentMetadata: { Pages: 1 },
  ExpenseDocuments: [
    {
      ExpenseIndex: 1,
      SummaryFields: [
        value('VENDOR_NAME', 'TESCO STORES LTD'),
        value('INVOICE_RECEIPT_DATE', '05/11/2023'),
        value('SUBTOTAL', '£5.34', 'SUBTOTAL'),
        value('TOTAL', '£5.34', 'TOTAL'),
      ],
      LineItemGroups: [
        {
          LineItemGroupIndex: 1,
          LineItems: [
            { LineItemExpenseFields: [value('ITEM', 'HNZ BAKED BEANZ'), value('PRICE', '1.85')] },
            { LineItemExpenseFields: [value('ITEM', 'COCA-C0LA 1.5L'), value('PRICE', '2.00')] },
            { LineItemExpenseFields: [value('ITEM', 'LOOSE BANANAS'), value('PRICE', '1.49')] },
          ],
        },
      ],
    },
  ],
};

async function run(args: string[], createOcrAnalyzer?: () => Promise<Analyzer>) {
  let stdout = '';
  let stderr = '';
  const code = await runAnalyze(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    ...(createOcrAnalyzer ? { createOcrAnalyzer } : {}),
  });
  return { code, stdout, stderr };
}

/** An analyzer standing in for the OCR, to check how the command drives it. */
function recordingAnalyzer(outcome: AnalysisResult | Error) {
  const calls: Array<{ bytes: number; mimeType: string }> = [];
  let closed = 0;
  const analyzer: Analyzer = {
    name: 'ocr',
    async analyze(image, mimeType) {
      calls.push({ bytes: image.byteLength, mimeType });
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    async close() {
      closed++;
    },
  };
  return { analyzer, calls, closed: () => closed };
}

const ocrResult: AnalysisResult = {
  analyzer: 'ocr',
  receipt: {
    doc_type: 'receipt',
    receipt_type: null,
    country_region: 'GB',
    total_amount: 1.85,
    subtotal: null,
    currency_code: 'GBP',
    total_tax: null,
    transaction_date: '2023-11-05',
    transaction_time: null,
    total_checks_out: true,
  },
  merchant: { name: 'SAINSBURYS', phone_number: null, postal_code: null, city: null, street_address: null },
  items: [{ description: 'CADBURY DAIRY MILK', quantity: null, unit_price: null, total_price: 1.85 }],
  taxes: [],
  confidence: {},
  raw: { text: 'SAINSBURYS ...' },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'analyze-cli-'));
  await writeFile(join(dir, 'tesco.json'), JSON.stringify(textractResponse));
  await writeFile(join(dir, 'broken.json'), '{"ExpenseDocuments": [');
  await writeFile(join(dir, 'other.json'), '{"Blocks": []}');
  await writeFile(join(dir, 'notes.txt'), 'hello');
  await writeFile(join(dir, 'receipt.JPG'), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1]));
  await writeFile(join(dir, 'scan.pdf'), '%PDF-1.7\n');
  await mkdir(join(dir, 'folder.json'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run analyze', () => {
  it('maps a Textract response and adds brands and owners', async () => {
    const { code, stdout, stderr } = await run([join(dir, 'tesco.json')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as AnalysisResult;
    expect(result.analyzer).toBe('textract');
    expect(result.merchant).toMatchObject({ name: 'TESCO STORES LTD', owning_corporation: 'Tesco PLC' });
    expect(result.receipt).toMatchObject({
      total_amount: 5.34,
      currency_code: 'GBP',
      transaction_date: '2023-11-05',
      total_checks_out: true,
    });
    expect(result.items.map((i) => [i.description, i.brand, i.owning_corporation])).toEqual([
      ['HNZ BAKED BEANZ', 'Heinz', 'The Kraft Heinz Company'],
      ['COCA-C0LA 1.5L', 'Coca-Cola', 'The Coca-Cola Company'],
      ['LOOSE BANANAS', null, null],
    ]);
    expect(result.raw).toEqual(textractResponse);
    expect(stdout).toContain('\n  "receipt": {');
  });

  it('leaves out the raw output and the enrichment when asked', async () => {
    const { code, stdout } = await run([join(dir, 'tesco.json'), '--no-raw', '--no-enrich']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Record<string, unknown> & AnalysisResult;
    expect(result).not.toHaveProperty('raw');
    expect(result.items[0]).not.toHaveProperty('brand');
    expect(result.merchant).not.toHaveProperty('owning_corporation');
  });

  it('reads images with the OCR analyzer, by their extension, and closes it', async () => {
    const ocr = recordingAnalyzer(ocrResult);
    const { code, stdout } = await run([join(dir, 'receipt.JPG')], async () => ocr.analyzer);
    expect(code).toBe(0);
    expect(ocr.calls).toEqual([{ bytes: 6, mimeType: 'image/jpeg' }]);
    expect(ocr.closed()).toBe(1);
    const result = JSON.parse(stdout) as AnalysisResult;
    expect(result.items[0]).toMatchObject({ brand: 'Cadbury', owning_corporation: 'Mondelēz International' });
    expect(result.merchant.owning_corporation).toBe('J Sainsbury plc');

    const pdf = recordingAnalyzer(ocrResult);
    await run([join(dir, 'scan.pdf')], async () => pdf.analyzer);
    expect(pdf.calls[0]!.mimeType).toBe('application/pdf');
  });

  it("prints the analyzer's message, not a stack, and still closes it", async () => {
    const ocr = recordingAnalyzer(
      new AnalyzerError('No receipt could be read from this image.', { retryable: false }),
    );
    const { code, stdout, stderr } = await run([join(dir, 'receipt.JPG')], async () => ocr.analyzer);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('No receipt could be read from this image.\n');
    expect(ocr.closed()).toBe(1);
    const crash = recordingAnalyzer(new TypeError('boom'));
    const crashed = await run([join(dir, 'receipt.JPG')], async () => crash.analyzer);
    expect(crashed.stderr).toBe('Analysis failed: boom\n');
    expect(crashed.stderr).not.toMatch(/at .*\(/);
  });

  it.each([
    [['/definitely/not/here.jpg'], 1, /File not found: \/definitely\/not\/here\.jpg/],
    [['folder.json'], 1, /is not a file/],
    [['notes.txt'], 1, /Unsupported file type "\.txt".*\.jpg.*\.json/],
    [['broken.json'], 1, /is not valid JSON/],
    [['other.json'], 1, /not an Amazon Textract AnalyzeExpense response/],
  ])('explains what is wrong with %j', async (args, exitCode, message) => {
    const resolved = args.map((a) => (a.startsWith('/') ? a : join(dir, a)));
    const { code, stdout, stderr } = await run(resolved);
    expect(code).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('shows how to use it when the arguments are wrong', async () => {
    for (const args of [[], ['a.json', 'b.json'], ['--verbose', 'a.json']]) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/Usage: npm run analyze -- <file>/);
    }
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage/);
  });
});
