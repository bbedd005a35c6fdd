/**
 * Currencies as documents print them: ISO 4217 codes, symbols and local marks. Pure functions.
 *
 * A bare `$` (or `¥`, `kr`) names several currencies: it is read with the document's country when that
 * is known, and left unknown (null) otherwise, so that a guess never becomes data.
 */

/** Active ISO 4217 currency codes. */
const ISO_4217 = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD ' +
    'GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT ' +
    'LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR ' +
    'NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP ' +
    'STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF ' +
    'XPF YER ZAR ZMW ZWL'
  ).split(' '),
);

/**
 * Codes common enough on receipts to count wherever they are printed in capitals. Other codes are
 * also English words in upper-case receipts (`ALL`, `TOP`, `CUP`, `PEN`, `TRY`), so they count only
 * right next to an amount.
 */
const COMMON_CODES = new Set(
  (
    'USD EUR GBP MYR SGD AUD CAD NZD HKD CHF JPY CNY INR IDR THB PHP VND KRW TWD SEK NOK DKK PLN CZK HUF ' +
    'RON BGN ZAR BRL MXN AED SAR ILS RUB'
  ).split(' '),
);

/** The currency of each country (ISO 3166-1 alpha-2 -> ISO 4217) for the countries we read. */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  US: 'USD',
  CA: 'CAD',
  MX: 'MXN',
  GB: 'GBP',
  IE: 'EUR',
  BE: 'EUR',
  NL: 'EUR',
  LU: 'EUR',
  DE: 'EUR',
  AT: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  PT: 'EUR',
  IT: 'EUR',
  GR: 'EUR',
  FI: 'EUR',
  CH: 'CHF',
  DK: 'DKK',
  SE: 'SEK',
  NO: 'NOK',
  PL: 'PLN',
  CZ: 'CZK',
  MY: 'MYR',
  SG: 'SGD',
  ID: 'IDR',
  TH: 'THB',
  PH: 'PHP',
  VN: 'VND',
  HK: 'HKD',
  CN: 'CNY',
  TW: 'TWD',
  JP: 'JPY',
  KR: 'KRW',
  IN: 'INR',
  AU: 'AUD',
  NZ: 'NZD',
  ZA: 'ZAR',
  BR: 'BRL',
};

/** Marks that name exactly one currency wherever they are printed. */
const UNAMBIGUOUS_MARKS: ReadonlyArray<readonly [string, string]> = [
  ['US$', 'USD'],
  ['NZ$', 'NZD'],
  ['HK$', 'HKD'],
  ['MX$', 'MXN'],
  ['AU$', 'AUD'],
  ['CA$', 'CAD'],
  ['S$', 'SGD'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['R$', 'BRL'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₹', 'INR'],
  ['₱', 'PHP'],
  ['₩', 'KRW'],
  ['₫', 'VND'],
  ['฿', 'THB'],
  ['₺', 'TRY'],
  ['₽', 'RUB'],
  ['₪', 'ILS'],
  ['zł', 'PLN'],
  ['Kč', 'CZK'],
  ['RM', 'MYR'],
  ['Rp', 'IDR'],
  ['DH', 'MAD'],
  ['Dhs', 'AED'],
  ['Rs.', 'INR'],
  ['Rs', 'INR'],
];

/** Marks whose currency depends on the country: `$`, `¥`, `kr`, `Fr.`. */
const COUNTRY_MARKS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  $: { US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', SG: 'SGD', HK: 'HKD', MX: 'MXN', TW: 'TWD' },
  '¥': { JP: 'JPY', CN: 'CNY' },
  KR: { DK: 'DKK', SE: 'SEK', NO: 'NOK', IS: 'ISK' },
  'FR.': { CH: 'CHF' },
};

/** Words that stand for a currency code. */
const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  EURO: 'EUR',
  EUROS: 'EUR',
  DOLLAR: 'USD',
  DOLLARS: 'USD',
  RINGGIT: 'MYR',
};

/** Whether `code` is an active ISO 4217 code (case-sensitive, upper case). */
export function isCurrencyCode(code: string): boolean {
  return ISO_4217.has(code);
}

/** An ISO 4217 code from a code as printed (`usd`, ` EUR `), or null when it is not one. */
export function normalizeCurrencyCode(code: string | null | undefined): string | null {
  if (typeof code !== 'string') return null;
  const upper = code.trim().toUpperCase();
  return ISO_4217.has(upper) ? upper : null;
}

/**
 * The ISO 4217 code one printed mark stands for (`RM`, `€`, `US$`, `usd`, `$` with a country), or null.
 * @param mark - the symbol, code or local mark as printed
 * @param country - the document's country (ISO 3166-1 alpha-2), to read `$`, `¥`, `kr`
 */
export function currencyOfMark(mark: string, country?: string | null): string | null {
  const m = mark.trim();
  for (const [sign, code] of UNAMBIGUOUS_MARKS)
    if (m === sign || m.toUpperCase() === sign.toUpperCase()) return code;
  const upper = m.toUpperCase();
  const byCountry = COUNTRY_MARKS[upper];
  if (byCountry) return (country && byCountry[country.toUpperCase()]) || null;
  return CURRENCY_WORDS[upper] ?? normalizeCurrencyCode(upper);
}

const MARK_PATTERN = new RegExp(
  [
    String.raw`(?<![A-Za-z])(?:US|NZ|HK|MX|AU|CA|S|A|C|R)\$`,
    String.raw`[€£₹₱₩₫฿₺₽₪$¥]`,
    String.raw`(?<![A-Za-z])(?:zł|Kč|RM|Rp|kr|Fr\.|DH|Dhs)(?![A-Za-z])`,
    // `Rs` is also an abbreviation in words and addresses: it counts only right before an amount.
    String.raw`(?<![A-Za-z])Rs\.?(?=\s?\d)`,
    String.raw`(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])`,
    String.raw`(?<![A-Za-z])(?:EUROS?|DOLLARS?|RINGGIT)(?![A-Za-z])`,
  ].join('|'),
  'gi',
);

/** Three letters count only in capitals, only as an ISO code, and rare codes only beside an amount. */
function countsAsCode(text: string, mark: string, index: number): boolean {
  if (mark !== mark.toUpperCase() || !ISO_4217.has(mark)) return false;
  if (COMMON_CODES.has(mark)) return true;
  const before = text.slice(Math.max(0, index - 2), index);
  const after = text.slice(index + 3, index + 5);
  return /\d\s?$/.test(before) || /^\s?[-\d]/.test(after);
}

/** Every currency mark in a text, left to right, with the code it stands for (null when ambiguous). */
export function findCurrencyMarks(
  text: string,
  country?: string | null,
): Array<{ mark: string; index: number; code: string | null }> {
  const out: Array<{ mark: string; index: number; code: string | null }> = [];
  for (const m of text.matchAll(MARK_PATTERN)) {
    const mark = m[0];
    if (/^[A-Za-z]{3}$/.test(mark) && !countsAsCode(text, mark, m.index ?? 0)) continue;
    out.push({ mark, index: m.index ?? 0, code: currencyOfMark(mark, country) });
  }
  return out;
}

/**
 * The currency a text names, or null when it names none or only an ambiguous mark without a country.
 * When several are named, the most frequent wins; ties go to the first.
 */
export function detectCurrency(text: string, country?: string | null): string | null {
  const counts = new Map<string, number>();
  for (const { code } of findCurrencyMarks(text, country))
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [code, n] of counts) {
    if (n > bestCount) {
      best = code;
      bestCount = n;
    }
  }
  return best;
}
