/**
 * Request schemas and answer types of the detail routes: one receipt with its items and merchant, one
 * merchant's summary, one item with its receipt, and the user's merchants for the edit forms. Each
 * answers a few kilobytes from the user's report index, so a detail screen never downloads the whole
 * report data (getAppData). No Node APIs here; the web app imports these for its calls.
 */
import * as z from 'zod';
import { idSchema, receiptIdSchema } from './ids';
import { itemIdSchema } from './edits';
import type { ReportItem, ReportMerchant, ReportReceipt } from '../entities';

/** GET /api/receiptDetail?userId=&receiptId= */
export const receiptDetailQuery = z.object({ userId: idSchema('userId'), receiptId: receiptIdSchema() });
export type ReceiptDetailQuery = z.output<typeof receiptDetailQuery>;

/** GET /api/merchantDetail?userId=&merchantId= */
export const merchantDetailQuery = z.object({
  userId: idSchema('userId'),
  merchantId: idSchema('merchantId'),
});
export type MerchantDetailQuery = z.output<typeof merchantDetailQuery>;

/** GET /api/itemDetail?userId=&itemId= */
export const itemDetailQuery = z.object({ userId: idSchema('userId'), itemId: itemIdSchema });
export type ItemDetailQuery = z.output<typeof itemDetailQuery>;

/** A merchant as the merchant summary shows it, with what the user spent there. */
export interface MerchantSummaryAnswer {
  merchant_id: string;
  /** The merchant row; null when it is gone while receipts still name it. */
  merchant: ReportMerchant | null;
  /** The user's receipts from this merchant. */
  visits: number;
  /** Their totals per currency ('' for amounts without one), never added across currencies. */
  totals_by_currency: Record<string, number>;
}

/** GET /api/merchantDetail's answer. */
export interface MerchantDetailAnswer extends MerchantSummaryAnswer {
  /** The user's data version it was read from. */
  version: string;
  /**
   * Set when the merchant asked for was merged into another: the id asked for. The answer is then
   * the merchant it was merged into (`merchant_id`), which a link to the old one should open.
   */
  merged_from?: string;
}

/** GET /api/receiptDetail's answer: what the receipt screen shows. */
export interface ReceiptDetailAnswer {
  version: string;
  receipt: ReportReceipt;
  /** The receipt's items, in the order they were read. */
  items: ReportItem[];
  merchant: MerchantSummaryAnswer;
  /** The receipt this one may be a second scan of (`receipt.possible_duplicate_of`), when it still exists. */
  duplicate_of: ReportReceipt | null;
}

/** GET /api/itemDetail's answer: one item, its receipt and its brand's owning corporation. */
export interface ItemDetailAnswer {
  version: string;
  item: ReportItem;
  receipt: ReportReceipt;
  owning_corporation: string | null;
}

/** One of the user's merchants, as the edit forms list them (move a receipt, merge two merchants). */
export interface MerchantOption {
  merchant_id: string;
  name: string;
  city: string | null;
  /** The version of the merchant row an edit must carry. */
  etag: string | null;
}
/** GET /api/listMerchants?userId=: the user's merchants by name. */
export type ListMerchantsAnswer = MerchantOption[];
