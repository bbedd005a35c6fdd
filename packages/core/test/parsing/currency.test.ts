import { describe, expect, it } from 'vitest';
import {
  countryCodeOf,
  currencyOfMark,
  detectCurrency,
  findCurrencyMarks,
  isCurrencyCode,
  normalizeCurrencyCode,
} from '../../src';

describe('currency', () => {
  it('knows ISO 4217 codes', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('MYR')).toBe(true);
    expect(isCurrencyCode('TAX')).toBe(false);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(normalizeCurrencyCode(' usd ')).toBe('USD');
    expect(normalizeCurrencyCode('XYZ')).toBeNull();
    expect(normalizeCurrencyCode(undefined)).toBeNull();
  });

  it('reads symbols, local marks and codes', () => {
    expect(currencyOfMark('€')).toBe('EUR');
    expect(currencyOfMark('£')).toBe('GBP');
    expect(currencyOfMark('RM')).toBe('MYR');
    expect(currencyOfMark('US$')).toBe('USD');
    expect(currencyOfMark('S$')).toBe('SGD');
    expect(currencyOfMark('usd')).toBe('USD');
    expect(currencyOfMark('Euro')).toBe('EUR');
  });

  it('reads ambiguous marks only with the country', () => {
    expect(currencyOfMark('$')).toBeNull();
    expect(currencyOfMark('$', 'US')).toBe('USD');
    expect(currencyOfMark('$', 'au')).toBe('AUD');
    expect(currencyOfMark('$', 'BE')).toBeNull();
    expect(currencyOfMark('¥', 'JP')).toBe('JPY');
    expect(currencyOfMark('kr', 'SE')).toBe('SEK');
  });

  it('detects the currency a text names, by majority', () => {
    expect(detectCurrency('TOTAL RM 12.00 CASH RM20.00')).toBe('MYR');
    expect(detectCurrency('Subtotal 10,00 € Total 12,10 EUR')).toBe('EUR');
    expect(detectCurrency('TOTAL $12.00')).toBeNull();
    expect(detectCurrency('TOTAL $12.00', 'US')).toBe('USD');
    expect(detectCurrency('THE TAX ON ALL ITEMS')).toBeNull();
    expect(detectCurrency('paid in usd')).toBeNull();
  });

  it('finds marks with their positions', () => {
    expect(findCurrencyMarks('12.50 EUR or $13', 'US')).toEqual([
      { mark: 'EUR', index: 6, code: 'EUR' },
      { mark: '$', index: 13, code: 'USD' },
    ]);
  });
});

describe('countryCodeOf', () => {
  it.each([
    ['USA', 'US'],
    ['U.S.A.', 'US'],
    ['United States', 'US'],
    ['United Kingdom', 'GB'],
    ['UK', 'GB'],
    ['België', 'BE'],
    ['Malaysia', 'MY'],
    [' malaysia. ', 'MY'],
    ['The Netherlands', 'NL'],
  ])('reads %j as %s', (text, code) => {
    expect(countryCodeOf(text)).toBe(code);
  });

  it('gives null for what is not a country it knows', () => {
    expect(countryCodeOf('XYZ,')).toBeNull();
    expect(countryCodeOf('')).toBeNull();
    expect(countryCodeOf(null)).toBeNull();
  });
});

describe('currency codes that are also words', () => {
  it('count only beside an amount', () => {
    expect(detectCurrency('ALL ITEMS TOP CUP')).toBeNull();
    expect(detectCurrency('TOTAL 25.00 TRY')).toBe('TRY');
    expect(detectCurrency('PEN 12.50')).toBe('PEN');
  });
});

describe('currencyOfMark on marks as receipts print them', () => {
  it('maps a single mark to its code', () => {
    expect(currencyOfMark('RM')).toBe('MYR');
    expect(currencyOfMark('€')).toBe('EUR');
    expect(currencyOfMark('usd')).toBe('USD');
    expect(currencyOfMark('$', 'NZ')).toBe('NZD');
    expect(currencyOfMark('XYZ')).toBeNull();
  });
});
