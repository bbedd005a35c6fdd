import { findDates, stripRegistration, tidyMerchantName, type AnalyzedMerchant } from '@receipts/core';
import {
  ADDRESS_WORD_RE,
  BUSINESS_WORD_RE,
  DOC_TITLE_RE,
  LEGAL_ENTITY_RE,
  NUMERIC_POSTCODE_RE,
  PHONE_LABEL_RE,
  REGISTRATION_RE,
  UK_POSTCODE_RE,
  US_STATES,
  US_ZIP_RE,
  letterRatio,
  upperRatio,
  type ReceiptLine,
} from './receipt-lines';

/** The merchant fields and the lines they were read from (for confidences). */
export interface MerchantReading {
  merchant: AnalyzedMerchant;
  nameLine: ReceiptLine | null;
  addressLines: ReceiptLine[];
  phoneLine: ReceiptLine | null;
  /** Position (in `lines`) after the last header line: items start at or after it. */
  headerEnd: number;
}

/** How many lines from the top may hold the merchant's name. */
const NAME_WINDOW = 8;

const PHONE_NUMBER = /(\+?\(?\d[\d\s().-]{6,}\d)/;

function digitsIn(text: string): number {
  return text.match(/\d/g)?.length ?? 0;
}

function isPhoneNumber(candidate: string): boolean {
  const digits = digitsIn(candidate);
  return digits >= 7 && digits <= 15;
}

/** The phone number a line prints, or null. Fax numbers are skipped. */
export function phoneIn(line: ReceiptLine): string | null {
  const labelled = PHONE_LABEL_RE.exec(line.upper);
  if (labelled) {
    const after = line.text.slice((labelled.index ?? 0) + labelled[0].length);
    const m = PHONE_NUMBER.exec(after);
    if (m && isPhoneNumber(m[1]!) && !/^\s*FAX/i.test(after)) return tidyPhone(m[1]!);
  }
  // An unlabelled line that is nothing but a phone number (`03-2093 7358`, `+603-9130 2672`).
  const bare = /^\+?\(?\d[\d\s().-]{6,}\d$/.exec(line.text);
  if (bare && isPhoneNumber(line.text) && /[\s().+-]/.test(line.text) && findDates(line.text).length === 0) {
    return tidyPhone(line.text);
  }
  return null;
}

function tidyPhone(text: string): string {
  // A column rule or a fax label glued to the number is not part of it.
  return text
    .replace(/\s*[|/].*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Countries whose postcodes are four digits before the town (`1000 BRUXELLES`, `3011 AB`). */
const FOUR_DIGIT_POSTCODE_COUNTRIES = new Set([
  'BE',
  'NL',
  'LU',
  'AT',
  'CH',
  'DK',
  'NO',
  'AU',
  'NZ',
  'HU',
  'ZA',
  'PH',
]);
const STREET_AFTER_NUMBER_RE =
  /^(?:[A-Z]\s)?(?:[A-Z'-]+\s){0,3}(?:STREET|ST|ROAD|RD|AVENUE|AVE|BLVD|BOULEVARD|LANE|LN|DRIVE|DR|WAY|HIGHWAY|HWY|PLACE|PL|COURT|CT|TERRACE|PARKWAY|PKWY|CIRCLE|SQUARE|JALAN|JLN|LORONG)\b/;

/**
 * The postal code a line prints, if any, and the town written next to it: a US ZIP after a state
 * (`SPRINGFIELD, IL 62704`), a UK postcode (`LEEDS LS1 4DT`), or a 5-digit code (Malaysia, most of
 * Europe) or, where the country uses them, a 4-digit one, standing alone before the town. A house
 * number before a street name (`1200 MAPLE AVENUE`) is not a postcode.
 */
export function postcodeIn(
  text: string,
  country: string | null,
): { postcode: string; city: string | null } | null {
  const upper = text.toUpperCase();
  if (country === 'US' || country === null) {
    const us = US_ZIP_RE.exec(upper);
    if (us && US_STATES.has(us[1]!)) {
      const city =
        upper
          .slice(0, us.index)
          .replace(/[,\s]+$/, '')
          .split(',')
          .pop()
          ?.trim() ?? null;
      return { postcode: us[2]!, city: city ? titleSafe(text, city) : null };
    }
    if (country === 'US') return null;
  }
  if (country === 'GB' || country === 'IE' || country === null) {
    const uk = UK_POSTCODE_RE.exec(upper);
    if (uk && /\d[A-Z]{2}$/.test(uk[1]!.replace(/\s/g, ''))) {
      const before = upper.slice(0, uk.index).replace(/[,\s]+$/, '');
      const city = before.split(',').pop()?.trim() || null;
      return {
        postcode: uk[1]!.replace(/\s*(\d[A-Z]{2})$/, ' $1'),
        city: city ? titleSafe(text, city) : null,
      };
    }
    if (country !== null) return null;
  }
  const n = NUMERIC_POSTCODE_RE.exec(upper);
  if (!n) return null;
  const code = n[1]!;
  const after = upper.slice((n.index ?? 0) + n[0].length).replace(/^[\s,.]+/, '');
  if (STREET_AFTER_NUMBER_RE.test(after)) return null;
  if (code.length === 4 && !(country === null || FOUR_DIGIT_POSTCODE_COUNTRIES.has(country))) return null;
  if (code.length === 4 && !/^[A-Z]{3,}/.test(after)) return null;
  const city = after.split(/[,.]/)[0]?.trim() || null;
  return { postcode: code, city: city && /[A-Z]{3}/.test(city) ? titleSafe(text, city) : null };
}

/** The original spelling of `upperPart` within `text`. */
function titleSafe(text: string, upperPart: string): string {
  const at = text.toUpperCase().indexOf(upperPart);
  return at >= 0 ? text.slice(at, at + upperPart.length) : upperPart;
}

function isAddressLine(line: ReceiptLine, country: string | null): boolean {
  return (
    ADDRESS_WORD_RE.test(line.upper) ||
    // A house or lot number and a comma open many addresses (`109, SS21/1A,`).
    /^\d{1,5}[A-Z]?\s*,/.test(line.upper) ||
    postcodeIn(line.text, country) !== null
  );
}

function isRegistrationOnly(line: ReceiptLine): boolean {
  if (!REGISTRATION_RE.test(line.upper)) return false;
  const rest = stripRegistration(line.text);
  return (
    (rest.match(/\p{L}/gu)?.length ?? 0) < 4 ||
    /\b(?:GST|SST|VAT)\b|\bREG\b|\bCO\.?\s*(?:REG|NO)\b/i.test(rest)
  );
}

function nameScore(line: ReceiptLine, position: number): number | null {
  const text = stripRegistration(line.text);
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 3) return null;
  if (!/\p{L}{3,}/u.test(text)) return null;
  if (letterRatio(text) < 0.6) return null;
  if (DOC_TITLE_RE.test(line.upper) && !LEGAL_ENTITY_RE.test(line.upper)) return null;
  if (isRegistrationOnly(line)) return null;
  if (phoneIn(line)) return null;
  if (findDates(line.text).length > 0) return null;
  let score = 0;
  const legal = LEGAL_ENTITY_RE.test(line.upper);
  if (legal) score += 3;
  if (BUSINESS_WORD_RE.test(line.upper)) score += 0.5;
  const upper = upperRatio(text);
  if (upper >= 0.8) score += 2;
  else if (text.split(/\s+/).every((w) => !/^\p{Ll}/u.test(w))) score += 1;
  // Mostly small letters make a sentence (`Thank you`), not a name, unless the line carries a legal
  // form: companies print `Anzel Advertising (M) Sdn bhd` too.
  else if (upper < 0.3 && !legal) score -= 2;
  // Many one- and two-letter fragments are what OCR makes of a logo or a smudge.
  const words = text.split(/\s+/);
  const fragments = words.filter((w) => w.replace(/[^\p{L}]/gu, '').length <= 2).length;
  if (words.length >= 3 && fragments / words.length > 0.5) score -= 2;
  if (ADDRESS_WORD_RE.test(line.upper) && !LEGAL_ENTITY_RE.test(line.upper)) score -= 2;
  if (line.confidence !== null && line.confidence < 0.6) score -= 2;
  score -= position * 0.5;
  return score;
}

function extendsName(name: string, line: string): boolean {
  const n = name.toUpperCase();
  const l = tidyMerchantName(line).toUpperCase();
  if (n.length < 4 || !l.startsWith(n + ' ')) return false;
  const extra = l.slice(n.length).trim().split(/\s+/);
  return extra.length <= 4 && extra.every((w) => /^[\p{L}'&.-]+$/u.test(w));
}

/** More closing than opening brackets (`ALAM) SDN BHD`), or the other way round. */
const bracketBalance = (text: string) => (text.match(/\(/g)?.length ?? 0) - (text.match(/\)/g)?.length ?? 0);

/**
 * Whether a line can be part of a name printed over two or three lines: letters, no digits, not an
 * address, phone, date, registration number or document title.
 */
function nameFragment(line: ReceiptLine | undefined, country: string | null): line is ReceiptLine {
  if (!line) return false;
  const text = line.text.trim();
  return (
    text.length >= 2 &&
    text.length <= 40 &&
    !/\d/.test(text) &&
    letterRatio(text) >= 0.6 &&
    upperRatio(text) >= 0.8 &&
    !DOC_TITLE_RE.test(line.upper) &&
    !isAddressLine(line, country) &&
    !isRegistrationOnly(line) &&
    phoneIn(line) === null
  );
}

/**
 * A company name printed over more than one line, from its best line at `at`: a line that starts with
 * the legal form (`CO. (M) SDN BHD`, `ENTERPRISE (SETIA`; fewer than four letters before it) or closes a bracket it did not open
 * (`ALAM) SDN BHD`) continues the line above; a line that ends in `&` or `-`, or opens a bracket it does
 * not close (`ENTERPRISE (SETIA`), goes on on the line below.
 */
function wholeName(lines: ReceiptLine[], at: number, country: string | null): { text: string; last: number } {
  let first = at;
  let last = at;
  let text = lines[at]!.text.trim();
  const startsInsideName = (t: string) => {
    const legal = LEGAL_ENTITY_RE.exec(t.toUpperCase());
    // Fewer than four letters before the legal form (`CO. (M) SDN BHD`) are no name on their own.
    const before = legal === null ? '' : t.slice(0, legal.index);
    return bracketBalance(t) < 0 || (legal !== null && (before.match(/\p{L}/gu)?.length ?? 0) < 4);
  };
  while (first > 0 && first > at - 2 && startsInsideName(text) && nameFragment(lines[first - 1], country)) {
    first -= 1;
    text = `${lines[first]!.text.trim()} ${text}`;
  }
  while (
    last < at + 2 &&
    (bracketBalance(text) > 0 || /[&-]$/.test(text)) &&
    nameFragment(lines[last + 1], country)
  ) {
    last += 1;
    text = `${text} ${lines[last]!.text.trim()}`;
  }
  return { text, last };
}

/**
 * Reads the merchant from the top of the receipt: its name is the best-scoring of the first lines
 * (upper case, a legal suffix such as SDN BHD or LTD, a shop word; not an address, phone,
 * registration number, date or document title); the address is the run of lines after it that look
 * like an address, through the line with the postal code; the phone is the first labelled number.
 */
export function readMerchant(lines: ReceiptLine[], country: string | null): MerchantReading {
  let best: { line: ReceiptLine; at: number; score: number } | null = null;
  const window = Math.min(lines.length, NAME_WINDOW);
  for (let at = 0; at < window; at++) {
    const line = lines[at]!;
    // A brand, then the same brand with its branch (`DOMINO'S PIZZA` / `DOMINO'S PIZZA TAMAN
    // UNIVERSITI`): the longer line is the shop's full name.
    if (best && extendsName(tidyMerchantName(best.line.text), line.text)) {
      best = { line, at, score: best.score };
      continue;
    }
    // The address starts: the name is above it.
    if (best && isAddressLine(line, country) && !LEGAL_ENTITY_RE.test(line.upper)) break;
    let score = nameScore(line, at);
    // The company's registered name is printed over its registration number (`FTOF NOODLE HOUSE` /
    // `(002049088-U)` under the trading name `FACE TO FACE NOODLE HOUSE`). A line with its legal form
    // scores as a company already (and may be the last line of a name printed over several).
    const registered = lines[at + 1] !== undefined && isRegistrationOnly(lines[at + 1]!);
    if (score !== null && registered && !LEGAL_ENTITY_RE.test(line.upper)) score += 1;
    if (score !== null && score > -3 && (!best || score > best.score)) best = { line, at, score };
  }

  const name = best ? wholeName(lines, best.at, country) : null;
  const addressLines: ReceiptLine[] = [];
  let postal: { postcode: string; city: string | null } | null = null;
  let headerEnd = name ? name.last + 1 : 0;
  if (best && name) {
    let skipped = 0;
    for (let at = name.last + 1; at < Math.min(lines.length, best.at + 10); at++) {
      const line = lines[at]!;
      if (phoneIn(line) || PHONE_LABEL_RE.test(line.upper.slice(0, 6))) break;
      // A date or a registration number between the name and the address (`04 Jun 2018 18:28`,
      // `(867388-U)`) is skipped; after the address has started it ends it.
      const aside =
        findDates(line.text).length > 0 ||
        isRegistrationOnly(line) ||
        (DOC_TITLE_RE.test(line.upper) && !isAddressLine(line, country));
      if (aside) {
        if (addressLines.length > 0) break;
        continue;
      }
      const pc = postcodeIn(line.text, country);
      const looksLikeAddress = isAddressLine(line, country);
      const continues =
        addressLines.length > 0 && !postal && letterRatio(line.text) > 0.6 && line.text.length <= 60;
      // A state or region alone on the line after the postcode (`JOHOR`) still belongs to it.
      const tail =
        postal && addressLines.length > 0 && /^[A-Z .,]{3,30}$/.test(line.upper) && looksLikeAddress;
      if (!(looksLikeAddress || continues || tail)) {
        // A second name line (`BISTRO & CAFE`) or a speck may sit between the name and the address.
        if (addressLines.length === 0 && ++skipped <= 2) continue;
        break;
      }
      if (postal && !tail) break;
      addressLines.push(line);
      headerEnd = at + 1;
      if (pc && !postal) postal = pc;
      if (tail) break;
    }
  }

  let phoneLine: ReceiptLine | null = null;
  let phone: string | null = null;
  const phoneWindow = Math.min(lines.length, Math.max(headerEnd + 4, 12));
  for (let at = 0; at < phoneWindow; at++) {
    const p = phoneIn(lines[at]!);
    if (p) {
      phone = p;
      phoneLine = lines[at]!;
      if (at >= headerEnd && at <= headerEnd + 2) headerEnd = at + 1;
      break;
    }
  }

  const street = addressLines.map((l) => l.text.replace(/[\s,]+$/, '')).join(', ');
  return {
    merchant: {
      name: name ? tidyMerchantName(name.text) || null : null,
      phone_number: phone,
      postal_code: postal?.postcode ?? null,
      city: postal?.city ? postal.city.replace(/[\s,.]+$/, '') : null,
      street_address: street.length > 0 ? street : null,
    },
    nameLine: best?.line ?? null,
    addressLines,
    phoneLine,
    headerEnd,
  };
}
