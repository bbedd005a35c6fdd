/**
 * Currency from what a receipt prints: ISO 4217 codes, symbols and local marks (RM for ringgit).
 * A bare `$` is ambiguous: it is read with the country the receipt comes from when that is known,
 * and as US dollars otherwise. When nothing is printed, the currency of the receipt's country (when
 * it is known) is the answer; otherwise there is none.
 */

/** The currency of each country the parser can recognise (ISO 3166 alpha-2 -> ISO 4217). */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  MY: 'MYR',
  SG: 'SGD',
  US: 'USD',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  HK: 'HKD',
  GB: 'GBP',
  IE: 'EUR',
  BE: 'EUR',
  NL: 'EUR',
  DE: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  AT: 'EUR',
  PT: 'EUR',
  FI: 'EUR',
  LU: 'EUR',
  CH: 'CHF',
  IN: 'INR',
  JP: 'JPY',
  MX: 'MXN',
};

/** Countries whose own currency is written with a bare `$`. */
const DOLLAR_COUNTRIES = new Set(['US', 'CA', 'AU', 'NZ', 'SG', 'HK', 'MX']);

const ISO_CODES = [
  'MYR',
  'USD',
  'EUR',
  'GBP',
  'SGD',
  'AUD',
  'CAD',
  'NZD',
  'HKD',
  'CHF',
  'JPY',
  'INR',
  'CNY',
  'IDR',
  'THB',
  'PHP',
  'MXN',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
];

const MARKS: ReadonlyArray<[RegExp, string]> = [
  [/US\$/, 'USD'],
  [/S\$/, 'SGD'],
  [/A\$/, 'AUD'],
  [/C\$/, 'CAD'],
  [/NZ\$/, 'NZD'],
  [/HK\$/, 'HKD'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/₹/, 'INR'],
  [/¥/, 'JPY'],
  // RM is ringgit when it stands before an amount or in a column heading such as `(RM)`.
  [/\bRM\s?-?\d|\(RM\)|\bRM\s*$|\bRM\b(?=\s*:)/m, 'MYR'],
  [/\bRS\.?\s?\d/i, 'INR'],
];

/**
 * The currency a piece of receipt text names, or null when it names none.
 * @param text - the receipt text, or one field of it
 * @param country - the receipt's country (ISO 3166 alpha-2), used to read a bare `$`
 */
export function detectCurrency(text: string, country?: string | null): string | null {
  const votes = new Map<string, number>();
  const vote = (code: string, weight = 1) => votes.set(code, (votes.get(code) ?? 0) + weight);
  for (const [pattern, code] of MARKS) {
    const global = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g',
    );
    const count = text.match(global)?.length ?? 0;
    if (count > 0) vote(code, count);
  }
  for (const code of ISO_CODES) {
    const count = text.match(new RegExp(String.raw`(?<![A-Z])${code}(?![A-Z])`, 'g'))?.length ?? 0;
    if (count > 0) vote(code, count);
  }
  const dollars =
    (text.match(/(?<![A-Z])\$/g)?.length ?? 0) - (text.match(/(?:US|S|A|C|NZ|HK)\$/g)?.length ?? 0);
  if (dollars > 0) vote(dollarCurrency(country), dollars);
  // The currency of the country the receipt comes from outweighs one stray symbol (OCR reads `¥`
  // into smudges), and stands in when nothing is printed.
  const local = country ? COUNTRY_CURRENCY[country] : undefined;
  if (local) vote(local, 1.5);
  let best: string | null = null;
  let bestVotes = 0;
  for (const [code, n] of votes) {
    if (n > bestVotes) {
      best = code;
      bestVotes = n;
    }
  }
  return best;
}

/** The currency a bare `$` means for a receipt from `country`. */
export function dollarCurrency(country?: string | null): string {
  if (country && DOLLAR_COUNTRIES.has(country)) return COUNTRY_CURRENCY[country]!;
  return 'USD';
}

/** Maps a symbol or code as printed (`RM`, `€`, `usd`, `US$`) to its ISO 4217 code, or null. */
export function currencyCodeOf(mark: string, country?: string | null): string | null {
  const m = mark.trim().toUpperCase();
  if (m === '$') return dollarCurrency(country);
  if (m === 'RM') return 'MYR';
  if (m === 'RS' || m === 'RS.') return 'INR';
  if (ISO_CODES.includes(m)) return m;
  for (const [pattern, code] of MARKS) {
    if (pattern.source.startsWith('\\b')) continue;
    if (pattern.test(m)) return code;
  }
  return null;
}
