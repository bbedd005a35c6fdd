import type { DataState } from '../repository/user-repository';
import { buildAppData } from './app-data-build';
import { receiptsAndMerchants } from './get-app-data';
import { headOf, inReview, type ReceiptHeads } from './first-pages';
import type { AppDeps } from '../use-cases/context';
import { heldOf } from './report-cache';
import { addRow } from './stored-figures';

/**
 * The first pages of the receipts table and of the review list at `state`, made from the user's
 * receipts and merchants only (two partition queries), for a process that has no first pages it can
 * use (none stored, or a log that does not reach back to them: a bulk import). The receipts' rows
 * and figures need no item, and the items are most of the rows (ten to a receipt in a typical
 * account), so the first receipts come long before the whole report is built from all rows, which
 * the other tables still wait for (and which stores the complete first pages of that version); the
 * two share one listing of the receipts and merchants when they run together. Kept
 * by this process for that version only; never stored, as they hold no shares to patch them with.
 */
export function receiptHeadsAt(
  deps: Pick<AppDeps, 'store' | 'reportCache'>,
  userId: string,
  state: DataState,
): Promise<ReceiptHeads> {
  const held = deps.reportCache.get(userId)?.receiptHeads;
  if (held?.version === state.version) return Promise.resolve(held);
  return deps.reportCache.shared(`${userId}\n${state.version}\nreceipt heads`, async () => {
    const { receipts, merchants } = await receiptsAndMerchants(deps, userId, state.version);
    const rows = buildAppData({ version: state.version, receipts, merchants, items: [] }).reportReceipts;
    const heads: ReceiptHeads = {
      version: state.version,
      receipts: headOf('receipts', rows),
      review: headOf('receipts', rows.filter(inReview)),
    };
    for (const row of rows) {
      addRow(heads.receipts.figures, row.currency_code, row.total_amount);
      if (inReview(row)) addRow(heads.review.figures, row.currency_code, row.total_amount);
    }
    heldOf(deps.reportCache, userId).receiptHeads = heads;
    return heads;
  });
}
