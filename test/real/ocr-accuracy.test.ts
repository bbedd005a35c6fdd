/**
 * The local OCR analyzer on real receipts: the 94 scanned SROIE receipts with their ground truth,
 * read by the combined engine (PaddleOCR for figures, Tesseract for words) and scored by the same
 * evaluation as `npm run eval`, must stay at or above the accuracy reached so far, on the whole set
 * and on each half (the floors below only ever go up); and two more real receipt photos from other
 * public fixtures must read their merchant, date and total with the default (Tesseract) engine.
 *
 * Reads $RECEIPT_FIXTURES_DIR/sroie, .../textract/textractor/receipt.jpg and
 * .../azure/rest-api-samples/contoso-allinone.jpg. Speed is printed, not asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DictionaryEnricher } from '@receipts/enricher-brands';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { evaluate, formatReport, type EvalReport } from '../../tools/src/eval/evaluate';

const fixtures = process.env['RECEIPT_FIXTURES_DIR'];
if (!fixtures) {
  throw new Error(
    'Set RECEIPT_FIXTURES_DIR to the public fixtures folder (e.g. ../shared/fixtures) to run test/real.',
  );
}
const sroie = join(fixtures, 'sroie');
if (!existsSync(sroie)) throw new Error(`No SROIE receipts at ${sroie}.`);

/**
 * Receipts read exactly right by `npm run eval -- --analyzer ocr --engine combined` when these floors
 * were set, less one: [even half (47), odd half (47)]. Measured: company 43 / 44, date 46 / 47,
 * total 46 / 47 (the company and date floors were raised by the heading's doubted letters settled by
 * known names and the date printed with the time whose separator was lost). Raise them when the
 * analyzer improves; never lower them without saying why:
 * - the company floor of the even half went from 37 to 35 when Tesseract came to read only the
 *   heading (names read differently on both halves, 1 fewer right in all, addresses 4 more, in half
 *   the time);
 * - the date and total floors of the even half went from 43 and 44 to 42 and 43 when PaddleOCR came
 *   to detect text at half size: the lines cut from those boxes read one receipt's total (`31.47`
 *   for 31.45) and another's year (`13` for 18) wrong, for a receipt read in 1.8 s instead of 3.3 s
 *   and PaddleOCR's own names and addresses read far better.
 */
const FLOORS = {
  company: [42, 43],
  date: [45, 46],
  total: [45, 46],
} as const;

/**
 * The German scans of `de/` (26: 13 per half), read by the combined engine, as measured by `npm run
 * eval`: [even half, odd half] receipts right. The shop counts when the
 * chain's slug and the merchant read contain one another (letters only); items against our own
 * labels (tools/eval/labels/de), item F1 in percent.
 */
const GERMAN_FLOORS = {
  // Measured 13 / 13 (shop), 12 / 13 (date) and 13 / 13 (total) on the even / odd halves; one
  // receipt of margin each for the OCR engine's run-to-run differences.
  company: [12, 12],
  date: [11, 12],
  total: [12, 12],
} as const;
/** Measured 96.3 / 94.3 (94.1 / 93.1 before the rows with a damaged amount or tax code were read). */
const GERMAN_ITEM_F1 = [95, 93] as const;
/**
 * Of the German items matched to the labels, those read with the labels' quantity and unit price too
 * (counted, weighed and priced per kilogram or litre), [even half, odd half]: measured 91 / 131.
 */
const GERMAN_ITEMS_MEASURED = [90, 130] as const;
/**
 * German receipts with as many items read as the truth counts, [even half, odd half]: measured 12 / 12
 * (9 / 10 before the rows with a damaged amount or tax code were read), less one.
 */
const GERMAN_ITEM_COUNT = [11, 11] as const;

/**
 * The SROIE receipts' items against our own labels (tools/eval/labels/sroie, 65 labelled: 32 / 33):
 * item F1 in percent, measured 85.7 / 89.9 (75.0 / 74.4 when the items came to be read from the
 * rows' columns; then item groups under their subtotals, count columns and heading lines; 81.8 / 82.0
 * before the misread rows of issue #23's adjustments round; 82.8 / 82.0 before the returns of
 * delivery notes, article codes, amounts misread in their currency mark, decimal point or a digit,
 * and damaged tax codes), less a point or two; receipts (of 47 per half) whose items add up to the
 * right total, with the adjustments printed between the items and the total (cash rounding, service
 * charges, discounts), measured 39 / 42 (25 / 30 before those were read, 37 / 38 before the returns
 * and the damaged amounts), less one.
 */
