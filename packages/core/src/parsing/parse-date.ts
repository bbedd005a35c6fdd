/**
 * Dates and times as documents print them, read into `YYYY-MM-DD` and `HH:MM:SS`. Pure functions.
 *
 * Forms read: `2019-12-07` (also with `/` or `.`, and ISO date-times), `07/12/2019`, `12/07/2019`,
 * `07.12.19`, `7-12-2019`, `12 March 2020`, `Thursday, 26 March 2020`, `01-Jan-2021`, `1st Mar 2020`,
 * `March 12, 2019`, `Jan 1 2021`. Month names in English, French, German, Dutch, Spanish and Malay.
 *
 * Day or month first, for numeric dates: a part above 12 can only be the day (`13/01/2018` is day
 * first, `01/13/17` month first); when both parts are 12 or less the caller's `order` decides (the
 * analyzers derive it from another date on the same document that the text alone fixes, or from the
 * country, see {@link MONTH_FIRST_COUNTRIES}); without one, day first, as most of the world writes
 * dates. OCR noise is tolerated: mixed separators in year-first dates, spaces around separators,
 * words glued to a date, a year glued to the time after it (`25/12/20188:13`, and a two-digit year
 * run into the hour, `03.04.2009:53`), a zero for the O of a month name. Two-digit years are 20YY below 70 and 19YY from 70 on. Years outside
 * 1970–2099 and impossible days (31 April, 29 February 2019) are not dates.
 */

/** Which of day and month comes first in a numeric date. */
export type DateOrder = 'dmy' | 'mdy';

/**
 * Countries whose documents print the month first (the US and the Philippines, and the Pacific states
 * that use US conventions); day first is the rule elsewhere.
 */
export const MONTH_FIRST_COUNTRIES: ReadonlySet<string> = new Set(['US', 'PH', 'FM', 'PW', 'MH']);

/** One date found in a text. */
export interface FoundDate {
  /** `YYYY-MM-DD` */
  iso: string;
  /** Where the date starts in the text. */
  index: number;
  /** The text read. */
  text: string;
  /** True when the text alone fixes the reading (year first, month name, or a part above 12). */
  certain: boolean;
  /**
   * How the date was read: year first, with a month name, or the numeric order it proved (when
   * `certain`) or assumed (the `order` asked for).
   */
  order: DateOrder | 'ymd' | 'named';
}

const MONTHS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [1, ['january', 'jan', 'janvier', 'janv', 'januar', 'januari', 'enero', 'ene']],
  [2, ['february', 'feb', 'fevrier', 'fevr', 'fev', 'februar', 'februari', 'febrero']],
  [3, ['march', 'mar', 'mars', 'marz', 'maart', 'marzo', 'mac', 'mrt']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr']],
  [5, ['may', 'mai', 'mei', 'mayo']],
  [6, ['june', 'jun', 'juin', 'juni', 'junio']],
  [7, ['july', 'jul', 'juillet', 'juil', 'juli', 'julio', 'julai']],
  [8, ['august', 'aug', 'aout', 'augustus', 'agosto', 'ago', 'ogos']],
  [9, ['september', 'sept', 'sep', 'septembre', 'septiembre']],
  [10, ['october', 'oct', 'octobre', 'oktober', 'okt', 'octubre']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'decembre', 'dezember', 'dez', 'diciembre', 'dic', 'disember', 'dis']],
];
const MONTH_BY_NAME = new Map<string, number>(
  MONTHS.flatMap(([n, names]) => names.map((name) => [name, n] as const)),
);
// OCR reads the O of a month name as a zero (`10 0CT 2017`, `N0V`).
const MONTH_ALT = [...MONTH_BY_NAME.keys()]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/o/g, '[o0]'))
  .join('|');
const monthNumber = (name: string) => MONTH_BY_NAME.get(name.toLowerCase().replace(/0/g, 'o'))!;

