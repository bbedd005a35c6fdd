import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReceiptText, type CharDoubt } from '@receipts/analyzer-ocr';
import { assessReview, checkedConfidence, type AnalysisResult } from '@receipts/core';

/*
 * What flags a receipt is evidence about its total or date: items that do not add up flag it only
 * when the items themselves were read surely, and a date or total read from a digit the OCR engine
 * doubted rests on that digit.
 */

const TODAY = '2026-11-27';

function analysed(text: string, lineDoubts?: Array<CharDoubt[] | null>) {
  const parsed = parseReceiptText(text, lineDoubts ? { lineDoubts } : {});
  const result = { ...parsed, confidence: checkedConfidence(parsed) };
  return { result, review: assessReview(result, TODAY) };
}

function receipt(
  items: AnalysisResult['items'],
  fields: Partial<AnalysisResult['receipt']> = {},
): Pick<AnalysisResult, 'receipt' | 'items' | 'confidence'> {
  return {
    receipt: {
      doc_type: 'receipt',
      receipt_type: 'retail',
      country_region: 'MY',
      total_amount: 8.2,
      subtotal: null,
      currency_code: 'MYR',
      total_tax: null,
      transaction_date: '2018-03-12',
      transaction_time: null,
      total_checks_out: false,
      ...fields,
    },
    items,
    // The total read from one named line: nothing else confirmed it.
    confidence: { 'receipt.total_amount': 0.8, 'receipt.transaction_date': 0.95 },
  };
}

const item = (total_price: number, quantity: number | null = null, unit_price: number | null = null) => ({
  description: 'GOODS',
  quantity,
  unit_price,
  total_price,
});

describe('items that do not add up', () => {
  it('flag the total when they were read surely', () => {
    expect(assessReview(receipt([item(7.1), item(1.2)]), TODAY).review_reasons).toEqual([
      'total_check_fails',
    ]);
  });

  it('flag nothing when an item prints a quantity and unit price that make another amount', () => {
    // `2 * 2.50  5.03`: the line itself was misread, so its sum is no evidence against the total.
    const r = receipt([item(5.03, 2, 2.5)], { total_amount: 5 });
    expect(assessReview(r, TODAY).needs_review).toBe(false);
    // The same line read consistently is evidence.
    const sure = receipt([item(5.5, 2, 2.75)], { total_amount: 5 });
    expect(assessReview(sure, TODAY).review_reasons).toEqual(['total_check_fails']);
  });

  it('flag nothing when they add up once a line repeating the total is left out', () => {
    // `Total Amount: $8.20` read as one more item.
    const r = receipt([item(7.1), item(1.1), item(8.2)]);
    expect(assessReview(r, TODAY).needs_review).toBe(false);
    // An item equal to the total whose removal still leaves the sum off is no such line.
    const off = receipt([item(7.1), item(1.3), item(8.2)]);
    expect(assessReview(off, TODAY).review_reasons).toEqual(['total_check_fails']);
  });

  it('never excuse items that add up to another amount than the total (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 5_000 }),
        (cents, off) => {
          const sum = cents.reduce((s, c) => s + c, 0);
          // The total is the items' sum moved by `off`: no item repeats it, no line disagrees.
          const total = (sum + off) / 100;
          if (cents.some((c) => c === sum + off)) return;
          const r = receipt(
            cents.map((c) => item(c / 100)),
            { total_amount: total },
          );
          expect(assessReview(r, TODAY).review_reasons).toContain('total_check_fails');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a figure read from a doubted digit', () => {
  const text = [
    'real GmbH',
    '33100 Paderborn',
    'STEINOFENBROETCHEN 0,29',
    'KAROTTENSALAT 1,19',
    'INDISCHES CHICKEN 3,99',
    'SUMME EUR 5,47',
    'Bar EUR 5,47',
    '29.02.20 14:52 8665105 0263',
  ].join('\n');

  it('leaves a date printed once thin when another digit was nearly as likely', () => {
    expect(analysed(text).review.needs_review).toBe(false);
    // The engine read `9` at 0.91, with `5` next.
    const doubts: Array<CharDoubt[] | null> = text.split('\n').map(() => null);
    doubts[7] = [[1, 0.91, '5']];
    const { result, review } = analysed(text, doubts);
    expect(result.receipt.transaction_date).toBe('2020-02-29');
    expect(result.confidence['receipt.transaction_date']).toBeLessThan(0.5);
    expect(review.review_reasons).toEqual(['low_confidence']);
    // A doubt whose runner-up is no digit, or a sure digit, leaves the date as it was.
    doubts[7] = [[1, 0.91, '_']];
    expect(analysed(text, doubts).review.needs_review).toBe(false);
    doubts[7] = [[1, 0.97, '5']];
    expect(analysed(text, doubts).review.needs_review).toBe(false);
  });

  it('keeps a date printed twice sure', () => {
    const twice = `${text}\nDatum: 29.02.2020`;
    const doubts: Array<CharDoubt[] | null> = twice.split('\n').map(() => null);
    doubts[7] = [[1, 0.91, '5']];
    expect(analysed(twice, doubts).review.needs_review).toBe(false);
  });

  it('makes a total thin when it and the figures agreeing with it were read from doubted digits', () => {
    const till = [
      'YONG CEN ENTERPRISE',
      'DATE: 25/04/2017',
      'TEPUNG JAGUNG 42.50',
      'SUB-TOTAL 82.50',
      'GST 1.50',
      'TOTAL 84.00',
      'CASH 84.00',
      'CHANGE 0.00',
    ].join('\n');
    const sure = analysed(till);
    expect(sure.result.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.9);
    // `84.00`: the 8 at 0.50, with 9 next (the receipt prints 94.00); the subtotal's and the cash's 8
    // doubted too, in the same faint print.
    const doubts: Array<CharDoubt[] | null> = till.split('\n').map(() => null);
    doubts[5] = [[6, 0.5, '9']];
    const { result, review } = analysed(till, doubts);
    // Sure figures agreeing (the subtotal with the tax, the cash) vouch for it.
    expect(result.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.9);
    expect(review.needs_review).toBe(false);
    doubts[3] = [[10, 0.62, '9']];
    doubts[6] = [[5, 0.81, '9']];
    const thin = analysed(till, doubts);
    expect(thin.result.confidence['receipt.total_amount']).toBeLessThan(0.5);
    expect(thin.review.review_reasons).toEqual(['total_check_fails', 'low_confidence']);
  });
});
