import { describe, expect, it } from 'vitest';
import { currencyCodeOf, detectCurrency, findAmounts, parseAmount } from '../src';

describe('parseAmount', () => {
  it.each([
    ['9.00', 9],
    ['RM8.60', 8.6],
    ['RM 8.60', 8.6],
    ['$1,234.56', 1234.56],
    ['1.234,56 €', 1234.56],
    ['12,50', 12.5],
    ['-0.02', -0.02],
    ['-RM0.02', -0.02],
    ['0.02-', -0.02],
    ['(0.02)', -0.02],
    ['£11.40', 11.4],
    ['EUR 23,45', 23.45],
    ['1810.46', 1810.46],
    ['12', 12],
    ['USD 1,200', 1200],
  ])('reads %s as %d', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it('repairs what OCR does to printed amounts', () => {
    expect(parseAmount('4. 80')).toBe(4.8);
    expect(parseAmount('RMO0.00')).toBe(0);
    expect(parseAmount('RM20. 40')).toBe(20.4);
  });

  it('returns null when there is no amount', () => {
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('THANK YOU')).toBeNull();
    expect(parseAmount('12/03/2019')).toBeNull();
  });
});

describe('findAmounts', () => {
  it('finds every money amount of a line, left to right, with its currency mark', () => {
    expect(findAmounts('COCA-COLA 1.5L  2 x 1.99   3.98').map((a) => a.value)).toEqual([1.99, 3.98]);
    expect(findAmounts('Total Incl. GST@6% RM 42.90')).toMatchObject([{ value: 42.9, currency: 'RM' }]);
  });

  it('does not take sizes, percentages, dates, times, codes or phone numbers for money', () => {
    expect(findAmounts('Evian Mineral water 6x1.25L')).toEqual([]);
    expect(findAmounts('GST 6.00%')).toEqual([]);
    expect(findAmounts('DATE 12.03.2019 TIME 16.57.00')).toEqual([]);
    expect(findAmounts('INVOICE 2018041810090010447')).toEqual([]);
    expect(findAmounts('TEL 03-7731 8169')).toEqual([]);
  });
});

describe('currency', () => {
  it('reads symbols and codes', () => {
    expect(detectCurrency('TOTAL RM 12.50')).toBe('MYR');
    expect(detectCurrency('Amount (RM)')).toBe('MYR');
    expect(detectCurrency('TOTAL £11.40')).toBe('GBP');
    expect(detectCurrency('TOTAL € 11,40')).toBe('EUR');
    expect(detectCurrency('TOTAL EUR 11,40')).toBe('EUR');
    expect(detectCurrency('TOTAL S$ 11.40')).toBe('SGD');
    expect(detectCurrency('AMOUNT USD 11.40')).toBe('USD');
  });

  it('reads a bare dollar with the country, and as US dollars without one', () => {
    expect(detectCurrency('TOTAL $13.46', 'US')).toBe('USD');
    expect(detectCurrency('TOTAL $13.46', 'AU')).toBe('AUD');
    expect(detectCurrency('TOTAL $13.46', 'CA')).toBe('CAD');
    expect(detectCurrency('TOTAL $13.46')).toBe('USD');
  });

  it("falls back to the country's currency, and to none without a country", () => {
    expect(detectCurrency('TOTAL 13.46', 'MY')).toBe('MYR');
    expect(detectCurrency('TOTAL 13.46', 'BE')).toBe('EUR');
    expect(detectCurrency('TOTAL 13.46')).toBeNull();
  });

  it('does not let one stray symbol outvote the country', () => {
    expect(detectCurrency('¥*6% GST Included 0.38\nGrand Total : 6.70', 'MY')).toBe('MYR');
  });

  it('maps a single mark to its code', () => {
    expect(currencyCodeOf('RM')).toBe('MYR');
    expect(currencyCodeOf('€')).toBe('EUR');
    expect(currencyCodeOf('usd')).toBe('USD');
    expect(currencyCodeOf('$', 'NZ')).toBe('NZD');
    expect(currencyCodeOf('XYZ')).toBeNull();
  });
});
