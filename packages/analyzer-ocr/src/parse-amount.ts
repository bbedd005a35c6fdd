import { roundMoney } from '@receipts/core';

/** One money amount found in a line of receipt text. */
export interface AmountMatch {
  value: number;
  /** Index of the match in the line. */
  index: number;
  /** The text matched, currency marks included. */
  text: string;
  /** A currency symbol or code printed with the amount (`RM`, `$`, `EUR`…), upper-cased. */
  currency: string | null;
}

const CURRENCY_PREFIX = String.raw`(?:(RM|MYR|USD|US\$|EUR|GBP|SGD|S\$|AUD|A\$|CAD|C\$|NZD|HKD|CHF|JPY|INR|RS\.?|[$€£¥₹])\s?)`;
const CURRENCY_SUFFIX = String.raw`(?:\s?(€|EUR|USD|GBP|CHF|MYR|RM|kr|zł|Kč))`;
/**
 * An amount with exactly two decimals: `1,234.56`, `1.234,56`, `12.50`, `12,50`,
 * optionally signed (`-0.02`, `0.02-`) and with a currency mark before or after it.
 */
const AMOUNT = new RegExp(
  String.raw`(?<![\w.,])(-\s?)?${CURRENCY_PREFIX}?(-\s?)?` +
    String.raw`(\d{1,3}(?:[,.]\d{3})+|\d+)([.,])(\d{2})(?![\d%]|[.,]\d)(-)?${CURRENCY_SUFFIX}?(?!\w)`,
  'giu',
);

/**
 * Repairs what OCR commonly does to printed amounts before they are matched: a space after the
 * decimal point (`4. 80`), a letter O or o among digits (`RMO0.00`), and a thousands separator
 * that is really a decimal comma (`2,20`) is left for the matcher to read.
 */
export function repairAmountText(line: string): string {
  return line
    .replace(/(\d)\.\s(\d{2})(?!\d)/g, '$1.$2')
    .replace(/(?<=[\d.,]|RM|\$)[Oo](?=[\d.,Oo])/g, '0')
    .replace(/(?<=\d[.,]\d?)[Oo]/g, '0');
}

function toNumber(intPart: string, decimals: string): number {
  const digits = intPart.replace(/[,.\s]/g, '');
  return Number(`${digits}.${decimals}`);
}

/** Every money amount in a line, left to right (see {@link AMOUNT} for the forms read). */
export function findAmounts(line: string): AmountMatch[] {
  const text = repairAmountText(line);
  const out: AmountMatch[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const [whole, signBefore, prefix, signAfterPrefix, intPart, , decimals, trailingMinus, suffix] = m;
    if (intPart === undefined || decimals === undefined) continue;
    // `1.234.567` style with no decimal part would have been caught as thousands; a lone group of
    // more than 7 digits before the point is a code or a phone number, not money on a receipt.
    if (/^\d{8,}$/.test(intPart)) continue;
    const negative = Boolean(signBefore || signAfterPrefix || trailingMinus);
    const value = roundMoney(toNumber(intPart, decimals) * (negative ? -1 : 1));
    const currency = (prefix ?? suffix ?? null)?.toUpperCase() ?? null;
    out.push({ value, index: m.index ?? 0, text: whole.trim(), currency });
  }
  return out;
}

/**
 * Reads one amount from a field value such as `RM 8.60`, `$1,234.56`, `1.234,56 €`, `-0.02`,
 * `(0.02)` or `12`. Returns null when the text holds no amount.
 */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  const found = findAmounts(trimmed);
  if (found.length > 0) {
    const last = found[found.length - 1]!;
    const bracketed = /^\(.*\)$/.test(trimmed);
    return bracketed ? -Math.abs(last.value) : last.value;
  }
  const whole = /^\(?\s*(-)?\s*(?:[A-Z]{3}|RM|[$€£¥₹])?\s*(-)?\s*(\d{1,3}(?:,\d{3})+|\d+)\s*\)?$/i.exec(
    trimmed,
  );
  if (!whole) return null;
  const value = Number(whole[3]!.replace(/,/g, ''));
  return whole[1] || whole[2] || /^\(.*\)$/.test(trimmed) ? -value : value;
}
