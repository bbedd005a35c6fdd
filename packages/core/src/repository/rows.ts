import { AccountDeletedError } from '../errors';
import type {
  Item,
  Merchant,
  QueueEntry,
  QueueStatus,
  ReanalysisChange,
  Receipt,
  Tax,
  User,
} from '../entities';
import { REVIEW_REASONS, type ReviewReason } from '../review';
import type { EntityValue, StoredEntity, TableEntity } from '../table-store';

/**
 * Conversions between entities and table rows. Rows keep the spec's field names as properties; the
 * keys are described in ./README.md. Reading is forgiving (a missing property reads as null), so
 * rows written by an older version still load.
 */

type Row = Record<string, EntityValue | undefined>;

export const str = (row: Row, name: string): string | null => {
  const value = row[name];
  return typeof value === 'string' ? value : value === null || value === undefined ? null : String(value);
};
export const num = (row: Row, name: string): number | null => {
  const value = row[name];
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return null;
};
const bool = (row: Row, name: string): boolean => row[name] === true || row[name] === 'true';

/** A list stored as JSON text (table stores keep scalar properties only); unreadable reads as []. */
export function jsonList(row: Row, name: string): unknown[] {
  const raw = str(row, name);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** A list of strings stored as JSON text; other values are left out. */
export const jsonStrings = (row: Row, name: string): string[] =>
  jsonList(row, name).filter((v): v is string => typeof v === 'string');

/** A user's row: the profile, the push tokens and the version of the user's report data. */
export interface UserRow extends User {
  fcm_tokens: string[];
  data_version: string | null;
}

export function rowToUser(row: StoredEntity): UserRow {
  let tokens: string[] = [];
  const raw = str(row, 'fcm_tokens');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) tokens = parsed.filter((t): t is string => typeof t === 'string');
    } catch {
      // A damaged token list is dropped: the devices register again on their next sign-in.
      tokens = [];
    }
  }
  return {
    user_id: row.partitionKey,
    user_email: str(row, 'user_email') ?? '',
    user_name: str(row, 'user_name') ?? '',
    fcm_tokens: tokens,
    data_version: str(row, 'data_version'),
  };
}

/**
 * The property of a user's row that marks the account as being deleted (an ISO time): every write of
 * the user reads that row and writes it by etag, so once deleteAccount has set it none goes through.
 */
export const ACCOUNT_DELETED_AT = 'account_deleted_at';

/** @throws AccountDeletedError when the user's row carries the deletion marker */
export function refuseDeletedAccount(userRow: Row | null | undefined): void {
  if (userRow && str(userRow, ACCOUNT_DELETED_AT)) throw new AccountDeletedError();
}

/**
 * The property of a user's row that lists the pending scans reserved by uploads (see
 * use-cases/quotas.ts): JSON, `{ f, at }` per upload whose queue entry may not be written yet.
 */
export const PENDING_UPLOADS = 'pending_uploads';

/** An upload's claim on one of the user's pending scans, made before its queue entry exists. */
export interface Reservation {
  /** The file name. */
  f: string;
  /** When it was made (ms since the epoch). */
  at: number;
  /** An upload's image: its SHA-256 (hex), so what the upload leaves if it stops can be found. */
  h?: string;
  /** An upload's bytes, counted in the stored bytes when the reservation was made. */
  b?: number;
}

/** The reservations on a user's row; unreadable ones are left out. */
export const pendingUploads = (userRow: Row): Reservation[] =>
  jsonList(userRow, PENDING_UPLOADS).filter(
    (r): r is Reservation =>
      typeof r === 'object' &&
      r !== null &&
      typeof (r as Reservation).f === 'string' &&
      typeof (r as Reservation).at === 'number',
  );

const isChange = (value: unknown): value is ReanalysisChange =>
  typeof value === 'object' && value !== null && typeof (value as ReanalysisChange).field === 'string';

