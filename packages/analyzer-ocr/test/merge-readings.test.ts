import { describe, expect, it } from 'vitest';
import { mergeReadings, parseReceiptText, readingsAgree, type Reading } from '../src';

function reading(lines: string[], confidences: number[]): Reading {
  const text = lines.join('\n');
  return {
    rendering: 'original',
    pageSegMode: '6',
    steps: [],
    text,
    lines: lines.map((l, i) => ({ text: l, confidence: (confidences[i] ?? 0.9) * 100 })),
    confidence: 80,
    ms: 1,
    parsed: parseReceiptText(text, { lineConfidences: confidences }),
  };
}

const good = ['SUNRISE BAKERY', 'DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 7.50'];

describe('readingsAgree', () => {
  it('is true when merchant, date and total are the same in every reading', () => {
    const a = reading(good, [0.9, 0.9, 0.9, 0.9, 0.9]);
    const b = reading(['SUNRISE BAKERY', 'DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.60', 'TOTAL 7.50'], []);
    expect(readingsAgree([a, b])).toBe(true);
  });

  it('is false when one field differs', () => {
    const a = reading(good, []);
    const b = reading(['SUNRISE BAKERY', 'DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 1.50'], []);
    expect(readingsAgree([a, b])).toBe(false);
  });
});

describe('mergeReadings', () => {
  it('elects each field by majority, and takes the items from a reading whose total was elected', () => {
    const a = reading(good, []);
    const misreadTotal = reading(
      ['SUNRISE BAKERY', 'DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 1.50'],
      [],
    );
    const misreadDate = reading(
      ['SUNRISE 8AKERY', 'DATE 14/08/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 7.50'],
      [],
    );
    const merged = mergeReadings([misreadTotal, misreadDate, a]);
    expect(merged.merchant.name).toBe('SUNRISE BAKERY');
    expect(merged.receipt.transaction_date).toBe('2018-02-14');
    expect(merged.receipt.total_amount).toBe(7.5);
    expect(merged.items.map((i) => i.total_price)).toEqual([2, 5.5]);
    expect(merged.receipt.total_checks_out).toBe(true);
  });

  it('between two readings that disagree, believes the line OCR was surer of', () => {
    const sure = reading(good, [0.9, 0.9, 0.9, 0.9, 0.95]);
    const unsure = reading(
      ['SUNRISE BAKERY', 'DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 1.50'],
      [0.9, 0.9, 0.9, 0.9, 0.4],
    );
    expect(mergeReadings([unsure, sure]).receipt.total_amount).toBe(7.5);
    expect(mergeReadings([sure, unsure]).receipt.total_amount).toBe(7.5);
  });

  it('lets two readings of one name with a letter apart outvote a surer third reading of another', () => {
    const body = ['DATE 14/02/2018', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 7.50'];
    const first = reading(['SUNRISE BAKERY (4) SDN BHD', ...body], [0.6]);
    const second = reading(['SUNRISE BAKERV (M) SDN BHD', ...body], [0.7]);
    const third = reading(['TAMAN BERKELEY', ...body], [0.95]);
    // The surer of the two alike readings.
    expect(mergeReadings([first, second, third]).merchant.name).toBe('SUNRISE BAKERV (M) SDN BHD');
    // Without a majority of alike names, the surest line still wins.
    expect(mergeReadings([first, third]).merchant.name).toBe('TAMAN BERKELEY');
  });

  it('fills a field only one reading found', () => {
    const withoutDate = reading(['SUNRISE BAKERY', 'BUN 2.00', 'CAKE 5.50', 'TOTAL 7.50'], []);
    expect(mergeReadings([withoutDate, reading(good, [])]).receipt.transaction_date).toBe('2018-02-14');
  });

  it('returns a single reading as it is', () => {
    const a = reading(good, []);
    expect(mergeReadings([a])).toBe(a.parsed);
  });
});
