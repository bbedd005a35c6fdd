/**
 * Company names as receipts print them: the legal form (`SDN BHD`, `S/B`, `LTD`, `GMBH`…), a
 * registration number printed after the name, and OCR's usual misreadings of both. Shared by the
 * analyzers. Pure functions.
 */

/** A legal form in an upper-cased name: `SDN BHD`, `BHD`, `S/B`, `LTD`, `INC`, `GMBH`, `PTE`, `CO.`… */
export const LEGAL_ENTITY_RE = new RegExp(
  String.raw`\bS[DO]N\.?\s*[B8]HD\b|\bBHD\b|\bBERHAD\b|\bS\/B\b|\bLTD\b|\bLIMITED\b|\bLLC\b|\bINC\b|\bPLC\b|\bGMBH\b|\bPTE\b|\bCORP(?:ORATION)?\b|\bCO\.\s|\bCO\.$|\bCOMPANY\b|\bENTERPRISE\b|\bTRADING\b|\bB\.?V\.?$|\bN\.?V\.?$|\bS\.?A\.?$|\bSRL\b|\bAG\b`,
);

/**
 * Removes a company registration number printed after a name: `AEON CO. (M) BHD (126826-H)`, its
 * hyphen read as a dot or a middle dot (`(519537·X)`).
 */
export function stripRegistration(text: string): string {
  return text
    .replace(/\(\s*(?:CO\.?\s*(?:REG|NO)\.?\s*:?\s*)?\d{4,}[\s\-·.]*[A-Z]?\s*\)?\s*$/i, '')
    .replace(/\s+\(?\d{5,}[\s\-·.]?[A-Z]\s*\)?\s*$/, '')
    .trim();
}

/**
 * Words that shop and company names are made of everywhere (what a business is, not which one),
 * for repairing one misread letter in them: `COMFANY` is COMPANY, `CONFECTIUNERY` CONFECTIONERY.
 */
const NAME_WORDS = [
  'ADVERTISING',
  'BAKERIES',
  'BEVERAGES',
  'BOOKSTORE',
  'BOUTIQUE',
  'BUILDING',
  'CHEMICALS',
  'COMPANY',
  'COMPUTER',
  'CONFECTIONERY',
  'CORPORATION',
  'DISTRIBUTOR',
  'DISTRIBUTORS',
  'ELECTRICAL',
  'ELECTRONICS',
  'ENGINEERING',
  'ENTERPRISE',
  'ENTERPRISES',
  'EQUIPMENT',
  'FASHION',
  'FURNITURE',
  'GROCERIES',
  'GROCERS',
  'GROCERY',
  'HANDICRAFT',
  'HARDWARE',
  'HOLDINGS',
  'HYPERMARKET',
  'INDUSTRIES',
  'INTERNATIONAL',
  'JEWELLERY',
  'KITCHEN',
  'KOPITIAM',
  'LOGISTICS',
  'MACHINERY',
  'MANAGEMENT',
  'MARKETING',
  'MATERIALS',
  'MINIMARKET',
  'PHARMACY',
  'PRINTING',
  'PRODUCTS',
  'RESOURCES',
  'RESTAURANT',
  'SEAFOOD',
  'SERVICES',
  'SOLUTIONS',
  'STATIONERY',
  'SUPERMARKET',
  'SUPPLIES',
  'TAILORING',
  'TRADERS',
  'TRADING',
  'TRANSPORT',
  'VENTURES',
];

/** Shortest word repaired: shorter ones are too easily another real word one letter away. */
const MIN_REPAIRED_WORD = 7;

/**
 * Shorter words of shop names, repaired only where one letter was read as another of the same shape
 * ({@link SAME_SHAPE}): `NART` is MART, `Heauty` BEAUTY. (BOOK is left out: `HOOK` is a word.)
 */
const SHORT_NAME_WORDS = ['MART', 'MARKET', 'SHOP', 'STORE', 'STORES', 'BEAUTY', 'HEALTH', 'BAKERY', 'HOUSE'];
/** Letters OCR reads one for the other: the same strokes, one missing or added. */
const SAME_SHAPE = new Set(['MN', 'NM', 'BH', 'HB']);

function shortNameWordOf(upper: string): string | null {
  for (const candidate of SHORT_NAME_WORDS) {
    if (candidate.length !== upper.length || !oneLetterMisread(candidate, upper)) continue;
    const at = [...upper].findIndex((c, i) => c !== candidate[i]);
    if (SAME_SHAPE.has(`${candidate[at]}${upper[at]}`)) return candidate;
  }
  return null;
}

/**
 * The name word `word` is with one letter misread or left out (`STATONERY`), or null when it is
 * none or could be two. A word that is a name word less its plural `S` is a word of its own
 * (`SERVICE`, `PRODUCT`).
 */
function nameWordOf(word: string): string | null {
  const upper = word.toUpperCase();
  if (word.length < MIN_REPAIRED_WORD) return word.length >= 4 ? shortNameWordOf(upper) : null;
  if (NAME_WORDS.includes(upper)) return null;
  let found: string | null = null;
  for (const candidate of NAME_WORDS) {
    const fits =
      candidate.length === upper.length
        ? oneLetterMisread(candidate, upper)
        : candidate.length === upper.length + 1 &&
          candidate !== `${upper}S` &&
          oneLetterLeftOut(candidate, upper);
    if (!fits) continue;
    if (found) return null;
    found = candidate;
  }
  return found;
}

