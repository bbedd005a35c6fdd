import { describe, expect, it } from 'vitest';
import { findDates, isoDate, parseDate, parseTime, findTimes } from '../../src';

describe('parseDate', () => {
  it.each([
    ['01-Jan-2021', '2021-01-01'],
    ['12 March 2020', '2020-03-12'],
    ['Thursday, 26 March 2020', '2020-03-26'],
    ['March 12, 2019', '2019-03-12'],
    ['Jan 1 2021', '2021-01-01'],
    ['1st Mar 2020', '2020-03-01'],
    ['1er févr. 2020', '2020-02-01'],
    ['3. Oktober 2019', '2019-10-03'],
    ['12 Mac 2018', '2018-03-12'],
    ['2019-12-07', '2019-12-07'],
    ['2019/12/07', '2019-12-07'],
    ['2019-12-07T12:22:00Z', '2019-12-07'],
    ['25/12/2018', '2018-12-25'],
    ['25.12.18', '2018-12-25'],
    ['01/13/17', '2017-01-13'],
    ['5-1-2019', '2019-01-05'],
    ["07 Jan '19", '2019-01-07'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it('reads ambiguous numeric dates in the order asked for, day first by default', () => {
    expect(parseDate('12/07/2019')).toBe('2019-07-12');
    expect(parseDate('12/07/2019', 'mdy')).toBe('2019-12-07');
    expect(parseDate('09/30/10', 'dmy')).toBe('2010-09-30');
    expect(parseDate('13/01/2018', 'mdy')).toBe('2018-01-13');
  });

  it('reads two-digit years around 1970', () => {
    expect(parseDate('01/02/69')).toBe('2069-02-01');
    expect(parseDate('01/02/70')).toBe('1970-02-01');
  });

  it('finds the date inside a longer text', () => {
    expect(parseDate('Statement Date 09/30/10 Date(s) of Service 07/31/10', 'mdy')).toBe('2010-09-30');
    expect(parseDate('DATE: 12/07/2019 12:22 PM', 'mdy')).toBe('2019-12-07');
  });

  it('refuses impossible days and years out of range', () => {
    for (const text of [
      '31/04/2020',
      '29.02.2019',
      '32/01/2020',
      '12/13/14/15',
      '1953-12-02',
      'no date',
      '12.50',
      '',
    ]) {
      expect(parseDate(text), text).toBeNull();
    }
    expect(parseDate('29.02.2020')).toBe('2020-02-29');
    expect(parseDate(null)).toBeNull();
  });

  it('lists every date with whether the text alone fixes it', () => {
    const found = findDates('from 07/31/10 to 08/02/10', 'mdy');
    expect(found.map((d) => [d.iso, d.certain])).toEqual([
      ['2010-07-31', true],
      ['2010-08-02', false],
    ]);
    expect(found[0]!.text).toBe('07/31/10');
  });

  it('builds ISO dates only for real days', () => {
    expect(isoDate(2024, 2, 29)).toBe('2024-02-29');
    expect(isoDate(2023, 2, 29)).toBeNull();
    expect(isoDate(2023, 0, 1)).toBeNull();
  });
});

describe('parseTime', () => {
  it.each([
    ['12:22 PM', '12:22:00'],
    ['12:05 AM', '00:05:00'],
    ['2:35pm', '14:35:00'],
    ['7.30 p.m.', '19:30:00'],
    ['14:35', '14:35:00'],
    ['14:35:07', '14:35:07'],
    ['14h35', '14:35:00'],
    ['12/07/2019   12:22 PM', '12:22:00'],
  ])('reads %j as %s', (text, value) => {
    expect(parseTime(text)).toBe(value);
  });

  it('does not take money or impossible clocks for a time', () => {
    for (const text of ['14.35', 'TOTAL 12.50', '25:10', '13:00 PM', '12:61', ''])
      expect(parseTime(text), text).toBeNull();
    expect(parseTime(undefined)).toBeNull();
  });

  it('finds every time in a line', () => {
    expect(findTimes('open 08:00 - 21:30').map((t) => t.value)).toEqual(['08:00:00', '21:30:00']);
  });
});
