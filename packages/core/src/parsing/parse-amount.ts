/**
 * Money amounts from one field value as a document or an analyzer prints it. Pure functions.
 *
 * Read: `$1,810.46`, `1.810,46 €`, `12.50\nUSD`, `RM 8.60`, `USD12.50`, `-242.00`, `$-1,136.16`,
 * `(5.00)`, `5.00-`, `1 810,46`, `1'234.50`, `899.99 S` (a trailing tax flag), `P21.50/Unit`
 * (a per-unit price; `P` glued to digits is the peso sign printed without its bar), `14. 50`
 * (a space after the decimal point), `300-00` (a dash printed for the decimal point), `RMO0.00` (OCR's
 * letter O among digits).
 *
 * With `wholeUnits` (see {@link printsWholeUnits}) a single `.` or `,` before three digits groups
 * thousands: `64.500` and `64,500` are 64500.
 *
 * Separators: when both `.` and `,` appear, the last one is the decimal point. When only one kind
 * appears once, it is the decimal point unless exactly three digits follow a comma (`1,810` is one
 * thousand eight hundred and ten); `1.810` stays one point eight one because a dot before three digits
 * is a decimal point in the 3-decimal currencies. Repeated separators of one kind group thousands.
 * Anything else left in the text (words, stray marks such as `/6.50`) makes the value unreadable:
 * null, never a guess.
 *
 * {@link findAmounts} reads a whole line instead (a receipt line read by OCR): there only amounts with
 * two decimals count, because the line also holds quantities, sizes and codes.
 */
import { roundMoney } from '../analysis';
import { findCurrencyMarks } from './currency';

/** An amount and the currency printed with it. */
export interface Money {
  amount: number;
  /** ISO 4217 code of a mark printed with the amount, or null when none (or an ambiguous one) is. */
  currency: string | null;
  /** The mark as printed (`$`, `RM`, `EUR`), or null. */
  mark: string | null;
}