/** A receipt row: PK user_id, RK receipt_id. */
export interface ReceiptRow extends Receipt {
  file_name: string;
  analyzed_at: string;
  /**
   * How many item rows the receipt has, when known: a listing of the user's items that finds
   * another number is behind the writes (see consistentItems).
   */
  item_count?: number | null;
  /** Size of the stored image, counted in the user's storage quota. */
  image_bytes?: number | null;
  /** SHA-256 (hex) of the stored image's bytes: the key of its row in the user's image index. */
  image_sha256?: string | null;
  /** Whether a person should check what was read (set by the analysis, cleared by a review or an edit). */
  needs_review?: boolean;
  review_reasons?: ReviewReason[];
  /** The fields a person set (see EDITABLE_RECEIPT_FIELDS, plus 'items' and 'merchant'). */
  edited?: string[];
  /** What the last analysis run again changed, for the Receipt page. */
  reanalysis_changes?: ReanalysisChange[];
  /** Another receipt of the user from the same visit (merchant, date, total, time): maybe the same receipt twice. */
  possible_duplicate_of?: string | null;
  /** Receipts the person said this one is not a duplicate of ("Keep both"). */
  not_duplicate_of?: string[];
  /** The merchant's name came from the person's corrections (see corrections.ts). */
  merchant_from_corrections?: boolean;
  /** The row's etag as read (never written): an edit carries it to prove it saw the current row. */
  etag?: string;
}

export function receiptToRow(receipt: ReceiptRow): TableEntity {
  const {
    etag: _etag,
    review_reasons,
    edited,
    reanalysis_changes,
    needs_review,
    possible_duplicate_of,
    not_duplicate_of,
    ...rest
  } = receipt;
  return {
    partitionKey: receipt.user_id,
    rowKey: receipt.receipt_id,
    ...rest,
    needs_review: needs_review ?? false,
    review_reasons: JSON.stringify(review_reasons ?? []),
    edited: JSON.stringify(edited ?? []),
    reanalysis_changes: JSON.stringify(reanalysis_changes ?? []),
    possible_duplicate_of: possible_duplicate_of ?? null,
    not_duplicate_of: JSON.stringify(not_duplicate_of ?? []),
  };
}

export function rowToReceipt(row: StoredEntity): ReceiptRow {
  return {
    receipt_id: row.rowKey,
    doc_type: str(row, 'doc_type'),
    receipt_type: str(row, 'receipt_type'),
    country_region: str(row, 'country_region'),
    merchant_id: str(row, 'merchant_id') ?? '',
    merchant_name: str(row, 'merchant_name') ?? '',
    total_amount: num(row, 'total_amount'),
    currency_code: str(row, 'currency_code'),
    total_tax: num(row, 'total_tax'),
    transaction_date: str(row, 'transaction_date'),
    transaction_time: str(row, 'transaction_time'),
    user_id: row.partitionKey,
    document_url: str(row, 'document_url') ?? '',
    total_checks_out: bool(row, 'total_checks_out'),
    file_name: str(row, 'file_name') ?? '',
    analyzed_at: str(row, 'analyzed_at') ?? '',
    item_count: num(row, 'item_count'),
    image_bytes: num(row, 'image_bytes'),
    image_sha256: str(row, 'image_sha256'),
    needs_review: bool(row, 'needs_review'),
    review_reasons: jsonList(row, 'review_reasons').filter((r): r is ReviewReason =>
      REVIEW_REASONS.includes(r as ReviewReason),
    ),
    edited: jsonStrings(row, 'edited'),
    possible_duplicate_of: str(row, 'possible_duplicate_of'),
    not_duplicate_of: jsonStrings(row, 'not_duplicate_of'),
    reanalysis_changes: jsonList(row, 'reanalysis_changes').filter(isChange),
    ...(row.merchant_from_corrections === true ? { merchant_from_corrections: true } : {}),
    etag: row.etag,
  };
}

/** Merchant row: PK user_id, RK merchant_id; `name_key` is the normalised name used to re-use it. */
export interface MerchantRow extends Merchant {
  name_key: string;
  /** Whether a person renamed the merchant or edited its address: analysing again keeps it then. */
  edited?: boolean;
  /**
   * Ids of the merchants merged into this one (and those merged into them): an old link to one of
   * them is answered with this merchant. Stored as JSON text; absent when none.
   */
  merged_ids?: string[];
  /** The row's etag as read (never written). */
  etag?: string;
}

export function merchantToRow(merchant: MerchantRow): TableEntity {
  const { etag: _etag, merged_ids, ...rest } = merchant;
  return {
    partitionKey: merchant.user_id,
    rowKey: merchant.merchant_id,
    ...rest,
    ...(merged_ids && merged_ids.length > 0 ? { merged_ids: JSON.stringify(merged_ids) } : {}),
  };
}

