import type { ReportItem, ReportReceipt } from '../entities';
import type { ReportRows } from '../contract/reports';
import {
  applyShare,
  FIRST_ROWS,
  orderKey,
  ordersOf,
  shareOf,
  type FirstPages,
  type PagedTable,
  type ReceiptShares,
  type StoredFigures,
  type TableHead,
} from './first-pages';
import { comparatorOf, ID_OF } from './order';

/** The receipts written since the first pages were made, as the report shows them now. */
export interface PagesChange {
  /** The data version the patched pages are of. */
  version: string;
  /** Receipts written, edited, moved or deleted since, by id. */
  receiptIds: string[];
  /** Those receipts' report rows now (a deleted one has none), and their items'. */
  receipts: ReportReceipt[];
  items: ReportItem[];
  /** The receipts' `possible_duplicate_of` as stored (shown only while that receipt exists). */
  duplicateOf: ReadonlyMap<string, string | null>;
  /** The merchants named since, as they are now (null: gone). */
  merchants: ReadonlyMap<string, { name: string } | null>;
}

/**
 * The first pages of a newer data version, from the older ones and the receipts written in between,
 * or null when they cannot be patched (a merchant that still has receipts was renamed or removed:
 * the rows of its other receipts change too). Work in proportion to the changed receipts and the
 * rows kept, never to the user's receipts: each order loses the changed receipts' rows (what stays is
 * still exactly its first rows) and takes their new rows that sort before its last kept row (or
 * all of them when it keeps the whole table).
 */
export function patchFirstPages(
  pages: FirstPages,
  shares: ReceiptShares,
  change: PagesChange,
): { pages: FirstPages; shares: ReceiptShares } | null {
  const changed = new Set(change.receiptIds);
  const next: Record<string, ReceiptShares['shares'][string]> = { ...shares.shares };
  const merchantNames = { ...shares.merchantNames };
  const patched: FirstPages = {
    version: change.version,
    receipts: copyHead(pages.receipts),
    items: copyHead(pages.items),
  };
  const wasComplete = {
    receipts: completeOrders(pages.receipts),
    items: completeOrders(pages.items),
  };
  for (const id of changed) {
    const old = next[id];
    if (!old) continue;
    applyShare(patched, old, -1);
    delete next[id];
  }
  for (const receipt of change.receipts) {
    const share = shareOf(
      receipt,
      change.items.filter((i) => i.receipt_id === receipt.receipt_id),
    );
    next[receipt.receipt_id] = share;
    applyShare(patched, share, 1);
    merchantNames[receipt.merchant_id] = receipt.merchant_name;
  }
  // A merchant renamed or gone changes the rows of its receipts that did not change: not patched.
  const stillUsed = new Set(Object.values(next).map((s) => s.merchant));
  for (const [id, merchant] of change.merchants) {
    if (!stillUsed.has(id)) {
      delete merchantNames[id];
      continue;
    }
    if (!merchant || merchantNames[id] !== merchant.name) return null;
  }
  const receipts = change.receipts.map((r) => ({
    ...r,
    possible_duplicate_of: shownDuplicate(change.duplicateOf.get(r.receipt_id) ?? null, next),
  }));
  for (const [id, row] of Object.entries(patched.receipts.rows)) {
    const shown = row.possible_duplicate_of;
    if (shown && !next[shown]) patched.receipts.rows[id] = { ...row, possible_duplicate_of: null };
  }
  patchHead(patched.receipts, 'receipts', changed, receipts, wasComplete.receipts);
  patchHead(patched.items, 'items', changed, change.items, wasComplete.items);
  return {
    pages: patched,
    shares: { version: change.version, shares: next, merchantNames },
  };
}

const shownDuplicate = (of: string | null, existing: Record<string, unknown>) =>
  of && existing[of] ? of : null;

function copyFigures(figures: StoredFigures): StoredFigures {
  return {
    count: figures.count,
    quantity: [...figures.quantity],
    money: Object.fromEntries(
      Object.entries(figures.money).map(([c, m]) => [c, [...m] as [number, number, number]]),
    ),
  };
}

function copyHead<T extends PagedTable>(head: TableHead<T>): TableHead<T> {
  return {
    figures: copyFigures(head.figures),
    orders: Object.fromEntries(Object.entries(head.orders).map(([key, ids]) => [key, [...ids]])),
    rows: { ...head.rows },
  };
}

/** The orders that keep every row of the table. */
function completeOrders(head: TableHead<PagedTable>): Set<string> {
  return new Set(
    Object.entries(head.orders)
      .filter(([, ids]) => ids.length === head.figures.count)
      .map(([key]) => key),
  );
}

function receiptIdOf(table: PagedTable, row: ReportRows[PagedTable]): string {
  return table === 'receipts' ? (row as ReportReceipt).receipt_id : (row as ReportItem).receipt_id;
}

function patchHead<T extends PagedTable>(
  head: TableHead<T>,
  table: T,
  changed: Set<string>,
  added: ReportRows[T][],
  complete: Set<string>,
): void {
  const idOf = ID_OF[table] as (row: ReportRows[T]) => string;
  for (const row of added) head.rows[idOf(row)] = row;
  const rowOf = (id: string) => head.rows[id]!;
  for (const order of ordersOf(table)) {
    const key = orderKey(order.sort, order.dir);
    const compare = comparatorOf(table, order);
    const ids = (head.orders[key] ?? []).filter((id) => !changed.has(receiptIdOf(table, rowOf(id))));
    const whole = complete.has(key);
    for (const row of added) {
      const last = ids.at(-1);
      if (!whole && (last === undefined || compare(row, rowOf(last)) >= 0)) continue;
      let lo = 0;
      let hi = ids.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(rowOf(ids[mid]!), row) <= 0) lo = mid + 1;
        else hi = mid;
      }
      ids.splice(lo, 0, idOf(row));
    }
    head.orders[key] = ids.slice(0, FIRST_ROWS);
  }
  // Only the rows some order still names are kept.
  const kept = new Set(Object.values(head.orders).flat());
  for (const id of Object.keys(head.rows)) if (!kept.has(id)) delete head.rows[id];
}