// Year first tolerates mixed separators (`2019-03/12`), as OCR reads them.
const YEAR_FIRST = /(?<!\d)((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g;
// A four-digit year may run straight into the time after it (`25/12/20188:13:39PM`): OCR's lost space.
const GLUED_YEAR = String.raw`(?:19|20)\d{2}(?=\d{1,2}:\d{2})`;
const NUMERIC = new RegExp(
  String.raw`(?<![\d./-])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(${GLUED_YEAR}|(?:\d{4}|\d{2})(?![\d/]|\.\d))`,
  'g',
);
// Two forms of OCR's lost space that NUMERIC leaves: a two-digit year run into the time after it
// (`11/02/1819:21`, read only when the four digits are no year), and a slashed or dotted date run on
// from a number and a dash before it (`REG #19-02/03/2018`).
const GLUED_SHORT_YEAR = /(?<![\d./-])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{2})(?=\d{1,2}:\d{2})/g;
// What follows a two-digit year run into the hour of a time: the colon and the minutes (the seconds
// or the till's numbers may run on after them).
const RUN_INTO_MINUTES = /^:[0-5]\d/;
const AFTER_DASH = /(?<=\d-)(\d{1,2})([/.])(\d{1,2})\2((?:\d{4}|\d{2})(?![\d/]|\.\d))/g;
// A word glued before the day or after a four-digit year (`DATE12 MAR 2018PM`) is OCR's lost space;
// a two-digit year must still end at a word boundary so that `5 Jan 12pcs` is no date.
const DAY_MONTH_YEAR = new RegExp(
  String.raw`(?<!\d)(\d{1,2})(?:st|nd|rd|th|er|\.)?[\s\-/.,]*(${MONTH_ALT})\.?[\s\-/.,]*(${GLUED_YEAR}|'?\d{4}(?!\d)|'?\d{2}(?![\d\p{L}]))`,
  'giu',
);
const MONTH_DAY_YEAR = new RegExp(
  String.raw`(?<![\p{L}])(${MONTH_ALT})\.?[\s\-/.]*(\d{1,2})(?:st|nd|rd|th)?,?[\s\-/.]*(\d{4})(?!\d)`,
  'giu',
);

/** Drops accents from Latin letters, keeping every index where it was (`févr` -> `fevr`). */
function fold(text: string): string {
  return text.replace(/[\u00C0-\u024F]/g, (c) => c.normalize('NFD').charAt(0));
}

function fullYear(text: string): number {
  const digits = text.replace("'", '');
  const n = Number(digits);
  if (digits.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

/** `YYYY-MM-DD` for a real calendar day between 1970 and 2099, else null. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1970 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Every date in a text, in reading order.
 * @param text - a field value or a line of a document
 * @param order - how to read numeric dates whose day and month are both 12 or less
 */
export function findDates(text: string, order: DateOrder = 'dmy'): FoundDate[] {
  const src = fold(text);
  const found: FoundDate[] = [];
  const taken: Array<[number, number]> = [];
  const add = (
    m: RegExpMatchArray,
    iso: string | null,
    certain: boolean,
    how: FoundDate['order'],
    length = m[0].length,
  ) => {
    const start = m.index ?? 0;
    const end = start + length;
    if (iso === null || taken.some(([s, e]) => start < e && end > s)) return;
    taken.push([start, end]);
    found.push({ iso, index: start, text: text.slice(start, end), certain, order: how });
  };
  for (const m of src.matchAll(YEAR_FIRST)) {
    add(m, isoDate(Number(m[1]), Number(m[2]), Number(m[3])), true, 'ymd');
  }
  for (const m of src.matchAll(DAY_MONTH_YEAR)) {
    add(m, isoDate(fullYear(m[3]!), monthNumber(m[2]!), Number(m[1])), true, 'named');
  }
  for (const m of src.matchAll(MONTH_DAY_YEAR)) {
    add(m, isoDate(fullYear(m[3]!), monthNumber(m[1]!), Number(m[2])), true, 'named');
  }
  const numeric = [...src.matchAll(NUMERIC), ...src.matchAll(GLUED_SHORT_YEAR), ...src.matchAll(AFTER_DASH)];
  for (const m of numeric) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    let yearText = m[4]!;
    let length = m[0].length;
    // A year is never followed by a colon and minutes: `03.04.2009:53` is `03.04.20 09:53` with the
    // space lost, its last two digits the hour.
    const end = (m.index ?? 0) + length;
    if (
      /^\d{4}$/.test(yearText) &&
      Number(yearText.slice(2)) <= 23 &&
      RUN_INTO_MINUTES.test(src.slice(end))
    ) {
      yearText = yearText.slice(0, 2);
      length -= 2;
    }
    const year = fullYear(yearText);
    const dayFirst = isoDate(year, b, a);
    const monthFirst = isoDate(year, a, b);
    if (dayFirst && !monthFirst) add(m, dayFirst, true, 'dmy', length);
    else if (monthFirst && !dayFirst) add(m, monthFirst, true, 'mdy', length);
    else if (dayFirst && monthFirst) add(m, order === 'mdy' ? monthFirst : dayFirst, a === b, order, length);
  }
  return found.sort((x, y) => x.index - y.index);
}

/**
 * Reads the first date in a text into `YYYY-MM-DD`, or null when it holds none.
 * @param text - a field value such as `01-Jan-2021`, `12 March 2020` or `01/13/17`
 * @param order - how to read numeric dates whose day and month are both 12 or less (default day first)
 */
export function parseDate(text: string | null | undefined, order: DateOrder = 'dmy'): string | null {
  if (typeof text !== 'string') return null;
  return findDates(text, order)[0]?.iso ?? null;
}

/** One time of day found in a text. */
export interface FoundTime {
  /** `HH:MM:SS` */
  value: string;
  index: number;
  text: string;
}

const TIME =
  /(?<![\d:.,])(\d{1,2})\s?(?::|h|\.(?=\d\d\s?[ap]\.?m|\d\d[:.]\d\d))\s?(\d{2})(?:\s?[:.]\s?(\d{2}))?(?:\s?([ap])\.?\s?m\b\.?)?(?![\d%]|[.,]\d)/gi;

/**
 * Every time of day in a text: `14:35`, `14:35:07`, `2:35 PM`, `02:35pm`, `14h35`, `7.30 pm`.
 * A dotted form counts only with seconds or AM/PM, because `14.35` alone is usually money.
 */
export function findTimes(text: string): FoundTime[] {
  const out: FoundTime[] = [];
  for (const m of text.matchAll(TIME)) {
    const [whole, h, min, sec, half] = m;
    let hour = Number(h);
    const minute = Number(min);
    const second = sec === undefined ? 0 : Number(sec);
    if (half) {
      if (hour < 1 || hour > 12) continue;
      const pm = half.toLowerCase() === 'p';
      if (pm && hour < 12) hour += 12;
      if (!pm && hour === 12) hour = 0;
    }
    if (hour > 23 || minute > 59 || second > 59) continue;
    const pad = (n: number) => String(n).padStart(2, '0');
    out.push({
      value: `${pad(hour)}:${pad(minute)}:${pad(second)}`,
      index: m.index ?? 0,
      text: whole.trim(),
    });
  }
  return out;
}

/** Reads the first time of day in a text into `HH:MM:SS`, or null. */
export function parseTime(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  return findTimes(text)[0]?.value ?? null;
}