export function rowToMerchant(row: StoredEntity): MerchantRow {
  return {
    merchant_id: row.rowKey,
    name: str(row, 'name') ?? '',
    phone_number: str(row, 'phone_number'),
    postal_code: str(row, 'postal_code'),
    city: str(row, 'city'),
    street_address: str(row, 'street_address'),
    user_id: row.partitionKey,
    owning_corporation: str(row, 'owning_corporation'),
    vectors: str(row, 'vectors'),
    name_key: str(row, 'name_key') ?? '',
    edited: bool(row, 'edited'),
    ...(row.merged_ids ? { merged_ids: jsonStrings(row, 'merged_ids') } : {}),
    etag: row.etag,
  };
}

/** Item row: PK receipt_id, RK item_id. `owning_corporation` is the brand's owner when known. */
export interface ItemRow extends Item {
  owning_corporation: string | null;
}

export function itemToRow(item: ItemRow): TableEntity {
  return { partitionKey: item.receipt_id, rowKey: item.item_id, ...item };
}

export function rowToItem(row: StoredEntity): ItemRow {
  return {
    item_id: row.rowKey,
    receipt_id: row.partitionKey,
    description: str(row, 'description') ?? '',
    unit_price: num(row, 'unit_price'),
    quantity: num(row, 'quantity'),
    total_price: num(row, 'total_price'),
    currency_code: str(row, 'currency_code'),
    user_id: str(row, 'user_id') ?? '',
    brand: str(row, 'brand'),
    ...(row.brand_unsure === true ? { brand_unsure: true } : {}),
    ...(row.from_corrections === true ? { from_corrections: true } : {}),
    product_type: str(row, 'product_type'),
    product_identifier: str(row, 'product_identifier'),
    vectors: str(row, 'vectors'),
    owning_corporation: str(row, 'owning_corporation'),
  };
}

/** Tax row: PK receipt_id, RK line number. */
export function taxToRow(tax: Tax, rowKey: string): TableEntity {
  return { partitionKey: tax.receipt_id, rowKey, ...tax };
}

export function rowToTax(row: StoredEntity): Tax {
  return {
    receipt_id: row.partitionKey,
    description: str(row, 'description') ?? '',
    rate: num(row, 'rate'),
    amount: num(row, 'amount'),
    currency_code: str(row, 'currency_code'),
    user_id: str(row, 'user_id') ?? '',
  };
}

/** A scan queue row: PK user_id, RK fileName. */
export interface QueueRow {
  userId: string;
  fileName: string;
  status: QueueStatus;
  reason: string | null;
  attempts: number;
  uploaded_at: string;
  /** The person's own day of the upload, as their device gave it (see `uploadDayOf`); null when not sent. */
  upload_day?: string | null;
  updated_at: string;
  content_type: string;
  /** Size of the uploaded image, counted in the user's storage quota. */
  image_bytes?: number | null;
  /** SHA-256 (hex) of the uploaded image's bytes (see ImageHashRow); null for an analysis run again. */
  image_sha256?: string | null;
}

export function queueToRow(entry: QueueRow): TableEntity {
  return {
    partitionKey: entry.userId,
    rowKey: entry.fileName,
    status: entry.status,
    reason: entry.reason,
    attempts: entry.attempts,
    uploaded_at: entry.uploaded_at,
    upload_day: entry.upload_day ?? null,
    updated_at: entry.updated_at,
    content_type: entry.content_type,
    image_bytes: entry.image_bytes ?? null,
    image_sha256: entry.image_sha256 ?? null,
  };
}

export function rowToQueue(row: StoredEntity): QueueRow {
  const status = str(row, 'status');
  return {
    userId: row.partitionKey,
    fileName: row.rowKey,
    status: status === 'Analyzing' || status === 'Failed' ? status : 'false',
    reason: str(row, 'reason'),
    attempts: num(row, 'attempts') ?? 0,
    uploaded_at: str(row, 'uploaded_at') ?? '',
    upload_day: str(row, 'upload_day'),
    updated_at: str(row, 'updated_at') ?? '',
    content_type: str(row, 'content_type') ?? 'image/jpeg',
    image_bytes: num(row, 'image_bytes'),
    image_sha256: str(row, 'image_sha256'),
  };
}

/** The entry as listQueue answers it. */
export function queueToEntry(row: QueueRow, image: string): QueueEntry {
  return {
    fileName: row.fileName,
    image,
    status: row.status,
    reason: row.reason,
    attempts: row.attempts,
    uploaded_at: row.uploaded_at,
    updated_at: row.updated_at,
    content_type: row.content_type,
  };
}
