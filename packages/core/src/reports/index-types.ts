import type { ReportItem, ReportMerchant, ReportReceipt } from '../entities';
import type { ReportRows, ReportTable } from '../contract/reports';
import { CurrencySums, ExactSum, type Figures } from './figures';

/** The report index's shapes, apart from how it is built, searched and paged (which need them). */

/** Rows of one table sharing the search texts they are matched on, in the default order. */
export class TextGroup<R> implements Figures {
  readonly money = new CurrencySums();
  count = 0;
  readonly quantity = new ExactSum();
  readonly rows: R[] = [];
  /** The dictionary's texts a row of the group is matched on (every word must occur in one of them). */
  constructor(readonly texts: number[]) {}
}

/**
 * One user's report data arranged for queries: receipts and items with their search text, built once
 * per data version from the report data (getAppData) and then queried in memory. Pure: the same data
 * and query give the same page.
 */
export interface ReportIndex {
  version: string;
  /** Receipts in the receipts table's default order (newest first; see `byDefaultOrder`). */
  receipts: IndexedReceipt[];
  /** Items in the items table's default order. */
  items: IndexedItem[];
  /** Money and counts over every receipt and every item: the unfiltered tables' total rows. */
  all: { receipts: Figures; items: Figures };
  /** Distinct normalised texts (merchant names and `description|brand`), by id. */
  texts: string[];
  /**
   * Receipts and items grouped by the texts a search matches them on (see {@link SearchDictionary}),
   * made at the first search of the index: not every version of a user's data is searched, and an
   * index is made again after every write.
   */
  search?: SearchDictionary;
  merchantCity: Map<string, string | null>;
  merchantCorporation: Map<string, string | null>;
  /**
   * Receipts and merchants by id, for the detail screens' lookups (one map read each). An item is
   * found through its receipt (its id starts with the receipt's); items by id are mapped only when
   * one is not (built on that first lookup, not with the index: a map of every item costs as much as
   * a fifth of the index).
   */
  receiptById: Map<string, IndexedReceipt>;
  itemById?: Map<string, IndexedItem>;
  merchantById: Map<string, ReportMerchant>;
  /** Results of recent queries (see queryReportIndex): the data never changes under an index. */
  results: Map<string, QueryResult>;
}

/**
 * The rows under one filter with their sums: either all of them, sorted in the query's order once
 * asked for again, or (the default order's unfiltered and searched tables) only their figures and a
 * way to take the first rows in order.
 */
export type QueryResult = Selected<ReportTable>;

/** What a query selects: see {@link pageOf}. */
export type Selected<T extends ReportTable> =
  { summed: Summed<T>; sorted: boolean } | { ordered: Ordered<T> };

/** The figures of the rows under a filter, and the first `end` of those rows in the query's order. */
export interface Ordered<T extends ReportTable> {
  count: number;
  totals: Record<string, number>;
  sums: Record<string, number>;
  first(end: number): ReportRows[T][];
}

/** Query results an index keeps (the least recently used goes first). */
export const MAX_QUERY_RESULTS = 16;

export interface IndexedReceipt {
  receipt: ReportReceipt;
  items: IndexedItem[];
  /** Normalised merchant name, item descriptions and brands, joined by '|'. */
  text: string;
  /** `date time`, lower case, for ordering. */
  when: string;
  /** The date, lower case. */
  day: string;
  /** Position in the default order. */
  rank: number;
  /** The search dictionary's text of the normalised merchant name. */
  merchantText: number;
}

export interface IndexedItem {
  item: ReportItem;
  receipt: IndexedReceipt;
  corporation: string | null;
  currency: string | null;
  /** Normalised description, brand and merchant name. */
  text: string;
  /** The receipt's date, lower case, for ordering. */
  day: string;
  /** Position in the default order. */
  rank: number;
  /** The search dictionary's text of the normalised `description|brand`. */
  ownText: number;
}

/** Binary order of ids (unique, so ties between rows end here). */
export const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Receipts and items grouped by what a search matches them on, which repeats (a product bought
 * weekly at the same shop): items by `description|brand|corporation` (and, within it, by merchant
 * `name|city`), receipts by their merchant's text and every item's own text. A search checks each
 * distinct text once and adds up the matching groups' figures; no search word holds a '|' (words are
 * normalised names), so a word occurs in a row's joined text exactly when it occurs in one of its
 * texts.
 */
export interface SearchDictionary {
  receipts: TextGroup<IndexedReceipt>[];
  /** Items by the id of their `description|brand` text (texts: that one). */
  itemsByOwn: (TextGroup<IndexedItem> | undefined)[];
  /**
   * Items by the id of their merchant's text, then by `description|brand` (texts: that one, then the
   * merchant's): an item whose own text lacks a word may match through its merchant's name.
   */
  itemsByMerchant: (TextGroup<IndexedItem>[] | undefined)[];
}

export type Summed<T extends ReportTable> = {
  rows: ReportRows[T][];
  totals: Record<string, number>;
  sums: Record<string, number>;
};