const UNIT_SUFFIX = /\s*(?:\/|per\s+)\s*(?:unit|ea|each|pc|pcs|pce|item|kg|g|lb|l|ltr)\.?\s*$/i;
const TRAILING_FLAGS = /(?:\s+[A-Za-z*#]|\s*\*+|(?<=\d[.,]\d\d)[A-Za-z])+$/;

/**
 * Currencies printed without minor units: `64.500` and `64,500` are both sixty-four thousand five
 * hundred rupiah.
 */
export const WHOLE_UNIT_CURRENCIES: ReadonlySet<string> = new Set([
  'IDR',
  'JPY',
  'KRW',
  'VND',
  'CLP',
  'ISK',
  'PYG',
  'UGX',
]);

/**
 * Whether a document prints its amounts in whole units (no minor units), so that a single `.` or `,`
 * before three digits groups thousands: true for a currency without minor units, else when at least
 * two of its amounts end in a group of three digits after a separator (`60.000`, `5,455`) and at most
 * one in four of those with a separator ends otherwise (two decimals).
 * @param values - the document's money values as printed
 * @param currency - the document's currency when known
 */
export function printsWholeUnits(
  values: Array<string | null | undefined>,
  currency?: string | null,
): boolean {
  if (currency && WHOLE_UNIT_CURRENCIES.has(currency)) return true;
  let grouped = 0;
  let other = 0;
  for (const value of values) {
    for (const m of (value ?? '').matchAll(/\d[\d.,]*[.,](\d+)(?![\d.,]*\d)/g)) {
      if (m[1]!.length === 3) grouped++;
      else other++;
    }
  }
  // One stray reading (`4.00)240.000`, a quantity run into the amount) does not outvote the rest.
  return grouped >= 2 && other * 3 <= grouped;
}

/** How to read the separators of one amount. */
export interface MoneyOptions {
  /** The document prints whole units (see {@link printsWholeUnits}): `64.500` is 64500. */
  wholeUnits?: boolean;
}

/** Digits with optional `.`, `,`, `'` or spaces between them, to be read by {@link readNumber}. */
function readNumber(raw: string, wholeUnits = false): number | null {
  let s = raw
    // A space after a separator, or a thin space grouping thousands, is print noise.
    .replace(/([.,])\s+(?=\d)/g, '$1')
    .replace(/(\d)[\s'’](?=\d{3}(?!\d))/g, '$1');
  if (/^\d+-\d{2}$/.test(s)) s = s.replace('-', '.');
  if (!/^\d(?:[\d.,]*\d)?$/.test(s)) return null;
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  let intPart: string;
  let decimals = '';
  if (dots > 0 && commas > 0) {
    const decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    const at = s.lastIndexOf(decimal);
    if (s.indexOf(decimal) !== at) return null;
    intPart = s.slice(0, at);
    decimals = s.slice(at + 1);
    if (!validGroups(intPart, group)) return null;
    intPart = intPart.split(group).join('');
  } else if (dots + commas === 0) {
    intPart = s;
  } else {
    const sep = dots > 0 ? '.' : ',';
    const count = dots + commas;
    const parts = s.split(sep);
    const last = parts[parts.length - 1]!;
    if (count === 1) {
      if ((sep === ',' || wholeUnits) && last.length === 3 && validGroups(s, sep)) {
        intPart = parts.join('');
      } else {
        intPart = parts[0]!;
        decimals = last;
      }
    } else if (validGroups(s, sep)) {
      intPart = parts.join('');
    } else if (last.length <= 2 && validGroups(parts.slice(0, -1).join(sep), sep)) {
      // `1.810.46`: grouped thousands whose decimal point was printed like a group separator.
      intPart = parts.slice(0, -1).join('');
      decimals = last;
    } else {
      return null;
    }
  }
  if (!/^\d+$/.test(intPart) || (decimals !== '' && !/^\d+$/.test(decimals))) return null;
  const value = Number(decimals ? `${intPart}.${decimals}` : intPart);
  return Number.isFinite(value) ? value : null;
}

function validGroups(s: string, sep: string): boolean {
  const parts = s.split(sep);
  if (parts.length === 1) return /^\d+$/.test(s);
  return /^\d{1,3}$/.test(parts[0]!) && parts.slice(1).every((p) => /^\d{3}$/.test(p));
}

/**
 * Reads one amount and the currency printed with it, or null when the text holds no single clean amount.
 * @param text - one field value (newlines and extra spaces allowed)
 * @param country - the document's country (ISO 3166-1 alpha-2), to read a bare `$`
 */
export function parseMoney(
  text: string | null | undefined,
  country?: string | null,
  options: MoneyOptions = {},
): Money | null {
  if (typeof text !== 'string') return null;
  let s = repairAmountText(text.normalize('NFKC')).replace(/\s+/g, ' ').trim();
  if (s === '') return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  // `@ 12.00` is a price per unit.
  s = s.replace(UNIT_SUFFIX, '').replace(/^@\s*/, '');
  let currency: string | null = null;
  let mark: string | null = null;
  const marks = findCurrencyMarks(s, country);
  for (const found of marks.reverse()) {
    mark ??= found.mark;
    currency ??= found.code;
    s = `${s.slice(0, found.index)} ${s.slice(found.index + found.mark.length)}`;
  }
  // `Rp.118.000`, `Rs.25`: the dot that ends an abbreviated mark.
  if (mark !== null) s = s.replace(/^\s*\.\s*(?=\d)/, '');
  // The peso sign often prints as a plain `P` right before the digits.
  const peso = /^P(?=\s?\d)/.exec(s.trim());
  if (peso && mark === null) {
    mark = 'P';
    currency = 'PHP';
    s = s.trim().slice(1);
  }
  s = s.replace(/\s+/g, ' ').trim().replace(TRAILING_FLAGS, '').trim();
  const lead = /^[-−+]\s*/.exec(s);
  if (lead) {
    if (!lead[0].startsWith('+')) negative = true;
    s = s.slice(lead[0].length);
  }
  const trail = /\s*[-−]$/.exec(s);
  if (trail) {
    negative = true;
    s = s.slice(0, trail.index);
  }
  if (s === '') return null;
  const amount = readNumber(s, options.wholeUnits);
  if (amount === null) return null;
  return { amount: negative && amount !== 0 ? -amount : amount, currency, mark };
}

/**
 * Reads one amount from a field value (see the module comment for the forms read), or null.
 * @param text - one field value
 */
export function parseAmount(text: string | null | undefined): number | null {
  return parseMoney(text)?.amount ?? null;
}

/** One money amount found in a line of text. */
export interface AmountMatch {
  value: number;
  /** Index of the match in the line. */
  index: number;
  /** The text matched, currency marks included. */
  text: string;
  /** A currency symbol or code printed with the amount (`RM`, `$`, `EUR`…), upper-cased as printed. */
  currency: string | null;
}

const CURRENCY_PREFIX = String.raw`(?:(RM|MYR|USD|US\$|EUR|GBP|SGD|S\$|AUD|A\$|CAD|C\$|NZD|HKD|CHF|JPY|INR|RS\.?|[$€£¥₹])\s?)`;
const CURRENCY_SUFFIX = String.raw`(?:\s?(€|EUR|USD|GBP|CHF|MYR|RM|kr|zł|Kč))`;
/**
 * An amount with exactly two decimals inside a line: `1,234.56`, `1.234,56`, `12.50`, `12,50`,
 * optionally signed (`-0.02`, `0.02-`) and with a currency mark before or after it. Two decimals are
 * required because a line of a receipt also holds quantities, sizes, codes and phone numbers.
 */
const AMOUNT = new RegExp(
  String.raw`(?<![\w.,])(-\s?)?${CURRENCY_PREFIX}?(-\s?)?` +
    String.raw`(\d{1,3}(?:[,.]\d{3})+|\d+)([.,])(\d{2})(?![\d%]|[.,]\d)(-)?${CURRENCY_SUFFIX}?(?!\w)`,
  'giu',
);

/**
 * Repairs what OCR commonly does to printed amounts before they are read: a space after the decimal
 * point (`4. 80`) and a letter O or o among digits (`RMO0.00`, `1.5O`).
 * @param line - a line of text or one field value
 */
export function repairAmountText(line: string): string {
  return line
    .replace(/(\d)\.\s(\d{2})(?!\d)/g, '$1.$2')
    .replace(/(?<=[\d.,]|RM|\$)[Oo](?=[\d.,Oo])/g, '0')
    .replace(/(?<=\d[.,]\d?)[Oo]/g, '0');
}

function twoDecimalValue(intPart: string, decimals: string): number {
  return Number(`${intPart.replace(/[,.\s]/g, '')}.${decimals}`);
}

/**
 * Every money amount in a line of text, left to right (see {@link AMOUNT} for the forms read); sizes
 * (`1.25L`), percentages, dates, times, long codes and phone numbers are not money.
 * @param line - one line of a document, as OCR or a text layer gives it
 */
export function findAmounts(line: string): AmountMatch[] {
  const text = repairAmountText(line);
  const out: AmountMatch[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const [whole, signBefore, prefix, signAfterPrefix, intPart, , decimals, trailingMinus, suffix] = m;
    if (intPart === undefined || decimals === undefined) continue;
    // A lone group of more than 7 digits before the point is a code or a phone number, not money.
    if (/^\d{8,}$/.test(intPart)) continue;
    const negative = Boolean(signBefore || signAfterPrefix || trailingMinus);
    const value = roundMoney(twoDecimalValue(intPart, decimals) * (negative ? -1 : 1));
    const currency = (prefix ?? suffix ?? null)?.toUpperCase() ?? null;
    out.push({ value, index: m.index ?? 0, text: whole.trim(), currency });
  }
  return out;
}
