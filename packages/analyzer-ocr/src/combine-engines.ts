import { LEGAL_ENTITY_RE, tidyMerchantName, totalChecksOut } from '@receipts/core';
import { BUSINESS_WORD_RE } from './receipt-lines';
import type { ParsedReceipt } from './parse-receipt';

/** Confidence of a field the two engines read differently: below `LOW_CONFIDENCE`, so it is reviewed. */
const DISAGREE = 0.45;
/** Confidence of a field both engines read alike. */
const AGREE = 0.9;

/** Lowest confidence of PaddleOCR's name line for the name to stand without Tesseract's reading. */
const OWN_NAME_CONFIDENCE = 0.8;
/** Letters run together longer than any word of a name are several words read without their spaces. */
const RUN_TOGETHER = /\p{L}{16,}/u;

/**
 * Whether PaddleOCR's reading of the merchant's name stands on its own, without Tesseract reading
 * the heading: with the spaces it dropped put back it is a company name with its legal form
 * (`SDN BHD`, `S/B`, `LTD`…), no run of letters is several words still run together, no known word
 * had to be split from its neighbour (`(TAMAN DAYA)SDN BHD`: the line lost its spaces, maybe between
 * other words too), and its line was read with a confidence of at least 0.8. On the SROIE photos
 * such names were as often right as the combined reading's, and 3 receipts in 5 have one.
 */
export function paddleNameStands(paddle: ParsedReceipt): boolean {
  const name = respace(paddle.merchant.name);
  if (!name || RUN_TOGETHER.test(name)) return false;
  // Words that had to be split apart show that the line lost its spaces, maybe between other words.
  if (name !== paddle.merchant.name!.replace(/\s+/g, ' ').trim()) return false;
  return (
    LEGAL_ENTITY_RE.test(tidyMerchantName(name).toUpperCase()) &&
    (paddle.confidence['merchant.name'] ?? 0) >= OWN_NAME_CONFIDENCE
  );
}

/**
 * One receipt from two engines' readings: PaddleOCR reads digits far more reliably (totals, dates),
 * Tesseract keeps the spaces between words (merchant names and addresses). The receipt fields, items
 * and taxes come from the PaddleOCR reading when it found a total, else from Tesseract's; the
 * transaction date is PaddleOCR's, else Tesseract's; the country and currency the figures' reading's,
 * else the other's; the merchant is PaddleOCR's when its name stands on its own
 * ({@link paddleNameStands}: then Tesseract need not read the heading at all, `tesseract` may be
 * null), else Tesseract's, unless only PaddleOCR's reads as a company (a legal form or a shop word
 * once the spaces it dropped are back).
 * Where both engines read the date alike its confidence is at least 0.9; where they read the total
 * or the date differently it is at most 0.45, which puts the receipt up for review. `wholePage`:
 * whether Tesseract read the whole receipt (a reading of the heading alone says nothing of them).
 */
