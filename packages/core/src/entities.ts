/**
 * The entities of the product (spec §3), with the spec's field names. Amounts are numbers; dates are
 * `YYYY-MM-DD`, times `HH:MM:SS`; unknown values are null rather than guessed.
 */

export interface User {
  user_id: string;
  user_email: string;
  user_name: string;
}

export interface Receipt {
  receipt_id: string;
  /** e.g. 'receipt' or 'invoice' */
  doc_type: string | null;
  /** The category, e.g. 'retail', 'grocery', 'restaurant' */
  receipt_type: string | null;
  /** ISO 3166-1 alpha-2 where known, e.g. 'BE' */
  country_region: string | null;
  merchant_id: string;
  merchant_name: string;
  total_amount: number | null;
  /** ISO 4217, e.g. 'EUR' */
  currency_code: string | null;
  total_tax: number | null;
  /** Day only, `YYYY-MM-DD` */
  transaction_date: string | null;
  /** `HH:MM:SS` */
  transaction_time: string | null;
  user_id: string;
  /** Where the image is stored; its last path segment is the blobName / fileName. */
  document_url: string;
  /** True when the line totals (plus tax where the receipt adds it) match the total within 0.01. */
  total_checks_out: boolean;
}

/** One value that analysing a receipt again changed (fields a person set are kept, never changed). */
export interface ReanalysisChange {
  field: string;
  before: string | number | null;
  after: string | number | null;
}

/** A receipt as the reports show it (getAppData.reportReceipts), with its review and edit state. */
export interface ReportReceipt extends Receipt {
  /** The version of the receipt row an edit must carry (a stale one is refused with 409). */
  etag?: string;
  /** Whether the analysis asked for a person to check it, until reviewed or edited. */
  needs_review?: boolean;
  /** Why (see REVIEW_REASON_TEXT in review.ts). */
  review_reasons?: string[];
  /** The fields a person set: their values are kept when the receipt is analysed again. */
  edited?: string[];
  /** What the last "Analyse again" changed. */
  reanalysis_changes?: ReanalysisChange[];
  /** When the receipt was analysed (ISO), to list the review queue newest first. */
  analyzed_at?: string;
  /**
   * Another of the user's receipts from the same merchant, date and total (and time, where both have
   * one): this one may be the same receipt scanned twice. Null once the person kept both.
   */
  possible_duplicate_of?: string | null;
  /** The merchant's name came from the person's corrections (a merchant they renamed or merged). */
  merchant_from_corrections?: boolean;
}

export interface Merchant {
  merchant_id: string;
  name: string;
  phone_number: string | null;
  postal_code: string | null;
  city: string | null;
  street_address: string | null;
  user_id: string;
  /** The group that owns the store chain, where known. */
  owning_corporation?: string | null;
  /** A string holding a numeric array (spec §3); unused for now. */
  vectors?: string | null;
}

/** A merchant as the reports show it (getAppData.reportMerchants). */
export interface ReportMerchant extends Merchant {
  merchant_region: string | null;
  /** The sum of the merchant's receipts in `merchant_currency_code` (never across currencies). */
  merchant_total_amount: number;
  /** The currency most of the merchant's receipts are in. */
  merchant_currency_code?: string | null;
  /** The merchant's receipt totals per currency. */
  merchant_totals_by_currency?: Record<string, number>;
  merchant_first_visit: string | null;
  merchant_last_visit: string | null;
  /** The version of the merchant row an edit must carry. */
  etag?: string;
}

export interface Item {
  item_id: string;
  receipt_id: string;
  description: string;
  unit_price: number | null;
  quantity: number | null;
  total_price: number | null;
  currency_code: string | null;
  user_id: string;
  brand: string | null;
  /** The brand was read weakly: a person should check it. */
  brand_unsure?: boolean;
  /** The brand or description came from the person's corrections of the same item before. */
  from_corrections?: boolean;
  product_type?: string | null;
  product_identifier?: string | null;
  vectors?: string | null;
}

/** An item as the reports show it (getAppData.reportProductItems). */
export interface ReportItem extends Item {
  merchant_name: string;
  receipt_transaction_date: string | null;
}

export interface Tax {
  receipt_id: string;
  description: string;
  rate: number | null;
  amount: number | null;
  currency_code: string | null;
  user_id: string;
}

export interface Brand {
  name: string;
  owning_corporation: string | null;
  /** Number of items of this brand the user bought. */
  purchases: number;
  /** Sum of those items' total_price (in the user's main currency; see `totals_by_currency`). */
  total: number;
  /** Totals kept apart per currency, so different currencies are never added together. */
  totals_by_currency?: Record<string, number>;
  vectors?: string | null;
}

export interface Corporation {
  name: string;
  vectors?: string | null;
}

/** Queue entry status: 'false' when queued (spec §3), then 'Analyzing'; 'Failed' after the last retry. */
export type QueueStatus = 'false' | 'Analyzing' | 'Failed';

/** A pending scan as `listQueue` answers it. */
export interface QueueEntry {
  /** Timestamp plus '-receipt.jpg' (or the picked file's extension). */
  fileName: string;
  /** A small thumbnail data URL, or a URL of the image; never the full image on every poll. */
  image: string;
  status: QueueStatus;
  /** Why the last attempt failed, in words for the user (only when status is 'Failed'). */
  reason?: string | null;
  /** Attempts made so far. */
  attempts?: number;
  /** ISO timestamp of the upload. */
  uploaded_at?: string;
  /** ISO timestamp of the last change of status (a scan that has not moved for long is stale). */
  updated_at?: string;
  /** Type of the stored upload, e.g. image/jpeg or application/pdf. */
  content_type?: string;
}

/** Everything the reports need, for one user (getAppData). */
export interface AppData {
  /** Changes whenever the user's data changes. */
  version: string;
  reportMerchants: ReportMerchant[];
  corporations: Corporation[];
  brands: Brand[];
  reportReceipts: ReportReceipt[];
  reportProductItems: ReportItem[];
}

/** Names of the tables (spec §3 plus the scan queue and device tokens). */
export const TABLES = {
  users: 'Users',
  receipts: 'Receipts',
  merchants: 'Merchants',
  items: 'Items',
  taxes: 'Taxes',
  brands: 'Brands',
  corporations: 'Corporations',
  scanQueue: 'ScanQueue',
  /** Per-user report totals kept incrementally: the aggregate rows the reports read (reports/totals-layout.ts). */
  totals: 'Totals',
  /** The report totals' bookkeeping: each receipt's last applied contribution, and the build markers. */
  totalsApplied: 'TotalsApplied',
} as const;

export type TableName = (typeof TABLES)[keyof typeof TABLES];

/** The tables the set-up routine creates. */
export const REQUIRED_TABLES: readonly TableName[] = Object.values(TABLES);
