import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReceiptText } from '@receipts/analyzer-ocr';
import { assessReview, checkedConfidence, taxRowGross, weighTotal } from '@receipts/core';

/*
 * A tax summary table is the till's own second account of the amount taxed: each row prints the net
 * amount, the tax and the gross, and the rows' gross amounts add up to the total. A row confirms a
 * total only when its own figures agree, so a misread figure in it never does.
 */

const money = (cents: number, comma: boolean) => {
  const text = (cents / 100).toFixed(2);
  return comma ? text.replace('.', ',') : text;
};

describe('taxRowGross', () => {
  it.each([
    ['C7,00% 17,33 1,21 18,54', 18.54],
    ['19,0% 1,44 7,55 8,99', 8.99],
    ['E 7,0% 0,68 9,79 10,47', 10.47],
    ['SR (@6%) 62.00 3.72', 65.72],
    ['T06% 29.69 1.78', 31.47],
    // Two amounts, the tax inside the gross amount.
    ['VAT 20% 12.00 2.00', 12.0],
    // The net amount unreadable (`511`): the tax is the rate's share of the gross.
    ['7,0% 0,36 511 5,47', 5.47],
  ])('reads %j as a row of gross %d', (text, gross) => {
    expect(taxRowGross(text)).toBe(gross);
  });

  it.each([
    // A misread figure: the row does not add up.
    '7,0% 0,36 5,11 5,74',
    // A tax line with one amount, an item with a percentage in its name, no rate at all.
    'GST @6%: $0.46',
    'ECHTER UBERSEERUM 40%VOL 5,69 D',
    'SUB TOTAL 7.00 0.42 7.42',
  ])('gives nothing for %j', (text) => {
    expect(taxRowGross(text)).toBeNull();
  });

  it('reads any row whose figures agree, in any order and either decimal mark (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 500_000 }),
        fc.constantFrom(5, 6, 7, 10, 16, 19, 20, 21),
        fc.boolean(),
        fc.constantFrom('net-tax-gross', 'tax-net-gross', 'net-tax'),
        (net, rate, comma, order) => {
          const tax = Math.round((net * rate) / 100);
          const [n, t, g] = [net, tax, net + tax].map((c) => money(c, comma));
          const figures =
            order === 'net-tax-gross' ? [n, t, g] : order === 'tax-net-gross' ? [t, n, g] : [n, t];
          const text = `${rate}${comma ? ',0' : ''}% ${figures.join(' ')}`;
          expect(taxRowGross(text), text).toBe((net + tax) / 100);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never gives the row its true gross when one figure of three was misread (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 500_000 }),
        fc.constantFrom(7, 19),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 9 }),
        (net, rate, which, delta) => {
          const tax = Math.round((net * rate) / 100);
          const cents = [net, tax, net + tax];
          // One digit of one figure read as another.
          const place = 10 ** (Math.floor(Math.log10(cents[which]!)) > 0 ? 1 : 0);
          cents[which] = cents[which]! + delta * place;
          const text = `${rate}% ${cents.map((c) => money(c, true)).join(' ')}`;
          expect(taxRowGross(text), text).not.toBe((net + tax) / 100);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the tax table as evidence for the total', () => {
  it('confirms a total that the rows add up to, or that the cash rounding moved', () => {
    const exact = weighTotal(
      [
        { kind: 'total', value: 24.23, weight: 3 },
        { kind: 'gross', value: 18.54 },
        { kind: 'gross', value: 5.69 },
      ],
      { judge: 24.23 },
    );
    expect(exact.agreements).toEqual(['tax_table']);
    const rounded = weighTotal(
      [
        { kind: 'total', value: 31.45, weight: 3 },
        { kind: 'rounding', value: -0.02 },
        { kind: 'gross', value: 31.47 },
      ],
      { judge: 31.45 },
    );
    expect(rounded.agreements).toContain('tax_table');
    const other = weighTotal(
      [
        { kind: 'total', value: 24.23, weight: 3 },
        { kind: 'gross', value: 18.54 },
      ],
      { judge: 24.23 },
    );
    expect(other.agreements).toEqual([]);
  });

  it('keeps a German receipt whose item list was read short off the review list', () => {
    const text = [
      'real GmbH',
      '33100 Paderborn',
      'SEBAMED TROCKENE H 8,99 V',
      'INDISCHES CHICKEN 3,99 E',
      'WALNUESSE 30mm+ 40 3,419E',
      'MANDARINEN 1kg 2,99 E',
      'SUMME EUR 19,46',
      'MasterCard EUR 19,*6',
      'Mehrwertst. ohne MwSt mit MwSt',
      'V 19,0% 1,44 7,55 8,99',
      'E 7,0% 0,68 9,79 10,47',
      '15.04.20 16:15 8665111 0176',
    ].join('\n');
    const parsed = parseReceiptText(text);
    const result = { ...parsed, confidence: checkedConfidence(parsed) };
    expect(result.receipt.total_amount).toBe(19.46);
    expect(result.receipt.total_checks_out).toBe(false);
    expect(result.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.9);
    expect(assessReview(result, '2026-11-27').review_reasons).toEqual([]);
    // The same receipt with a tax table that does not add up to its total is flagged.
    const off = parseReceiptText(text.replace('10,47', '10,74').replace('9,79', '10,06'));
    expect(assessReview({ ...off, confidence: checkedConfidence(off) }, '2026-11-27').review_reasons).toEqual(
      ['total_check_fails'],
    );
  });
});