const SROIE_ITEM_F1 = [84, 88] as const;
const SROIE_ITEMS_ADD_UP = [38, 41] as const;

/**
 * Labelled brands found on the items read (enriched as the app does), [even half, odd half], less
 * one of margin: SROIE measured 20 of 24 / 31 of 38 (its recall is bounded by the items read; 19 / 21
 * before the returns of delivery notes, the rows after article codes and the damaged amounts were
 * read), German 34 of 36 / 62 of 75. Of the brands given to paired items, at least 95 % must be right
 * on each half.
 */
const SROIE_BRANDS_FOUND = [19, 30] as const;
const GERMAN_BRANDS_FOUND = [33, 61] as const;
const BRAND_PRECISION = 0.95;

let analyzer: OcrAnalyzer;
let combined: OcrAnalyzer;
let report: EvalReport;
let german: EvalReport;

beforeAll(async () => {
  analyzer = await OcrAnalyzer.create({ workers: 2 });
  // As the app runs it: with the brand dictionary's store chains (lambdas/src/composition.ts).
  const dictionary = new DictionaryEnricher();
  combined = await OcrAnalyzer.create({ workers: 2, engine: 'combined', chains: dictionary });
  report = await evaluate({
    analyzer: 'ocr',
    dir: sroie,
    ocr: combined,
    enricher: dictionary,
    concurrency: 2,
    labelsDir: fileURLToPath(new URL('../../tools/eval/labels/sroie/', import.meta.url)),
  });
  console.log(formatReport(report));
  german = await evaluate({
    analyzer: 'ocr',
    dir: join(fixtures, 'de'),
    ocr: combined,
    enricher: dictionary,
    concurrency: 2,
    labelsDir: fileURLToPath(new URL('../../tools/eval/labels/de/', import.meta.url)),
  });
  console.log(formatReport(german));
});

afterAll(async () => {
  await Promise.all([analyzer?.close(), combined?.close()]);
});

describe('local OCR (combined engine) on the SROIE receipts', () => {
  it('reads all 94 receipts without an error', () => {
    expect(report.receipts).toBe(94);
    expect(report.results.filter((r) => r.error)).toEqual([]);
  });

  it.each(Object.entries(FLOORS))(
    'reads %s right on at least the floor of each half',
    (field, [even, odd]) => {
      const right = (half: number) =>
        report.results.filter((r, i) => i % 2 === half && r.correct[field as keyof typeof FLOORS]).length;
      expect(right(0)).toBeGreaterThanOrEqual(even);
      expect(right(1)).toBeGreaterThanOrEqual(odd);
    },
  );

  it('flags every wrong total or date, and few right ones, on each half', () => {
    expectFewFlags(report);
  });

  it('reads the labelled items at least as well as measured, on each half', () => {
    expect(report.halves!.even.labelled!.f1 * 100).toBeGreaterThanOrEqual(SROIE_ITEM_F1[0]);
    expect(report.halves!.odd.labelled!.f1 * 100).toBeGreaterThanOrEqual(SROIE_ITEM_F1[1]);
    expect(report.halves!.even.itemsAddUp!.count).toBeGreaterThanOrEqual(SROIE_ITEMS_ADD_UP[0]);
    expect(report.halves!.odd.itemsAddUp!.count).toBeGreaterThanOrEqual(SROIE_ITEMS_ADD_UP[1]);
  });

  it('names the labelled brands of the items read, rightly, on each half', () => {
    expectBrands(report, SROIE_BRANDS_FOUND);
  });
});

