/**
 * How ids and storage keys are derived. Everything here is deterministic, so that analysing the same
 * upload twice writes the same rows (idempotent scans), and every key of a user's data starts with
 * that user's id, so one user's rows are read by key range, never by scanning other users' rows.
 */

/**
 * Separates the user id from the rest of a receipt id. User ids never contain it (they are letters,
 * digits, '-' and '_'), so the prefix `<userId>~` selects exactly one user's receipts.
 */
export const KEY_SEPARATOR = '~';

/** The merchant name used when the analyzer could not read one. */
export const UNKNOWN_MERCHANT = 'Unknown Merchant';

/** Partition of the shared brand dictionary (Brands table). */
export const BRAND_PARTITION = 'brand';
/** Partition of the shared corporation dictionary (Corporations table). */
export const CORPORATION_PARTITION = 'corporation';

/** The receipt id of an upload: `<userId>~<fileName>`. */
export function receiptIdFor(userId: string, fileName: string): string {
  return `${userId}${KEY_SEPARATOR}${fileName}`;
}

/** Splits a receipt id into its owner and the upload's file name, or null when it is not one. */
export function parseReceiptId(receiptId: string): { userId: string; fileName: string } | null {
  const at = receiptId.indexOf(KEY_SEPARATOR);
  if (at <= 0 || at === receiptId.length - 1) return null;
  const fileName = receiptId.slice(at + 1);
  if (fileName.includes(KEY_SEPARATOR)) return null;
  return { userId: receiptId.slice(0, at), fileName };
}

/** Key prefix shared by every receipt (and so every Items and Taxes partition) of one user. */
export function userKeyPrefix(userId: string): string {
  return `${userId}${KEY_SEPARATOR}`;
}

/** The id of the n-th (0-based) line item of a receipt; sorts in receipt order. */
export function itemIdFor(receiptId: string, index: number): string {
  return `${receiptId}${KEY_SEPARATOR}${String(index + 1).padStart(3, '0')}`;
}

/** The receipt id an item id belongs to, or null. */
export function receiptIdOfItem(itemId: string): string | null {
  const at = itemId.lastIndexOf(KEY_SEPARATOR);
  if (at <= 0) return null;
  const receiptId = itemId.slice(0, at);
  return parseReceiptId(receiptId) ? receiptId : null;
}

/** Row key of the n-th (0-based) tax line of a receipt. */
export function taxRowKey(index: number): string {
  return String(index + 1).padStart(3, '0');
}

/**
 * A name reduced for comparison: accents dropped, lower case, punctuation to spaces, spaces collapsed.
 * 'Café  Nero, Ltd.' and 'CAFE NERO LTD' compare equal.
 */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A postal code reduced for comparison ('ls1 4dt' equals 'LS1 4DT'), or null. */
export function normalisePostalCode(postalCode: string | null | undefined): string | null {
  const cleaned = (postalCode ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return cleaned.length > 0 ? cleaned : null;
}

/** 32-bit FNV-1a, as 8 hex digits: short, stable ids without a crypto dependency. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The merchant id for a merchant first seen with this name and postal code: a readable slug plus a
 * hash of the full identity, e.g. `freshmart-grocers-3f2a91c0`.
 */
export function merchantIdFor(name: string, postalCode: string | null): string {
  const key = normaliseName(name);
  const slug = key.replace(/ /g, '-').slice(0, 40).replace(/-+$/, '') || 'merchant';
  return `${slug}-${shortHash(`${key}|${normalisePostalCode(postalCode) ?? ''}`)}`;
}

// Characters the table stores refuse in keys (see assertValidKey).
// eslint-disable-next-line no-control-regex
const UNSAFE_KEY_CHARS = /[/\\#?\u0000-\u001f\u007f-\u009f]/g;

/** Row key of a brand or corporation in the shared dictionaries: its normalised name, made key-safe. */
export function dictionaryKey(name: string): string {
  const key = normaliseName(name) || name.replace(UNSAFE_KEY_CHARS, '_').trim();
  return (key || '_').slice(0, 200);
}

/** Blob key of an uploaded image. */
export function imageKey(userId: string, fileName: string): string {
  return `${userId}/${fileName}`;
}

/** Blob key of the full analysis JSON of an upload. */
export const ANALYSIS_SUFFIX = '.analysis.json';
export function analysisKey(userId: string, fileName: string): string {
  return `${userId}/${fileName}${ANALYSIS_SUFFIX}`;
}

/** Blob key of a user's cached report data (outside the user's image folder, so no upload can hit it). */
export function appDataCacheKey(userId: string): string {
  return `cache/${userId}/app-data.json`;
}

/** Blob key of the first pages of a user's receipts and items tables (see reports/first-pages.ts). */
export function reportPagesCacheKey(userId: string): string {
  return `cache/${userId}/report-pages.json`;
}

/**
 * Blob key of one part of what each of a user's receipts adds to the report tables (see
 * reports/share-parts.ts); `'*'` (the default) stands for every part, as in a grant.
 */
export function reportSharesCacheKey(userId: string, part: number | '*' = '*'): string {
  return `cache/${userId}/report-shares-${part}.json`;
}

/** The receipt's document_url: its last path segment is the file name (spec §7 blobName). */
export function documentUrlFor(userId: string, fileName: string): string {
  return `blob://${userId}/${fileName}`;
}

/** The URL the web app loads a stored image from (answers a JSON data URL). */
export function imageUrlFor(userId: string, fileName: string): string {
  return `/api/getImage?userId=${encodeURIComponent(userId)}&blobName=${encodeURIComponent(fileName)}`;
}

/** SHA-256 of the bytes, in hex: how images, push tokens and visits are keyed. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Web Crypto: a global in Node 20+ and in browsers; core imports no Node module.
  // digest takes no view of a SharedArrayBuffer; such bytes are copied first.
  const own =
    bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
  const digest = await crypto.subtle.digest('SHA-256', own);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