function oneLetterMisread(candidate: string, word: string): boolean {
  let differences = 0;
  for (let i = 0; i < word.length && differences < 2; i++) if (candidate[i] !== word[i]) differences++;
  return differences === 1;
}

function oneLetterLeftOut(candidate: string, word: string): boolean {
  let i = 0;
  while (i < word.length && candidate[i] === word[i]) i++;
  return candidate.slice(i + 1) === word.slice(i);
}

/** A name word glued to the word before it (OCR's lost space): `SANYUSTATIONERY`. */
const GLUED_NAME_WORD = new RegExp(String.raw`\b(\p{L}{2,})(${NAME_WORDS.join('|')})\b`, 'giu');

/**
 * Repairs one misread letter in the name words of a company name, keeping the word's case, and
 * puts back the space OCR lost before one.
 */
function repairNameWords(text: string): string {
  const spaced = text.replace(GLUED_NAME_WORD, (glued, before: string, word: string) =>
    NAME_WORDS.includes(glued.toUpperCase()) ? glued : `${before} ${word}`,
  );
  return spaced.replace(/\p{L}[\p{L}0-9]+/gu, (word) => {
    const repaired = nameWordOf(word);
    if (!repaired) return word;
    if (word === word.toUpperCase()) return repaired;
    return repaired[0] + repaired.slice(1).toLowerCase();
  });
}

/** Repairs the misreadings OCR makes most often in company suffixes and tidies the edges. */
export function tidyMerchantName(text: string): string {
  return (
    repairNameWords(stripRegistration(text))
      // SDN BHD with its letters misread or its last cut off: `Sdn Bnd`, `Sdn Hhd`, `SDN BH` at the end.
      .replace(
        /\b(S[Dd][Nn]\.?\s*)(B[Nn][Dd]|H[Hh][Dd]\b|BH$|Bh$)/g,
        (_, sdn: string, bhd: string) => sdn + (bhd[1] === bhd[1]!.toUpperCase() ? 'BHD' : 'Bhd'),
      )
      // `(M)` (Malaysia) before SDN BHD, its M read as 4, H, N, W, IVI or rn: `ANZEL ADVERTISING (4) SDN BHD`.
      .replace(/\(\s*(?:4|H|N|W|IVI|IV|rn|RN)\s*\)(?=\s*S[DdOo0][Nn]\b)/g, '(M)')
      // Digits inside dotted initials are letters: `MR. D.1.Y.` is MR. D.I.Y.
      .replace(/\b(?:[A-Z0-9]\.){2,}/g, (initials) =>
        /[A-Z]/.test(initials)
          ? initials.replace(/[0158]/g, (d) => ({ '0': 'O', '1': 'I', '5': 'S', '8': 'B' })[d]!)
          : initials,
      )
      .replace(/\bS[O0I]N(\.?\s*[B8]HD)\b/g, 'SDN$1')
      .replace(/\b(SDN\.?\s*)8HD\b/g, '$1BHD')
      .replace(/\b(SDN\.?\s*)BH[I1l]D\b/g, '$1BHD')
      // A zero among the letters of a word is the letter O: `AEON C0. (M) BHD`.
      .replace(/\b(?=[A-Z]*0)[A-Z0]*[A-Z][A-Z0]*\b/g, (word) => word.replace(/0/g, 'O'))
      // S/B (Sendirian Berhad) read with 5 for S, and 8, D or 0 for B: `99 SPEED MART 5/8`, `5/0`.
      .replace(/(?<=\p{L}\s+)[S5]\/[B8D0]\b/gu, 'S/B')
      .replace(/\b([A-Z]+\s+(?:SDN\.?\s*BHD|BHD|S\/B)\.?)\s+[A-Z]$/i, '$1')
      // One or two stray letters after the legal form are a speck, not a word (`ENTERPRISE FO`).
      .replace(/\b([A-Z]+\s+(?:ENTERPRISE|SDN\.?\s*BHD|BHD|S\/B)\.?)\s+(?!CO\b)[A-Z]{1,2}$/, '$1')
      // Whatever follows the legal suffix in brackets is a registration number, however misread.
      .replace(
        /(\b(?:S[DO0]N\.?\s*[B8]HD|BHD|BERHAD|S\/B|LTD|LIMITED|INC|LLC|PLC)\.?)\s*\([^)]*\)?\s*$/i,
        '$1',
      )
      // A bracket left open before the legal form was closed on the receipt, its `)` read as a thin
      // letter run on to the word: `ENTERPRISE (SETIA ALAMI SDN BHD`.
      .replace(/\(([^()]*\p{L}{2})[Il1|\]](?=\s+(?:S[Dd][Nn]\b|BHD\b|Bhd\b)[^()]*$)/u, '($1)')
      .replace(/[\s:;,|#*~_=]+$/, '')
      // A lone figure with a dot before the name is a speck or a list mark: `1 . Yam Fresh`.
      .replace(/^\d\s+\.\s+(?=\p{L}{2})/u, '')
      .replace(/^[\s:;,|.]+/, '')
      .trim()
  );
}
