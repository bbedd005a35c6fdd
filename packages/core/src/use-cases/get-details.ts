import type {
  ItemDetailAnswer,
  ItemDetailQuery,
  ListMerchantsAnswer,
  MerchantDetailAnswer,
  MerchantDetailQuery,
  MerchantSummaryAnswer,
  ReceiptDetailAnswer,
  ReceiptDetailQuery,
} from '../contract/details';
import { NotFoundError } from '../errors';
import type { Identity } from '../ports';
import type { MerchantReportRow } from '../contract/reports';
import { repositories } from '../repository/repositories';
import { itemInIndex, receiptInIndex, type ReportIndex } from '../reports/index-build';
import { queryReportIndex } from '../reports/query';
import type { AppDeps } from './context';
import { ownReportIndex } from '../reports/report-state';

type DetailDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache'>;

/*
 * The detail screens' lookups. Each reads the user's report index of their current data version
 * (one point read when this process holds it, see reportIndexOf) and answers one receipt, merchant or
 * item from it: a few kilobytes however many receipts the user has. The index holds only the
 * caller's own rows, so another user's id is simply not found.
 */

/**
 * One receipt with its items, its merchant (with the user's visits and totals there) and the receipt
 * it may be a second scan of (GET /api/receiptDetail).
 * @throws ForbiddenError when `userId` is not the caller's; NotFoundError for an unknown receipt
 */
export async function getReceiptDetail(
  deps: DetailDeps,
  identity: Identity,
  input: ReceiptDetailQuery,
): Promise<ReceiptDetailAnswer> {
  const index = await ownReportIndex(deps, identity, input.userId);
  const found = receiptInIndex(index, input.receiptId);
  if (!found) {
    throw new NotFoundError(
      'There is no such receipt among yours; it may have been deleted. Open your receipts from Reports.',
      { code: 'ReceiptNotFound' },
    );
  }
  const { receipt, items } = found;
  const other = receipt.possible_duplicate_of
    ? receiptInIndex(index, receipt.possible_duplicate_of)
    : undefined;
  return {
    version: index.version,
    receipt,
    items,
    merchant: merchantSummary(index, receipt.merchant_id),
    duplicate_of: other?.receipt ?? null,
  };
}

/**
 * One merchant's row with the user's visits and totals there (GET /api/merchantDetail). A merchant
 * whose row is gone while receipts still name it is answered with `merchant: null`; one merged into
 * another is answered with that other, `merged_from` naming the id asked for.
 * @throws ForbiddenError when `userId` is not the caller's; NotFoundError when neither the merchant
 *   nor any receipt of it is the user's
 */
export async function getMerchantDetail(
  deps: DetailDeps,
  identity: Identity,
  input: MerchantDetailQuery,
): Promise<MerchantDetailAnswer> {
  const index = await ownReportIndex(deps, identity, input.userId);
  const summary = merchantSummary(index, input.merchantId);
  if (!summary.merchant && summary.visits === 0) {
    // A merchant merged into another is gone; the one it went into keeps its id.
    const into = await mergedInto(deps, identity.uid, input.merchantId);
    const merged = into ? merchantSummary(index, into) : null;
    if (merged && (merged.merchant || merged.visits > 0)) {
      return { version: index.version, ...merged, merged_from: input.merchantId };
    }
    throw new NotFoundError(
      'There is no such merchant among yours; its receipts may have been deleted or moved. Open your merchants from Reports.',
      { code: 'MerchantNotFound' },
    );
  }
  return { version: index.version, ...summary };
}

/**
 * One item with its receipt and its brand's owning corporation (GET /api/itemDetail).
 * @throws ForbiddenError when `userId` is not the caller's; NotFoundError for an unknown item
 */
export async function getItemDetail(
  deps: DetailDeps,
  identity: Identity,
  input: ItemDetailQuery,
): Promise<ItemDetailAnswer> {
  const index = await ownReportIndex(deps, identity, input.userId);
  const found = itemInIndex(index, input.itemId);
  if (!found) {
    throw new NotFoundError(
      'There is no such item among yours; it may have been deleted or its receipt corrected. Open the receipt again.',
      { code: 'ItemNotFound' },
    );
  }
  return {
    version: index.version,
    item: found.item,
    receipt: found.receipt,
    owning_corporation: found.corporation,
  };
}

/**
 * The user's merchants by name with their etags, for the forms that move a receipt to another
 * merchant or merge two merchants (GET /api/listMerchants).
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function listMerchants(
  deps: DetailDeps,
  identity: Identity,
  input: { userId: string },
): Promise<ListMerchantsAnswer> {
  const index = await ownReportIndex(deps, identity, input.userId);
  return [...index.merchantById.values()]
    .map((m) => ({ merchant_id: m.merchant_id, name: m.name, city: m.city, etag: m.etag ?? null }))
    .sort(
      (a, b) =>
        a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
        (a.city ?? '').localeCompare(b.city ?? '') ||
        a.merchant_id.localeCompare(b.merchant_id),
    );
}

/**
 * The merchant that `merchantId` was merged into, or null. Read only when an id is not found: one
 * listing of the user's own merchants (their partition), never of anyone else's.
 */
async function mergedInto(deps: DetailDeps, userId: string, merchantId: string): Promise<string | null> {
  const merchants = await repositories(deps.store).merchants.listMerchants(userId);
  return merchants.find((m) => m.merged_ids?.includes(merchantId))?.merchant_id ?? null;
}

/** The merchant's row and its line of the merchants table over all of the user's receipts. */
function merchantSummary(index: ReportIndex, merchantId: string): MerchantSummaryAnswer {
  const page = queryReportIndex(index, { table: 'merchants', merchant: merchantId, pageSize: 1 });
  const row = page.rows[0] as MerchantReportRow | undefined;
  return {
    merchant_id: merchantId,
    merchant: index.merchantById.get(merchantId) ?? null,
    visits: row?.visits ?? 0,
    totals_by_currency: row?.totals_by_currency ?? {},
  };
}
