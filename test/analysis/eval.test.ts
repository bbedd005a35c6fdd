import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { evaluate, formatReport } from '../../tools/src/eval/evaluate';
import { SAMPLE_RECEIPTS, sampleReceiptJpeg, type SampleReceipt } from '../support/receipt-images';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** Ground truth as the SROIE data set writes it: strings, day-first dates, totals with a currency mark. */
function sroieTruth(sample: SampleReceipt, overrides: Record<string, string> = {}) {
  const [y, m, d] = sample.truth.receipt.transaction_date.split('-');
  return {
    company: sample.truth.merchant.name,
    date: `${d}/${m}/${y}`,
    address: sample.spec.addressLines.join(', '),
    total: `${sample.spec.currencySymbol}${sample.truth.receipt.total_amount.toFixed(2)}`,
    ...overrides,
  };
}

/** A minimal AnalyzeExpense response, shaped as Textract returns it, for one sample receipt. */
function textractResponse(sample: SampleReceipt) {
  const field = (type: string, text: string, group?: string) => ({
    Type: { Text: type, Confidence: 99 },
    ValueDetection: { Text: text, Confidence: 98.5 },
    ...(group ? { GroupProperties: [{ Types: [group], Id: 'g1' }] } : {}),
  });
  return {
    DocumentMetadata: { Pages: 1 },
    ExpenseDocuments: [
      {
        ExpenseIndex: 1,
        SummaryFields: [
          field('VENDOR_NAME', sample.truth.merchant.name),
          field('INVOICE_RECEIPT_DATE', sample.truth.receipt.transaction_date),
          field('TOTAL', sample.truth.receipt.total_amount.toFixed(2)),
        ],
        LineItemGroups: [],
      },
    ],
  };
}

let dir: string;
let analyzer: OcrAnalyzer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'receipt-eval-'));
  for (const [i, sample] of SAMPLE_RECEIPTS.entries()) {
    const id = String(i).padStart(3, '0');
    await writeFile(path.join(dir, `${id}.jpg`), await sampleReceiptJpeg(i));
    await writeFile(path.join(dir, `${id}.json`), JSON.stringify(sroieTruth(sample)));
    await writeFile(path.join(dir, `${id}.textract.json`), JSON.stringify(textractResponse(sample)));
  }
  // A receipt whose ground truth names another company, and an image without ground truth.
  await writeFile(path.join(dir, '900.jpg'), await sampleReceiptJpeg(0));
  await writeFile(
    path.join(dir, '900.json'),
    JSON.stringify(sroieTruth(SAMPLE_RECEIPTS[0]!, { company: 'OTHER SHOP' })),
  );
  await writeFile(path.join(dir, '901.jpg'), await sampleReceiptJpeg(1));
  analyzer = await OcrAnalyzer.create({ workers: 2 });
});

afterAll(async () => {
  await analyzer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('evaluate', () => {
  it('scores the OCR analyzer field by field against SROIE-style ground truth', async () => {
    const report = await evaluate({ analyzer: 'ocr', dir, ocr: analyzer });
    expect(report.receipts).toBe(4);
    expect(report.results.map((r) => r.id)).toEqual(['000', '001', '002', '900']);
    expect(report.fields.date).toMatchObject({ correct: 4, total: 4, accuracy: 1 });
    expect(report.fields.total).toMatchObject({ correct: 4, accuracy: 1 });
    expect(report.fields.address).toMatchObject({ correct: 4 });
    expect(report.fields.company).toMatchObject({ correct: 3, accuracy: 0.75 });
    expect(report.fields.company!.failures).toEqual([
      { id: '900', expected: 'OTHER SHOP', got: SAMPLE_RECEIPTS[0]!.truth.merchant.name },
    ]);
    expect(report.medianSeconds).toBeGreaterThan(0);
    const text = formatReport(report);
    expect(text).toMatch(/company\s+75\.0 %\s+\(3\/4\)/);
    expect(text).toMatch(/total\s+100\.0 %\s+\(4\/4\)/);
    expect(text).toContain('900  expected "OTHER SHOP"  got "FRESHMART GROCERS"');
    expect(text).toMatch(/median \d+\.\d\d s per receipt/);
  });

  it('stops after --limit receipts', async () => {
    const report = await evaluate({ analyzer: 'ocr', dir, ocr: analyzer, limit: 2 });
    expect(report.results.map((r) => r.id)).toEqual(['000', '001']);
  });

  it('maps stored Textract responses for --analyzer textract', async () => {
    const report = await evaluate({ analyzer: 'textract', dir });
    expect(report.receipts).toBe(3);
    expect(report.fields.company?.accuracy).toBe(1);
    expect(report.fields.date?.accuracy).toBe(1);
    expect(report.fields.total?.accuracy).toBe(1);
  });

  it('says what is wrong with a folder it cannot use', async () => {
    await expect(
      evaluate({ analyzer: 'ocr', dir: path.join(dir, 'missing'), ocr: analyzer }),
    ).rejects.toThrow(/Cannot read the folder/);
    const empty = await mkdtemp(path.join(tmpdir(), 'receipt-eval-empty-'));
    try {
      await expect(evaluate({ analyzer: 'textract', dir: empty })).rejects.toThrow(
        /No receipts in .*NNN\.textract\.json/,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('npm run eval', () => {
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(root, 'tools/src/cli/eval.ts'), ...args], {
      cwd: root,
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('prints the accuracy and writes the per-receipt results with --out', async () => {
    const out = path.join(dir, 'results.json');
    const { code, stdout } = await cli(['--analyzer', 'textract', '--dir', dir, '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/company\s+100\.0 %\s+\(3\/3\)/);
    const written = JSON.parse(await readFile(out, 'utf8'));
    expect(written.results).toHaveLength(3);
    expect(written.results[0]).toMatchObject({
      id: '000',
      correct: { company: true, date: true, total: true },
    });
  });

  it('explains bad arguments and exits with 2', async () => {
    const noDir = await cli(['--analyzer', 'ocr']);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/--dir is required/);
    const badAnalyzer = await cli(['--analyzer', 'azure', '--dir', dir]);
    expect(badAnalyzer.code).toBe(2);
    expect(badAnalyzer.stderr).toMatch(/--analyzer must be ocr or textract/);
    const missing = await cli(['--analyzer', 'textract', '--dir', path.join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read the folder/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
