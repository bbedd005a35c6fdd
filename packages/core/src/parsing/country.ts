/**
 * Country names and codes as documents print them, read into ISO 3166-1 alpha-2. Pure functions.
 */

const NAMES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['US', ['US', 'USA', 'U S', 'U S A', 'UNITED STATES', 'UNITED STATES OF AMERICA', 'AMERICA']],
  [
    'GB',
    [
      'GB',
      'UK',
      'U K',
      'UNITED KINGDOM',
      'GREAT BRITAIN',
      'ENGLAND',
      'SCOTLAND',
      'WALES',
      'NORTHERN IRELAND',
    ],
  ],
  ['IE', ['IE', 'IRELAND', 'EIRE']],
  ['CA', ['CA', 'CANADA']],
  ['MX', ['MX', 'MEXICO']],
  ['BE', ['BE', 'BELGIUM', 'BELGIQUE', 'BELGIE', 'BELGIEN']],
  ['NL', ['NL', 'NETHERLANDS', 'THE NETHERLANDS', 'NEDERLAND', 'HOLLAND']],
  ['LU', ['LU', 'LUXEMBOURG']],
  ['DE', ['DE', 'GERMANY', 'DEUTSCHLAND']],
  ['AT', ['AT', 'AUSTRIA', 'OSTERREICH']],
  ['CH', ['CH', 'SWITZERLAND', 'SCHWEIZ', 'SUISSE', 'SVIZZERA']],
  ['FR', ['FR', 'FRANCE']],
  ['ES', ['ES', 'SPAIN', 'ESPANA']],
  ['PT', ['PT', 'PORTUGAL']],
  ['IT', ['IT', 'ITALY', 'ITALIA']],
  ['GR', ['GR', 'GREECE']],
  ['DK', ['DK', 'DENMARK', 'DANMARK']],
  ['SE', ['SE', 'SWEDEN', 'SVERIGE']],
  ['NO', ['NO', 'NORWAY', 'NORGE']],
  ['FI', ['FI', 'FINLAND', 'SUOMI']],
  ['PL', ['PL', 'POLAND', 'POLSKA']],
  ['CZ', ['CZ', 'CZECHIA', 'CZECH REPUBLIC']],
  ['MY', ['MY', 'MALAYSIA']],
  ['SG', ['SG', 'SINGAPORE']],
  ['ID', ['ID', 'INDONESIA']],
  ['TH', ['TH', 'THAILAND']],
  ['PH', ['PH', 'PHILIPPINES']],
  ['VN', ['VN', 'VIETNAM', 'VIET NAM']],
  ['HK', ['HK', 'HONG KONG']],
  ['CN', ['CN', 'CHINA']],
  ['TW', ['TW', 'TAIWAN']],
  ['JP', ['JP', 'JAPAN']],
  ['KR', ['KR', 'KOREA', 'SOUTH KOREA', 'REPUBLIC OF KOREA']],
  ['IN', ['IN', 'INDIA']],
  ['AU', ['AU', 'AUSTRALIA']],
  ['NZ', ['NZ', 'NEW ZEALAND']],
  ['ZA', ['ZA', 'SOUTH AFRICA']],
  ['BR', ['BR', 'BRAZIL', 'BRASIL']],
];

const BY_NAME = new Map<string, string>(
  NAMES.flatMap(([code, names]) => names.map((n) => [n, code] as const)),
);

/** Upper case, accents and punctuation dropped, spaces collapsed: `U.S.A.` -> `U S A`. */
function key(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim();
}

/**
 * The ISO 3166-1 alpha-2 code of a country as printed (`USA`, `United Kingdom`, `België`, `MY`), or null.
 * Two-letter inputs are taken as codes only when they are codes of a country listed here.
 */
export function countryCodeOf(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const k = key(text);
  if (k === '') return null;
  const direct = BY_NAME.get(k);
  if (direct) return direct;
  const compact = BY_NAME.get(k.replace(/ /g, ''));
  return compact ?? null;
}
