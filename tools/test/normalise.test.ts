import { describe, expect, it } from 'vitest';
import { addressOf, fieldMatches } from '../src/eval/evaluate';
import { normaliseDate, normaliseText, normaliseTotal } from '../src/eval/normalise';

describe('eval normalisation', () => {
  it('folds case, punctuation and spacing in text', () => {
    expect(normaliseText('MR. D.I.Y. (M) SDN BHD')).toBe('mr d i y m sdn bhd');
    expect(normaliseText('  Mr D.I.Y (M)  Sdn  Bhd ')).toBe('mr d i y m sdn bhd');
    expect(normaliseText('NO.53 55,57 & 59,\nJALAN SAGU 18')).toBe('no 53 55 57 59 jalan sagu 18');
    expect(normaliseText(null)).toBe('');
  });

  it('compares dates as calendar days, day first', () => {
    expect(normaliseDate('25/12/2018')).toBe('2018-12-25');
    expect(normaliseDate('17-03-18')).toBe('2018-03-17');
    expect(normaliseDate('04 JUN 2018')).toBe('2018-06-04');
    expect(normaliseDate('2018-06-04')).toBe('2018-06-04');
  });

  it('compares totals as numbers with two decimals, without currency marks', () => {
    expect(normaliseTotal('RM8.60')).toBe('8.60');
    expect(normaliseTotal('9.00')).toBe('9.00');
    expect(normaliseTotal(9)).toBe('9.00');
    expect(normaliseTotal(null)).toBe('');
  });

  it('never counts a missing value as a match', () => {
    expect(fieldMatches('company', 'SHOP', null)).toBe(false);
    expect(fieldMatches('company', null, null)).toBe(false);
    expect(fieldMatches('total', 'RM7.70', '7.7')).toBe(true);
    expect(fieldMatches('date', '04-05-2018', '2018-05-04')).toBe(true);
    expect(fieldMatches('date', '04-05-2018', '2018-04-05')).toBe(false);
  });

  it('builds the address from the printed lines, adding postcode and town when missing', () => {
    expect(
      addressOf({
        name: 'X',
        phone_number: null,
        street_address: 'NO 1, JALAN 2, 47400 PJ',
        postal_code: '47400',
        city: 'PJ',
      }),
    ).toBe('NO 1, JALAN 2, 47400 PJ');
    expect(
      addressOf({
        name: 'X',
        phone_number: null,
        street_address: '1 MAIN ST',
        postal_code: '62704',
        city: 'SPRINGFIELD',
      }),
    ).toBe('1 MAIN ST, 62704, SPRINGFIELD');
    expect(
      addressOf({ name: 'X', phone_number: null, street_address: null, postal_code: null, city: null }),
    ).toBeNull();
  });
});
