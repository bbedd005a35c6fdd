import {
  MAX_REPORT_PAGE_SIZE,
  ROW_FILTERS,
  type ReportPage,
  type ReportRows,
  type ReportTable,
} from '../contract/reports';
import { CurrencySums, ExactSum } from './figures';
import { sharesInParts, shareOf, type Share, type SharesHead, type SharesPart } from './share-parts';
import { addRow, emptyStoredFigures, mergeFigures, type StoredFigures } from './stored-figures';
import type { ReportIndex } from './index-build';
import {
  comparatorOf,
  fingerprint,
  firstInOrder,
  ID_OF,
  offsetOf,
  orderOf,
  ORDERS,
  type PageQuery,
} from './order';
import { pageOf } from './query';

/**
 * The first rows of the receipts and items tables, unfiltered, and of the review list (the receipts
 * table filtered to `review=needed`, whose count the app's header shows on every screen), in every
 * order a user can pick, with the tables' figures: what a process that holds nothing of a user needs
 * to answer their first page
 * (and any page within the first {@link FIRST_ROWS} rows) without reading and parsing the whole
 * report. Stored beside the report data as a small blob of its own, tagged with the data version,
 * and brought up to date after a write from the rows that changed (see patch-pages.ts), with the
 * receipts' shares (share-parts.ts) to take an old receipt's figures out.
 */
export interface FirstPages {
  version: string;
  receipts: TableHead<'receipts'>;
  items: TableHead<'items'>;
  /** The receipts that need review (`review=needed`). */
  review: TableHead<'receipts'>;
  /** What a patch needs of the receipts' shares besides the parts it reads (see share-parts.ts). */
  shares: SharesHead;
}

/** The first pages of the receipts table and the review list alone, made without the items (receipt-heads.ts). */
export type ReceiptHeads = Pick<FirstPages, 'version' | 'receipts' | 'review'>;

/** The tables kept as first pages: the ones whose rows are receipts and items. */
export type PagedTable = 'receipts' | 'items';
export const PAGED_TABLES: readonly PagedTable[] = ['receipts', 'items'];

/** Rows kept per order: the largest page. */
export const FIRST_ROWS = MAX_REPORT_PAGE_SIZE;

export interface TableHead<T extends PagedTable> {
  figures: StoredFigures;
  /**
   * By `sort:dir`: the ids of the first rows of the table in that order. Fewer than FIRST_ROWS only
   * when the table has fewer rows, or after a patch took rows out (the list is then still exactly the
   * first rows in that order, and answers only pages within it).
   */
  orders: Record<string, string[]>;
  /** The rows the orders name, by id. */
  rows: Record<string, ReportRows[T]>;
}

/** The heads kept as first pages. */
export type Heads = Pick<FirstPages, 'receipts' | 'items' | 'review'>;

/** Adds (or takes out) a receipt's share to the tables' figures. */
export function applyShare(pages: Heads, share: Share, sign: 1 | -1): void {
  mergeFigures(pages.items.figures, share.items, sign);
  const receipt = emptyStoredFigures();
  addRow(receipt, share.currency, share.total);
  mergeFigures(pages.receipts.figures, receipt, sign);
  if (share.review) mergeFigures(pages.review.figures, receipt, sign);
}

/** The receipts the review list shows (as the `review=needed` filter selects them). */
export const inReview = (receipt: { needs_review?: boolean }) => receipt.needs_review === true;

/** The key of an order in {@link TableHead.orders}. */
export const orderKey = (sort: string, dir: string) => `${sort}:${dir}`;

/** Every order of a table: each sort column, ascending and descending. */
export function ordersOf(table: PagedTable): { sort: string; dir: 'asc' | 'desc' }[] {
  return Object.keys(ORDERS[table]).flatMap((sort) => [
    { sort, dir: 'asc' as const },
    { sort, dir: 'desc' as const },
  ]);
}

