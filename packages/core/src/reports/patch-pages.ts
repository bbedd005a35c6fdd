import type { ReportItem, ReportReceipt } from '../entities';
import type { ReportRows } from '../contract/reports';
import {
  applyShare,
  FIRST_ROWS,
  inReview,
  orderKey,
  ordersOf,
  type FirstPages,
  type PagedTable,
  type TableHead,
} from './first-pages';
import { partOf, shareOf, type SharesHead, type SharesPart } from './share-parts';
import { copyFigures } from './stored-figures';
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

/** The parts of the receipts' shares a patch reads: the changed receipts', and those they may duplicate. */
export function sharePartsOf(change: PagesChange): number[] {
  const changed = new Set(change.receiptIds);
  const parts = new Set(change.receiptIds.map(partOf));
  for (const of of change.duplicateOf.values()) if (of && !changed.has(of)) parts.add(partOf(of));
  return [...parts];
}

/**
 * The first pages of a newer data version, from the older ones, the parts of the shares named by
 * {@link sharePartsOf} (as last written with them) and the receipts written in between, with those
 * parts as they are now; null when they cannot be patched (a part missing or of another version, or
 * a merchant that still has unchanged receipts was renamed or removed: the rows of those receipts
 * change too). Work in proportion to the changed receipts and the rows kept, never to the user's
 * receipts: each order loses the changed receipts' rows (what stays is still exactly its first rows)
 * and takes their new rows that sort before its last kept row (or all of them when it keeps the
 * whole table).
 */
export function patchFirstPages(
  pages: FirstPages,
  parts: ReadonlyMap<number, SharesPart>,
  change: PagesChange,
): { pages: FirstPages; parts: Map<number, SharesPart> } | null {
  const changed = new Set(change.receiptIds);
  const next = new Map<number, SharesPart>();
  for (const p of sharePartsOf(change)) {
    const part = parts.get(p);
    if (!part || part.version !== pages.shares.parts[p]) return null;
    next.set(p, { version: change.version, shares: { ...part.shares } });
  }
  const head: SharesHead = { parts: [...pages.shares.parts], merchants: { ...pages.shares.merchants } };
  // A merchant's entry, copied before it is changed (the older head stays as it was).
  const use = (merchant: string): [string, number] | undefined => {
    const was = head.merchants[merchant];
    return was && (head.merchants[merchant] = [...was]);
  };
  const patched: FirstPages = {
    version: change.version,
    receipts: copyHead(pages.receipts),
    items: copyHead(pages.items),
    review: copyHead(pages.review),
    shares: head,
  };
  const wasComplete = {
    receipts: completeOrders(pages.receipts),
    items: completeOrders(pages.items),
    review: completeOrders(pages.review),
  };
  const sharesOf = (receiptId: string) => next.get(partOf(receiptId))!.shares;
  for (const id of changed) {
    const old = sharesOf(id)[id];
    if (!old) continue;
    applyShare(patched, old, -1);
    delete sharesOf(id)[id];
    const merchant = use(old.merchant);
    if (merchant) merchant[1] -= 1;
  }
  // A merchant renamed or gone changes the rows of its receipts that did not change: not patched.
  for (const [id, merchant] of change.merchants) {
    const kept = head.merchants[id];
    if (kept && kept[1] > 0 && (!merchant || kept[0] !== merchant.name)) return null;
  }
  for (const receipt of change.receipts) {
    const share = shareOf(
      receipt,
      change.items.filter((i) => i.receipt_id === receipt.receipt_id),
    );
    sharesOf(receipt.receipt_id)[receipt.receipt_id] = share;
    applyShare(patched, share, 1);
    const merchant = (head.merchants[receipt.merchant_id] = use(receipt.merchant_id) ?? ['', 0]);
    merchant[0] = receipt.merchant_name;
    merchant[1] += 1;
  }
  for (const [id, [, receipts]] of Object.entries(head.merchants)) {
    if (receipts <= 0) delete head.merchants[id];
  }
  for (const p of next.keys()) head.parts[p] = change.version;
  const written = new Set(change.receipts.map((r) => r.receipt_id));
  // A receipt not changed exists still; a changed one exists when it was written again.
  const exists = (id: string) => (changed.has(id) ? written.has(id) : id in sharesOf(id));
  const receipts = change.receipts.map((r) => {
    const of = change.duplicateOf.get(r.receipt_id) ?? null;
    return { ...r, possible_duplicate_of: of && exists(of) ? of : null };
  });
  for (const head of [patched.receipts, patched.review]) {
    for (const [id, row] of Object.entries(head.rows)) {
      const shown = row.possible_duplicate_of;
      if (shown && changed.has(shown) && !written.has(shown)) {
        head.rows[id] = { ...row, possible_duplicate_of: null };
      }
    }
  }
  patchHead(patched.receipts, 'receipts', changed, receipts, wasComplete.receipts);
  patchHead(patched.review, 'receipts', changed, receipts.filter(inReview), wasComplete.review);
  patchHead(patched.items, 'items', changed, change.items, wasComplete.items);
  return { pages: patched, parts: next };
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