describe('local OCR (combined engine) on the German receipts', () => {
  it.each(Object.entries(GERMAN_FLOORS))(
    'reads %s right on at least the floor of each half',
    (field, [even, odd]) => {
      expect(german.halves!.even.fields[field as keyof typeof GERMAN_FLOORS]!.count).toBeGreaterThanOrEqual(
        even,
      );
      expect(german.halves!.odd.fields[field as keyof typeof GERMAN_FLOORS]!.count).toBeGreaterThanOrEqual(
        odd,
      );
    },
  );

  it('reads the labelled items at least as well as measured, on each half', () => {
    expect(german.halves!.even.labelled!.f1 * 100).toBeGreaterThanOrEqual(GERMAN_ITEM_F1[0]);
    expect(german.halves!.odd.labelled!.f1 * 100).toBeGreaterThanOrEqual(GERMAN_ITEM_F1[1]);
    expect(german.halves!.even.itemCount!.count).toBeGreaterThanOrEqual(GERMAN_ITEM_COUNT[0]);
    expect(german.halves!.odd.itemCount!.count).toBeGreaterThanOrEqual(GERMAN_ITEM_COUNT[1]);
  });

  it('reads the quantity and unit price of the labelled items as printed, on each half', () => {
    expect(german.halves!.even.labelled!.measured).toBeGreaterThanOrEqual(GERMAN_ITEMS_MEASURED[0]);
    expect(german.halves!.odd.labelled!.measured).toBeGreaterThanOrEqual(GERMAN_ITEMS_MEASURED[1]);
  });

  it('names the labelled brands of the items read, rightly, on each half', () => {
    expectBrands(german, GERMAN_BRANDS_FOUND);
  });

  it('flags every wrong total or date, and few right ones, on each half', () => {
    expectFewFlags(german);
  });
});

/**
 * The review list of a set, on each half (issue #24): no wrong total or date unflagged, at most 20 %
 * of the receipts flagged and at most 10 % flagged with their total and date right. Measured: SROIE
 * 3 / 1 flagged and 1 / 1 false alarms of 47 per half, German 1 / 0 flagged and no false alarm.
 */
function expectFewFlags(set: EvalReport) {
  for (const half of [0, 1]) {
    const results = set.results.filter((r) => r.index % 2 === half);
    const right = (r: (typeof results)[number]) => r.correct.total !== false && r.correct.date !== false;
    expect(results.filter((r) => !right(r) && !r.needsReview).map((r) => r.id)).toEqual([]);
    expect(results.filter((r) => r.needsReview).length / results.length).toBeLessThanOrEqual(0.2);
    expect(results.filter((r) => r.needsReview && right(r)).length / results.length).toBeLessThanOrEqual(0.1);
  }
}

describe('local OCR on other real receipt photos', () => {
  it('reads the MEGA MARKET PLUS receipt of the Textract fixtures', async () => {
    const image = readFileSync(join(fixtures, 'textract/textractor/receipt.jpg'));
    const result = await analyzer.analyze(new Uint8Array(image), 'image/jpeg');
    expect(result.merchant.name).toBe('MEGA MARKET PLUS');
    expect(result.receipt).toMatchObject({
      total_amount: 1810.46,
      subtotal: 1699.96,
      total_tax: 110.5,
      transaction_date: '2019-12-07',
      currency_code: 'USD',
    });
  });

  it('reads the total and the US date of the Contoso photo of the Azure samples', async () => {
    const image = readFileSync(join(fixtures, 'azure/rest-api-samples/contoso-allinone.jpg'));
    const result = await analyzer.analyze(new Uint8Array(image), 'image/jpeg');
    expect(result.receipt).toMatchObject({
      total_amount: 14.5,
      subtotal: 11.7,
      total_tax: 1.17,
      transaction_date: '2019-06-10',
      transaction_time: '13:59:00',
      currency_code: 'USD',
    });
  });
});

/** Brands found at or above the floors of each half, and at least BRAND_PRECISION of those given right. */
function expectBrands(evaluated: EvalReport, found: readonly [number, number]): void {
  const halves = [evaluated.halves!.even.brands!, evaluated.halves!.odd.brands!];
  halves.forEach((brands, half) => {
    expect(brands.found).toBeGreaterThanOrEqual(found[half]!);
    expect(brands.right).toBeGreaterThanOrEqual(Math.ceil(brands.given * BRAND_PRECISION));
  });
}
