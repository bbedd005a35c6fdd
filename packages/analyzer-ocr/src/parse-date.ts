/**
 * Dates and times as receipts print them, read into `YYYY-MM-DD` and `HH:MM:SS`.
 *
 * The order of day and month in numeric dates is decided in this order:
 * 1. a part above 12 can only be the day (`13/01/2018` is day first, `01/13/17` month first);
 * 2. otherwise the `order` given by the caller, which the receipt parser derives from other dates
 *    on the same receipt that were unambiguous, or from the receipt's country (month first for the
 *    US, Canada's English receipts aside, the Philippines and a few others; day first elsewhere);
 * 3. otherwise day first, as most of the world writes it.
 * Two-digit years are 20YY below 70 and 19YY from 70. Year-first forms (`2019-03-12`) are always
 * year, month, day.
 */

/** Which of day and month comes first in a numeric date. */
export type DateOrder = 'dmy' | 'mdy';

/** One date found in a line. */
export interface DateMatch {
  /** `YYYY-MM-DD` */
  iso: string;
  index: number;
  text: string;
  /** True when the text alone fixes the order (month name, year first, or a part above 12). */
  unambiguous: boolean;
  /** The order this reading assumed or proved. */
  order: DateOrder | 'ymd' | 'named';
}

/** Countries whose receipts print the month first. */
export const MONTH_FIRST_COUNTRIES = new Set(['US', 'PH', 'FM', 'PW', 'MH']);

const MONTH_NAMES: Record<string, number> = {
  jan: 1,
  january: 1,
  januari: 1,
  feb: 2,
  february: 2,
  februari: 2,
  mar: 3,
  march: 3,
  mac: 3,
  apr: 4,
  april: 4,
  may: 5,
  mei: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  julai: 7,
  aug: 8,
  august: 8,
  ogos: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  okt: 10,
  oktober: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
  dis: 12,
  disember: 12,
};
const MONTH_WORD = String.raw`(jan(?:uary|uari)?|feb(?:ruary|ruari)?|mar(?:ch)?|mac|apr(?:il)?|may|mei|june?|july?|julai|aug(?:ust)?|ogos|sept?(?:ember)?|oct(?:ober)?|okt(?:ober)?|nov(?:ember)?|dec(?:ember)?|dis(?:ember)?)`;

const YMD = /(?<!\d)((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g;
const NUMERIC = /(?<![\d/.-])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d/])/g;
const DAY_NAMED = new RegExp(
  String.raw`(?<!\d)(\d{1,2})(?:st|nd|rd|th)?[\s\-/.,]*${MONTH_WORD}\.?[\s\-/.,]*('?\d{4}|\d{2})(?!\d)`,
  'gi',
);
const NAMED_DAY = new RegExp(
  String.raw`(?<![a-z])${MONTH_WORD}\.?[\s\-/.]*(\d{1,2})(?:st|nd|rd|th)?,?[\s\-/.]*(\d{4})(?!\d)`,
  'gi',
);

function fullYear(y: string): number {
  const n = Number(y.replace("'", ''));
  if (y.replace("'", '').length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

function isoOf(year: number, month: number, day: number): string | null {
  if (year < 1970 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function overlaps(taken: Array<[number, number]>, start: number, end: number): boolean {
  return taken.some(([s, e]) => start < e && end > s);
}

/**
 * Every calendar date in a line, left to right.
 * @param order - how to read numeric dates whose parts are both 12 or less (default day first)
 */
export function findDates(line: string, order: DateOrder = 'dmy'): DateMatch[] {
  const found: DateMatch[] = [];
  const taken: Array<[number, number]> = [];
  const add = (m: RegExpMatchArray, iso: string | null, unambiguous: boolean, kind: DateMatch['order']) => {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (!iso || overlaps(taken, start, end)) return;
    taken.push([start, end]);
    found.push({ iso, index: start, text: m[0], unambiguous, order: kind });
  };
  for (const m of line.matchAll(YMD)) add(m, isoOf(Number(m[1]), Number(m[2]), Number(m[3])), true, 'ymd');
  for (const m of line.matchAll(DAY_NAMED)) {
    add(m, isoOf(fullYear(m[3]!), MONTH_NAMES[m[2]!.toLowerCase()]!, Number(m[1])), true, 'named');
  }
  for (const m of line.matchAll(NAMED_DAY)) {
    add(m, isoOf(fullYear(m[3]!), MONTH_NAMES[m[1]!.toLowerCase()]!, Number(m[2])), true, 'named');
  }
  for (const m of line.matchAll(NUMERIC)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const year = fullYear(m[4]!);
    // A dotted pair with a two-digit tail such as `7.30.00` is a time, not a date.
    if (m[2] === '.' && m[4]!.length === 2 && a > 23) continue;
    const dmy = isoOf(year, b, a);
    const mdy = isoOf(year, a, b);
    if (dmy && !mdy) add(m, dmy, a !== b, 'dmy');
    else if (mdy && !dmy) add(m, mdy, a !== b, 'mdy');
    else if (dmy && mdy) add(m, order === 'mdy' ? mdy : dmy, a === b, order);
  }
  return found.sort((x, y) => x.index - y.index);
}

/**
 * Reads one date field (`12/03/2019`, `12 March 2020`, `01-Jan-2021`, `2019-03-12`, `12.03.19`…)
 * into `YYYY-MM-DD`, or null when it holds no valid date.
 */
export function parseDate(text: string, order: DateOrder = 'dmy'): string | null {
  return findDates(text, order)[0]?.iso ?? null;
}

/** One time of day found in a line. */
export interface TimeMatch {
  /** `HH:MM:SS` */
  value: string;
  index: number;
  text: string;
}

const TIME =
  /(?<![\d:.])(\d{1,2})\s?[:.]\s?(\d{2})(?:\s?[:.]\s?(\d{2}))?(?:\s?([AaPp])\.?\s?[Mm]\.?)?(?![\d%])/g;

/**
 * Every time of day in a line: `14:35`, `14:35:07`, `2:35 PM`, `02:35:07pm`. A dotted form
 * (`14.35`) counts only with seconds or AM/PM, because `14.35` alone is usually money.
 */
export function findTimes(line: string): TimeMatch[] {
  const out: TimeMatch[] = [];
  for (const m of line.matchAll(TIME)) {
    const [text, h, min, sec, ampm] = m;
    const dotted = !text.includes(':');
    if (dotted && !ampm && sec === undefined) continue;
    let hour = Number(h);
    const minute = Number(min);
    const second = sec === undefined ? 0 : Number(sec);
    if (ampm) {
      if (hour < 1 || hour > 12) continue;
      const pm = ampm.toLowerCase() === 'p';
      if (pm && hour < 12) hour += 12;
      if (!pm && hour === 12) hour = 0;
    }
    if (hour > 23 || minute > 59 || second > 59) continue;
    const pad = (n: number) => String(n).padStart(2, '0');
    out.push({ value: `${pad(hour)}:${pad(minute)}:${pad(second)}`, index: m.index ?? 0, text: text.trim() });
  }
  return out;
}

/** Reads one time field into `HH:MM:SS`, or null. */
export function parseTime(text: string): string | null {
  return findTimes(text)[0]?.value ?? null;
}
