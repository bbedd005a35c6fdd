import { describe, expect, it } from 'vitest';
import { completeLinePrices, findAmounts, parseAmount, parseMoney, printsWholeUnits } from '../../src';

describe('parseAmount', () => {
  it.each([
    ['$1,810.46', 1810.46],
    ['1810.46', 1810.46],
    ['1.810,46 €', 1810.46],
    ['1,810.46', 1810.46],
    ['1 810,46', 1810.46],
    ["1'234.50", 1234.5],
    ['1.234.567', 1234567],
    ['1,234,567.89', 1234567.89],
    ['1,810', 1810],
    ['12,5', 12.5],
    ['€ 3,49', 3.49],
    ['4', 4],
    ['0.00', 0],
    ['4.5', 4.5],
  ])('reads %j as %d', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it('reads values split over lines, with the code on its own line', () => {
    expect(parseAmount('12.50\nUSD')).toBe(12.5);
    expect(parseAmount('  $ 38.48 \n')).toBe(38.48);
  });

  it('reads negative amounts in every way receipts print them', () => {
    expect(parseAmount('-242.00')).toBe(-242);
    expect(parseAmount('$-1,136.16')).toBe(-1136.16);
    expect(parseAmount('-$5.00')).toBe(-5);
    expect(parseAmount('(5.00)')).toBe(-5);
    expect(parseAmount('5.00-')).toBe(-5);
    expect(parseAmount('−2,50 €')).toBe(-2.5);
  });

  it('drops trailing tax flags and per-unit suffixes', () => {
    expect(parseAmount('$899.99 S')).toBe(899.99);
    expect(parseAmount('659.00 Y')).toBe(659);
    expect(parseAmount('$899.99S')).toBe(899.99);
    expect(parseAmount('2.10 A *')).toBe(2.1);
    expect(parseAmount('P21.50/Unit')).toBe(21.5);
    expect(parseAmount('3.99 / kg')).toBe(3.99);
  });

  it('repairs print noise in the decimal point', () => {
    expect(parseAmount('P14. 50/Unit')).toBe(14.5);
    expect(parseAmount('300-00')).toBe(300);
    expect(parseAmount('1.810.46')).toBe(1810.46);
  });

  it('gives null, not a guess, for text that is not one clean amount', () => {
    for (const text of [
      '',
      '   ',
      '$',
      'APPROVED',
      'Purchase',
      'to',
      '/6.50 V',
      '**** 38.48',
      '1,2,3',
      '12.3.4',
      'abc 12',
    ]) {
      expect(parseAmount(text), text).toBeNull();
    }
    expect(parseAmount(null)).toBeNull();
    expect(parseAmount(undefined)).toBeNull();
  });
});

describe('parseMoney', () => {
  it('reports the currency printed with the amount', () => {
    expect(parseMoney('1.810,46 €')).toEqual({ amount: 1810.46, currency: 'EUR', mark: '€' });
    expect(parseMoney('RM 8.60')).toEqual({ amount: 8.6, currency: 'MYR', mark: 'RM' });
    expect(parseMoney('USD12.50')).toEqual({ amount: 12.5, currency: 'USD', mark: 'USD' });
    expect(parseMoney('12.50\nEUR')?.currency).toBe('EUR');
    expect(parseMoney('£4.20')?.currency).toBe('GBP');
    expect(parseMoney('S$ 4.20')?.currency).toBe('SGD');
    expect(parseMoney('P21.50/Unit')?.currency).toBe('PHP');
  });

  it('reads a bare dollar sign only with the country', () => {
    expect(parseMoney('$6169.40')).toEqual({ amount: 6169.4, currency: null, mark: '$' });
    expect(parseMoney('$6169.40', 'US')?.currency).toBe('USD');
    expect(parseMoney('$6169.40', 'CA')?.currency).toBe('CAD');
    expect(parseMoney('12.00', 'US')?.currency).toBeNull();
  });
});

describe('parseAmount on receipt text read by OCR', () => {
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

describe('amounts of currencies without minor units', () => {
  it('reads a single dot or comma before three digits as grouping thousands', () => {
    expect(parseMoney('64.500', null, { wholeUnits: true })?.amount).toBe(64500);
    expect(parseMoney('64,500', null, { wholeUnits: true })?.amount).toBe(64500);
    expect(parseMoney('Rp.118.000', null, { wholeUnits: true })).toMatchObject({
      amount: 118000,
      currency: 'IDR',
    });
    expect(parseMoney('64.500')?.amount).toBe(64.5);
  });

  it('tells a document printed in whole units from one with cents', () => {
    expect(printsWholeUnits(['60.000', '5.455', '28,000'])).toBe(true);
    expect(printsWholeUnits(['RM 33.92', '50.00'])).toBe(false);
    expect(printsWholeUnits(['1.50'], 'JPY')).toBe(true);
    // One stray reading among several whole amounts does not change the verdict.
    expect(printsWholeUnits(['250.000', '4.00)240.000', '240.000', '60.000'])).toBe(true);
    expect(printsWholeUnits(['12.000'])).toBe(false);
  });

  it('reads a price per unit and the dirham', () => {
    expect(parseMoney('@12.00')?.amount).toBe(12);
    expect(parseMoney('56.00 DH')).toMatchObject({ amount: 56, currency: 'MAD' });
  });
});

describe('completeLinePrices', () => {
  it('derives what quantity x unit price = amount determines', () => {
    expect(completeLinePrices({ quantity: 2, unitPrice: null, total: 24000 })).toEqual({
      quantity: 2,
      unitPrice: 12000,
      total: 24000,
    });
    expect(completeLinePrices({ quantity: 3, unitPrice: 1.5, total: null }).total).toBe(4.5);
    expect(completeLinePrices({ quantity: null, unitPrice: 2.5, total: 7.5 }).quantity).toBe(3);
    // A unit price that does not come out in whole cents is left unknown.
    expect(completeLinePrices({ quantity: 3, unitPrice: null, total: 264.5 }).unitPrice).toBeNull();
  });
});
