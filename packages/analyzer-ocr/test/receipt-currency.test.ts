import { describe, expect, it } from 'vitest';
import { receiptCurrency } from '../src';

describe('receiptCurrency', () => {
  it('reads symbols and codes', () => {
    expect(receiptCurrency('TOTAL RM 12.50')).toBe('MYR');
    expect(receiptCurrency('Amount (RM)')).toBe('MYR');
    expect(receiptCurrency('TOTAL £11.40')).toBe('GBP');
    expect(receiptCurrency('TOTAL € 11,40')).toBe('EUR');
    expect(receiptCurrency('TOTAL EUR 11,40')).toBe('EUR');
    expect(receiptCurrency('TOTAL S$ 11.40')).toBe('SGD');
    expect(receiptCurrency('AMOUNT USD 11.40')).toBe('USD');
  });

  it('reads a bare dollar with the country, and as US dollars without one', () => {
    expect(receiptCurrency('TOTAL $13.46', 'US')).toBe('USD');
    expect(receiptCurrency('TOTAL $13.46', 'AU')).toBe('AUD');
    expect(receiptCurrency('TOTAL $13.46', 'CA')).toBe('CAD');
    expect(receiptCurrency('TOTAL $13.46')).toBe('USD');
  });

  it("falls back to the country's currency, and to none without a country", () => {
    expect(receiptCurrency('TOTAL 13.46', 'MY')).toBe('MYR');
    expect(receiptCurrency('TOTAL 13.46', 'BE')).toBe('EUR');
    expect(receiptCurrency('TOTAL 13.46')).toBeNull();
  });

  it('does not let one stray symbol outvote the country', () => {
    expect(receiptCurrency('¥*6% GST Included 0.38\nGrand Total : 6.70', 'MY')).toBe('MYR');
  });
});