export function combineEngineReadings(
  paddle: ParsedReceipt,
  tesseractReading: ParsedReceipt | null,
  { wholePage = true }: { wholePage?: boolean } = {},
): ParsedReceipt {
  const tesseract = tesseractReading ?? paddle;
  const figures = paddle.receipt.total_amount !== null ? paddle : tesseract;
  // A reading that recognised a known chain (it has the chain's owner) names the shop: PaddleOCR's
  // first, as it read the whole receipt, footer and web addresses included. When the name it gives
  // is the heading as printed rather than the chain's own name, the heading's best reading spells it.
  const chainReading = [paddle, tesseract].find((r) => r.merchant.owning_corporation);
  const chainName =
    chainReading && chainReading.confidence['merchant.chain'] !== undefined ? chainReading : undefined;
  const headingWords =
    !paddleNameStands(paddle) &&
    tesseract.merchant.name !== null &&
    !(looksLikeCompany(respace(paddle.merchant.name)) && !looksLikeCompany(tesseract.merchant.name))
      ? tesseract
      : paddle;
  // The name: a heading reading that does not name the recognised chain (Tesseract read the street
  // under a logo) gives way to the reading that does. The address and phone stay the heading's.
  const named =
    chainName ?? (chainReading && !headingWords.merchant.owning_corporation ? chainReading : undefined);
  const words = headingWords;
  const other = figures === paddle ? tesseract : paddle;
  const receipt = {
    ...figures.receipt,
    // The category of a recognised chain, else what the figures' reading made of its words.
    receipt_type: chainReading ? chainReading.receipt.receipt_type : figures.receipt.receipt_type,
    transaction_date: paddle.receipt.transaction_date ?? tesseract.receipt.transaction_date,
    transaction_time: paddle.receipt.transaction_time ?? tesseract.receipt.transaction_time,
    // The country and currency may only show in the other reading (a postcode in the address read
    // with its spaces, where PaddleOCR ran it into the town).
    country_region: figures.receipt.country_region ?? other.receipt.country_region,
    currency_code: figures.receipt.currency_code ?? other.receipt.currency_code,
  };
  receipt.total_checks_out = totalChecksOut(
    receipt.total_amount,
    figures.items,
    receipt.total_tax,
    receipt.subtotal,
    receipt.adjustments,
  );
  const confidence = confidencesOf(figures, words);
  const agreement = (key: string, a: unknown, b: unknown, raise: boolean) => {
    if (a === null || b === null || a === undefined || b === undefined) return;
    const base = confidence[key] ?? 0.7;
    confidence[key] = a !== b ? Math.min(base, DISAGREE) : raise ? Math.max(base, AGREE) : base;
  };
  // Tesseract's total and date are compared only when it read the whole page, not just the heading.
  if (tesseractReading && wholePage) {
    // Two readings of the same print confirm its digits, not that it is the total: the total's
    // confidence stays what its receipt's figures made it.
    agreement('receipt.total_amount', paddle.receipt.total_amount, tesseract.receipt.total_amount, false);
    agreement(
      'receipt.transaction_date',
      paddle.receipt.transaction_date,
      tesseract.receipt.transaction_date,
      true,
    );
  }
  // Both engines read the same name line: the more confident reading's letters win, with the spaces
  // between the words as Tesseract read them (`POPULAR BOOK` where Tesseract read `FOFULAR BODE.`;
  // `SANYU STATIONERY SHOP` from PaddleOCR's `SANYU STATIONERYSHOP` and Tesseract's `SANYO STATIONERY
  // SHOP`).
  const paddleName = paddle.merchant.name && tidyMerchantName(respace(paddle.merchant.name) ?? '');
  const sameNameLine =
    words === tesseract &&
    paddleName !== null &&
    (paddle.confidence['merchant.name'] ?? 0) > (tesseract.confidence['merchant.name'] ?? 0) &&
    sameLine(tesseract.merchant.name, paddleName);
  const read =
    words === paddle
      ? { ...paddle.merchant, name: paddleName }
      : sameNameLine
        ? { ...tesseract.merchant, name: withSpacesOf(paddleName, tesseract.merchant.name!) }
        : words.merchant;
  const merchant = chainReading
    ? {
        ...read,
        ...(named ? { name: named.merchant.name } : {}),
        owning_corporation: chainReading.merchant.owning_corporation ?? null,
      }
    : read;
  const namedConfidence = named?.confidence['merchant.name'];
  if (namedConfidence !== undefined) confidence['merchant.name'] = namedConfidence;
  return {
    receipt,
    merchant,
    items: figures.items,
    taxes: figures.taxes,
    confidence,
    ...(figures.contradicted ? { contradicted: figures.contradicted } : {}),
  };
}

/** The confidences of one reading's fields, with those of the merchant taken from another reading. */
export function confidencesOf(fields: ParsedReceipt, merchant: ParsedReceipt): Record<string, number> {
  const confidence: Record<string, number> = {};
  for (const [key, value] of Object.entries(fields.confidence))
    if (!key.startsWith('merchant.')) confidence[key] = value;
  for (const [key, value] of Object.entries(merchant.confidence))
    if (key.startsWith('merchant.')) confidence[key] = value;
  return confidence;
}

/**
 * Words of company names that PaddleOCR runs into their neighbours: `UNIHAKKAINTERNATIONALSDNBHD`.
 * Words made with MARKET (`SUPERMARKET`, `HYPERMARKET`, `MINIMARKET`) stay whole.
 */