/** The first pages and the receipts' shares of an index (after the report was built from all rows). */
export function firstPagesOf(
  index: ReportIndex,
  merchantNames: Record<string, string>,
): { pages: FirstPages; parts: SharesPart[] } {
  const all = index.receipts.map((r) => r.receipt);
  const receipts = headOf('receipts', all);
  const review = headOf('receipts', all.filter(inReview));
  const items = headOf(
    'items',
    index.items.map((i) => i.item),
  );
  const shares: [string, Share][] = index.receipts.map(({ receipt, items: its }) => [
    receipt.receipt_id,
    shareOf(
      receipt,
      its.map((i) => ({ ...i.item, currency_code: i.currency })),
    ),
  ]);
  for (const [, share] of shares) applyShare({ receipts, items, review }, share, 1);
  const { head, parts } = sharesInParts(index.version, shares, merchantNames);
  return { pages: { version: index.version, receipts, items, review, shares: head }, parts };
}

/** The first rows of `all` in every order of the table (figures left empty for the caller to add). */
export function headOf<T extends PagedTable>(table: T, all: ReportRows[T][]): TableHead<T> {
  const idOf = ID_OF[table] as (row: ReportRows[T]) => string;
  const orders: Record<string, string[]> = {};
  const rows: Record<string, ReportRows[T]> = {};
  for (const order of ordersOf(table)) {
    const first = firstInOrder(all, comparatorOf(table, order), FIRST_ROWS);
    orders[orderKey(order.sort, order.dir)] = first.map((row) => {
      rows[idOf(row)] = row;
      return idOf(row);
    });
  }
  return { figures: emptyStoredFigures(), orders, rows };
}

/**
 * Whether the query is of an unfiltered receipts or items table, or of the review list (its page may
 * be a first page).
 */
export function answersFromFirstPages(query: PageQuery): boolean {
  if (query.table !== 'receipts' && query.table !== 'items') return false;
  const review = query.table === 'receipts' && query.review === 'needed';
  return !query.q && ROW_FILTERS.every((name) => query[name] === undefined || (review && name === 'review'));
}

/**
 * The page of an unfiltered receipts or items table, or of the review list, from the first pages, when it lies within the
 * rows they keep of its order; undefined for any other query (a search, a filter, a later page),
 * which the report index answers. The same page as the index gives (see the tests).
 * @throws ValidationError for a page token that is not one of this query's
 */
export function pageFromFirstPages<T extends ReportTable>(
  pages: ReceiptHeads & Partial<Pick<FirstPages, 'items'>>,
  query: PageQuery<T>,
): ReportPage<T> | undefined {
  const table: ReportTable = query.table;
  if (!answersFromFirstPages(query) || (table !== 'receipts' && table !== 'items')) return undefined;
  const head = (query.review ? pages.review : pages[table]) as TableHead<PagedTable> | undefined;
  // Receipts' heads made without the items (see receipt-heads.ts): the index answers.
  if (!head) return undefined;
  const order = orderOf(query);
  const ids = head.orders[orderKey(order.sort, order.dir)];
  // An unknown sort column: the index answers it with its message.
  if (!ids) return undefined;
  const offset = offsetOf(query.pageToken, fingerprint(query, order.sort, order.dir));
  const { figures } = head;
  if (offset + query.pageSize > ids.length && ids.length < figures.count) return undefined;
  const money = new CurrencySums();
  for (const [currency, [units, rest]] of Object.entries(figures.money))
    money.addParts(currency, [units, rest]);
  const quantity = new ExactSum();
  quantity.addParts(figures.quantity);
  return pageOf(query, pages.version, () => ({
    ordered: {
      count: figures.count,
      totals: money.record(),
      sums: (table === 'items' ? { quantity: quantity.value } : {}) as Record<string, number>,
      first: (end) => ids.slice(0, end).map((id) => head.rows[id]) as ReportRows[T][],
    },
  }));
}
