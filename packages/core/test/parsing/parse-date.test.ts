import fc from 'fast-check';
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

describe('parseDate on receipt text read by OCR', () => {
  it.each([
    ['25/12/2018', '2018-12-25'],
    ['06/03/2018', '2018-03-06'],
    ['16-03-2018', '2018-03-16'],
    ['17-03-18', '2018-03-17'],
    ['12/03/18', '2018-03-12'],
    ['12.03.2019', '2019-03-12'],
    ['12.03.19', '2019-03-12'],
    ['2019-03-12', '2019-03-12'],
    ['2019/3/2', '2019-03-02'],
    ['12 March 2020', '2020-03-12'],
    ['12 Mar 2020', '2020-03-12'],
    ['01-Jan-2021', '2021-01-01'],
    ['04 JUN 2018', '2018-06-04'],
    ['22 Jun 18', '2018-06-22'],
    ['Thursday, 14 December, 2017', '2017-12-14'],
    ['March 12, 2020', '2020-03-12'],
    ['Mar 5 2021', '2021-03-05'],
    ['1st Feb 2022', '2022-02-01'],
    ['3 OGOS 2019', '2019-08-03'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it('decides day and month by a part above 12, whatever order is asked for', () => {
    expect(parseDate('01/13/17', 'dmy')).toBe('2017-01-13');
    expect(parseDate('13/01/17', 'mdy')).toBe('2017-01-13');
  });

  it('reads ambiguous numeric dates in the order asked for, day first by default', () => {
    expect(parseDate('03/04/2024')).toBe('2024-04-03');
    expect(parseDate('03/04/2024', 'mdy')).toBe('2024-03-04');
  });

  it('turns two-digit years below 70 into 20YY and the rest into 19YY', () => {
    expect(parseDate('01/02/69')).toBe('2069-02-01');
    expect(parseDate('01/02/99')).toBe('1999-02-01');
  });

  it('refuses days that do not exist and text that is not a date', () => {
    expect(parseDate('31/02/2020')).toBeNull();
    expect(parseDate('29/02/2019')).toBeNull();
    expect(parseDate('29/02/2020')).toBe('2020-02-29');
    expect(parseDate('96/08/2017')).toBeNull();
    expect(parseDate('TOTAL 12.50')).toBeNull();
    expect(parseDate('INVOICE 2018041810090010447')).toBeNull();
  });

  it('says whether the text alone fixed the order', () => {
    const [ambiguous] = findDates('DATE 03/04/2024');
    const [clear] = findDates('DATE 23/04/2024');
    expect(ambiguous).toMatchObject({ iso: '2024-04-03', certain: false });
    expect(clear).toMatchObject({ iso: '2024-04-23', certain: true, order: 'dmy' });
  });

  it('finds a date inside a line of other text', () => {
    expect(findDates('Doc No : CS00011955 Date: 02/12/2017').map((d) => d.iso)).toEqual(['2017-12-02']);
    expect(findDates('BILL DT: 12/03/2018 10:25:49 PM').map((d) => d.iso)).toEqual(['2018-03-12']);
  });
});

describe('parseTime on receipt text read by OCR', () => {
  it.each([
    ['14:35', '14:35:00'],
    ['09:12:44', '09:12:44'],
    ['2:35 PM', '14:35:00'],
    ['10:25:49 PM', '22:25:49'],
    ['12:05 AM', '00:05:00'],
    ['12:30 pm', '12:30:00'],
    ['7.30am', '07:30:00'],
    ['Time: 12:06:00', '12:06:00'],
    ['16.57.00', '16:57:00'],
  ])('reads %s as %s', (text, time) => {
    expect(parseTime(text)).toBe(time);
  });

  it('refuses impossible times and amounts that look like times', () => {
    expect(parseTime('25:10')).toBeNull();
    expect(parseTime('10:75')).toBeNull();
    expect(parseTime('13:00 PM')).toBeNull();
    expect(parseTime('TOTAL 14.35')).toBeNull();
  });
});

describe('dates whose year runs into the time', () => {
  it.each([
    ['Date 25/12/20188:13:39PM', '2018-12-25'],
    ['Date: 22/12/201714:03', '2017-12-22'],
    ['05Mar201818:24', '2018-03-05'],
    // A two-digit year run into the time: read so only when the four digits are no year.
    ['11/02/1819:21 Slip No.: 6030098553', '2018-02-11'],
    ['02-03-1847:23 SH01ZJ42', '2018-03-02'],
    // Four digits run into a colon and minutes: a year is never followed by minutes, so the last two
    // digits are the hour (`dd.mm.yy hh:mm` with the space lost, as German tills print it).
    ['11/02/2019:21', '2020-02-11'],
    ['03.04.2009:530000545 0050287347', '2020-04-03'],
    ['15.04.2016:1586651110176', '2020-04-15'],
    ['21.04.2015:52 8665111 0151', '2020-04-21'],
    ['01.02.2423:59', '2024-02-01'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it('keeps a four-digit year that a space or a time of its own follows', () => {
    expect(parseDate('03.04.2020 09:53')).toBe('2020-04-03');
    expect(parseDate('03.04.2009 :53')).toBe('2009-04-03');
    expect(parseDate('Datum: 03.04.2009')).toBe('2009-04-03');
    // The last two digits are no hour: no time can follow them.
    expect(parseDate('03.04.2024:53')).toBe('2024-04-03');
  });

  it('reads any date with a two-digit year whose space before the time was lost (property)', () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2069-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('.', '/', '-'),
        fc.constantFrom('', ':00', ' 8665111 0151', '0000545'),
        (day, hour, minute, separator, after) => {
          const iso = day.toISOString().slice(0, 10);
          const [y, m, d] = iso.split('-');
          const text = `${d}${separator}${m}${separator}${y!.slice(2)}${pad(hour)}:${pad(minute)}${after}`;
          expect(findDates(text, 'dmy')[0]?.iso, text).toBe(iso);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('dates OCR ran into the text before them or read with a zero for an O', () => {
  it.each([
    ['ORD #15-REG #19-02/03/2018 12:59:16', '2018-03-02'],
    ['DATE : 10 0CT 2017 TUE', '2017-10-10'],
    ['N0V 5, 2019', '2019-11-05'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it('still reads no date in a phone number or a dashed code', () => {
    expect(parseDate('Tel No.03-6092-1968')).toBeNull();
    expect(parseDate('REF 12-345-6789')).toBeNull();
  });
});