const GLUED_WORDS =
  /(?<=[A-Z.)])(?<!SUPER|HYPER|MINI)(?=(?:SDN|BHD|ENTERPRISE|TRADING|HOLDINGS|INTERNATIONAL|STATIONERY|RESTAURANT|HARDWARE|BOOKCENTRE|MARKET|RESOURCES|INDUSTRIES|MARKETING|SERVICES|\(M\))(?![a-z]))/g;
const GLUED_PREFIX = /\b(PERNIAGAAN|SYARIKAT|KEDAI|RESTORAN)(?=[A-Z])/g;

/** A name read without the spaces between its words, with them put back where the words are known. */
export function respace(name: string | null): string | null {
  if (name === null) return null;
  return name.replace(GLUED_WORDS, ' ').replace(GLUED_PREFIX, '$1 ').replace(/\s+/g, ' ').trim();
}

/**
 * Whether two readings of a name are the same printed line: their letters and digits (spaces aside)
 * differ in at most a quarter of the characters.
 */
function sameLine(a: string | null, b: string): boolean {
  if (!a) return false;
  const bare = (t: string) => t.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  const x = bare(a);
  const y = bare(b);
  if (x.length < 4 || y.length < 4) return false;
  return editDistance(x, y) <= Math.max(x.length, y.length) / 4;
}

/** Words of a name: runs between spaces with a letter or digit in them. */
const wordCount = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * PaddleOCR's reading of the name as it is when it kept at least as many words as Tesseract's, else
 * its letters with Tesseract's spaces ({@link spacedLike}).
 */
function withSpacesOf(paddleName: string, tesseractName: string): string {
  return wordCount(paddleName) >= wordCount(tesseractName)
    ? paddleName
    : spacedLike(paddleName, tesseractName);
}

/**
 * `letters` (one reading of a line) with the spaces of `spaced` (another reading of the same line):
 * the two are lined up character by character (spaces aside, case aside), and a space goes before
 * each character of `letters` whose counterpart in `spaced` follows a space, or follows characters
 * of `spaced` that `letters` lacks after a space (`BOOKTAK` and `BOOK TA .K` give `BOOK TA K`).
 * PaddleOCR reads the letters of a heading better; Tesseract keeps the spaces between its words.
 */
export function spacedLike(letters: string, spaced: string): string {
  const a = [...letters.replace(/\s+/g, '')];
  const b: { char: string; spaceBefore: boolean }[] = [];
  const chars = [...spaced.trim()];
  for (const [index, char] of chars.entries())
    if (!/\s/.test(char)) b.push({ char, spaceBefore: index > 0 && /\s/.test(chars[index - 1]!) });
  // Edit distance table, then a walk back through it for the pairing.
  const same = (i: number, j: number) => a[i]!.toUpperCase() === b[j]!.char.toUpperCase();
  const cost = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      cost[i]![j] = Math.min(
        cost[i - 1]![j]! + 1,
        cost[i]![j - 1]! + 1,
        cost[i - 1]![j - 1]! + (same(i - 1, j - 1) ? 0 : 1),
      );
  // For each character of `letters`, whether a space goes before it.
  const spaceBefore = Array.from({ length: a.length }, () => false);
  let i = a.length;
  let j = b.length;
  let pending = false;
  const steps: { i: number | null; j: number | null }[] = [];
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (same(i - 1, j - 1) ? 0 : 1)) {
      steps.push({ i: --i, j: --j });
    } else if (j > 0 && (i === 0 || cost[i]![j] === cost[i]![j - 1]! + 1)) {
      steps.push({ i: null, j: --j });
    } else {
      steps.push({ i: --i, j: null });
    }
  }
  for (const step of steps.reverse()) {
    if (step.j !== null && b[step.j]!.spaceBefore) pending = true;
    if (step.i !== null) {
      spaceBefore[step.i] = pending && step.i > 0;
      pending = false;
    }
  }
  return a.map((char, index) => (spaceBefore[index] ? ' ' : '') + char).join('');
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

function looksLikeCompany(name: string | null): boolean {
  if (!name) return false;
  const upper = name.toUpperCase();
  return LEGAL_ENTITY_RE.test(upper) || BUSINESS_WORD_RE.test(upper);
}
