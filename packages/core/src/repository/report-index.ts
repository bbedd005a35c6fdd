import { roundMoney } from '../analysis';
import type { AppData, Receipt, ReportItem, ReportMerchant, ReportReceipt } from '../entities';
import { ValidationError } from '../errors';
import {
  REPORT_DEFAULT_SORT,
  withShopOwners,
  type BrandReportRow,
  type CorporationReportRow,
  type MerchantReportRow,
  type ReportFilter,
  type ReportPage,
  type ReportRows,
  type ReportTable,
  type SortDirection,
  ROW_FILTERS,
} from '../contract/reports';
import { normaliseName, receiptIdOfItem, shortHash } from './keys';

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
type QueryResult = Selected<ReportTable>;

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
const MAX_QUERY_RESULTS = 16;

interface IndexedReceipt {
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

interface IndexedItem {
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

/** Money per currency, a row count and (items) a quantity sum over a set of rows. */
interface Figures {
  money: CurrencySums;
  count: number;
  quantity: ExactSum;
}

/** Rows of one table sharing the search texts they are matched on, in the default order. */
class TextGroup<R> implements Figures {
  readonly money = new CurrencySums();
  count = 0;
  readonly quantity = new ExactSum();
  readonly rows: R[] = [];
  /** The dictionary's texts a row of the group is matched on (every word must occur in one of them). */
  constructor(readonly texts: number[]) {}
}

/**
 * Receipts and items grouped by what a search matches them on, which repeats (a product bought
 * weekly at the same shop): items by `description|brand|corporation` (and, within it, by merchant
 * `name|city`), receipts by their merchant's text and every item's own text. A search checks each
 * distinct text once and adds up the matching groups' figures; no search word holds a '|' (words are
 * normalised names), so a word occurs in a row's joined text exactly when it occurs in one of its
 * texts.
 */
interface SearchDictionary {
  receipts: TextGroup<IndexedReceipt>[];
  /** Items by the id of their `description|brand` text (texts: that one). */
  itemsByOwn: (TextGroup<IndexedItem> | undefined)[];
  /**
   * Items by the id of their merchant's text, then by `description|brand` (texts: that one, then the
   * merchant's): an item whose own text lacks a word may match through its merchant's name.
   */
  itemsByMerchant: (TextGroup<IndexedItem>[] | undefined)[];
}

/** Binary order of ids (unique, so ties between rows end here). */
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The default order of the receipts and items tables, which the index keeps its rows in: newest
 * first (receipts by date and time, items by their receipt's date), ties by id ascending. It is the
 * `date` column's descending order (see ORDERS), so the unfiltered first page is a slice.
 */
const byDefaultOrder = {
  receipts: (a: IndexedReceipt, b: IndexedReceipt) =>
    a.when > b.when ? -1 : a.when < b.when ? 1 : byId(a.receipt.receipt_id, b.receipt.receipt_id),
  items: (a: IndexedItem, b: IndexedItem) =>
    a.day > b.day ? -1 : a.day < b.day ? 1 : byId(a.item.item_id, b.item.item_id),
};

function emptyFigures(): Figures {
  return { money: new CurrencySums(), count: 0, quantity: new ExactSum() };
}

function addFigures(to: Figures, from: Figures): void {
  to.money.addSums(from.money);
  to.count += from.count;
  to.quantity.addSum(from.quantity);
}

/**
 * Arranges a user's report data for queries. Linear in the user's receipts and items, apart from
 * sorting them into the default order (the report data comes nearly in that order).
 */
export function buildReportIndex(data: AppData): ReportIndex {
  // Names repeat (a shop visited weekly, a product bought again): each is normalised once.
  const normalised = new Map<string, string>();
  const normalise = (name: string | null | undefined): string => {
    const raw = name ?? '';
    let done = normalised.get(raw);
    if (done === undefined) {
      done = normaliseName(raw);
      normalised.set(raw, done);
    }
    return done;
  };
  // Dates repeat too: each is lowered once, and the receipt's items share it.
  const lowered = new Map<string, string>();
  const lower = (raw: string): string => {
    let done = lowered.get(raw);
    if (done === undefined) {
      done = raw.toLowerCase();
      lowered.set(raw, done);
    }
    return done;
  };
  // The search dictionary's texts, each once: merchants as `name|city`, items as
  // `description|brand|owning corporation`, all normalised.
  const texts: string[] = [];
  const textIds = new Map<string, number>();
  const textOf = (text: string): number => {
    let id = textIds.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      textIds.set(text, id);
    }
    return id;
  };
  const cityOf = new Map<string, string | null>();
  for (const merchant of data.reportMerchants) cityOf.set(merchant.merchant_id, merchant.city);
  const corporationOfBrand = new Map<string, string | null>();
  for (const brand of data.brands) corporationOfBrand.set(brand.name, brand.owning_corporation);
  const receiptById = new Map<string, IndexedReceipt>();
  const receipts = data.reportReceipts.map((receipt) => {
    const merchantText = `${normalise(receipt.merchant_name)}|${normalise(cityOf.get(receipt.merchant_id))}`;
    const indexed: IndexedReceipt = {
      receipt,
      items: [],
      text: merchantText,
      when: lower(`${receipt.transaction_date ?? ''} ${receipt.transaction_time ?? ''}`),
      day: lower(receipt.transaction_date ?? ''),
      rank: 0,
      merchantText: textOf(merchantText),
    };
    receiptById.set(receipt.receipt_id, indexed);
    return indexed;
  });
  const items: IndexedItem[] = [];
  for (const item of data.reportProductItems) {
    const receipt = receiptById.get(item.receipt_id);
    if (!receipt) continue;
    const corporation = item.brand ? (corporationOfBrand.get(item.brand) ?? null) : null;
    const ownText = textOf(
      `${normalise(item.description)}|${normalise(item.brand)}|${normalise(corporation)}`,
    );
    const day = item.receipt_transaction_date ?? '';
    const indexed: IndexedItem = {
      item,
      receipt,
      corporation,
      currency: item.currency_code ?? receipt.receipt.currency_code,
      text: `${texts[ownText]!}|${receipt.text}`,
      day: day === (receipt.receipt.transaction_date ?? '') ? receipt.day : lower(day),
      rank: 0,
      ownText,
    };
    receipt.items.push(indexed);
    items.push(indexed);
  }
  receipts.sort(byDefaultOrder.receipts);
  items.sort(byDefaultOrder.items);

  const all = { receipts: emptyFigures(), items: emptyFigures() };
  for (let rank = 0; rank < items.length; rank++) {
    const indexed = items[rank]!;
    indexed.rank = rank;
    all.items.count += 1;
    all.items.money.add(indexed.currency, indexed.item.total_price);
    all.items.quantity.add(indexed.item.quantity ?? 0);
  }
  for (let rank = 0; rank < receipts.length; rank++) {
    const indexed = receipts[rank]!;
    indexed.rank = rank;
    all.receipts.count += 1;
    all.receipts.money.add(indexed.receipt.currency_code, indexed.receipt.total_amount);
    if (indexed.items.length > 0)
      indexed.text = [indexed.text, ...indexed.items.map((i) => texts[i.ownText]!)].join('|');
  }
  const merchantCity = new Map<string, string | null>();
  const merchantCorporation = new Map<string, string | null>();
  const merchantById = new Map<string, ReportMerchant>();
  for (const merchant of data.reportMerchants) {
    merchantCity.set(merchant.merchant_id, merchant.city);
    merchantCorporation.set(merchant.merchant_id, merchant.owning_corporation ?? null);
    merchantById.set(merchant.merchant_id, merchant);
  }
  return {
    version: data.version,
    receipts,
    items,
    all,
    texts,
    merchantCity,
    merchantCorporation,
    receiptById,
    merchantById,
    results: new Map(),
  };
}

/** The index's search dictionary, made at its first search. Linear in the receipts and items. */
function searchDictionaryOf(index: ReportIndex): SearchDictionary {
  if (index.search) return index.search;
  const { items, receipts } = index;
  // Items grouped by their own text, and by it and their merchant's, in the default order.
  const itemsByOwn: (TextGroup<IndexedItem> | undefined)[] = [];
  const itemsByMerchant: (TextGroup<IndexedItem>[] | undefined)[] = [];
  const pairs: (Map<number, TextGroup<IndexedItem>> | undefined)[] = [];
  for (const indexed of items) {
    const { ownText } = indexed;
    const merchantText = indexed.receipt.merchantText;
    let own = itemsByOwn[ownText];
    if (!own) {
      own = new TextGroup([ownText]);
      itemsByOwn[ownText] = own;
      pairs[ownText] = new Map();
    }
    own.rows.push(indexed);
    let pair = pairs[ownText]!.get(merchantText);
    if (!pair) {
      pair = new TextGroup([ownText, merchantText]);
      pairs[ownText]!.set(merchantText, pair);
      (itemsByMerchant[merchantText] ??= []).push(pair);
    }
    pair.rows.push(indexed);
    pair.count += 1;
    pair.money.add(indexed.currency, indexed.item.total_price);
    pair.quantity.add(indexed.item.quantity ?? 0);
  }
  for (const byOwn of itemsByMerchant) {
    for (const pair of byOwn ?? []) addFigures(itemsByOwn[pair.texts[0]!]!, pair);
  }
  // Receipts grouped by their whole search text (merchant and every item's own text).
  const receiptGroups = new Map<string, TextGroup<IndexedReceipt>>();
  for (const indexed of receipts) {
    let group = receiptGroups.get(indexed.text);
    if (!group) {
      group = new TextGroup([...new Set([indexed.merchantText, ...indexed.items.map((i) => i.ownText)])]);
      receiptGroups.set(indexed.text, group);
    }
    group.rows.push(indexed);
    group.count += 1;
    group.money.add(indexed.receipt.currency_code, indexed.receipt.total_amount);
  }
  index.search = { receipts: [...receiptGroups.values()], itemsByOwn, itemsByMerchant };
  return index.search;
}

/** One receipt of the index with its items (in report order), or undefined when the user has none of that id. */
export function receiptInIndex(
  index: ReportIndex,
  receiptId: string,
): { receipt: ReportReceipt; items: ReportItem[] } | undefined {
  const found = index.receiptById.get(receiptId);
  return found && { receipt: found.receipt, items: found.items.map((i) => i.item) };
}

/** One item of the index with its receipt and its brand's owning corporation, or undefined. */
export function itemInIndex(
  index: ReportIndex,
  itemId: string,
): { item: ReportItem; receipt: ReportReceipt; corporation: string | null } | undefined {
  const receiptId = receiptIdOfItem(itemId);
  let found = receiptId
    ? index.receiptById.get(receiptId)?.items.find((i) => i.item.item_id === itemId)
    : undefined;
  if (!found) {
    index.itemById ??= new Map(index.items.map((i) => [i.item.item_id, i]));
    found = index.itemById.get(itemId);
  }
  return found && { item: found.item, receipt: found.receipt.receipt, corporation: found.corporation };
}

/** The query of one page, as validated by `reportQuery` (without the user id). */
export interface PageQuery<T extends ReportTable = ReportTable> extends ReportFilter {
  table: T;
  sort?: string | undefined;
  dir?: SortDirection | undefined;
  pageSize: number;
  pageToken?: string | undefined;
}

type Compare<R> = (a: R, b: R) => number;

const text = (a: string | null | undefined, b: string | null | undefined) => {
  const x = (a ?? '').toLowerCase();
  const y = (b ?? '').toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};
const number = (a: number | null | undefined, b: number | null | undefined) =>
  (a ?? Number.NEGATIVE_INFINITY) - (b ?? Number.NEGATIVE_INFINITY);

/**
 * Row order of each sort column; ties are broken by the row's id (compared exactly, ids are unique)
 * so pages never overlap. The `date` columns of receipts and items break their ties by id the other
 * way round, so that their descending order (the tables' default) is the order the index keeps its
 * rows in: newest first, then by id ascending.
 */
const ORDERS: { [T in ReportTable]: Record<string, Compare<ReportRows[T]>> } = {
  receipts: {
    date: (a, b) => text(whenOf(a), whenOf(b)) || byId(b.receipt_id, a.receipt_id),
    merchant: (a, b) => text(a.merchant_name, b.merchant_name),
    total: (a, b) => number(a.total_amount, b.total_amount),
    currency: (a, b) => text(a.currency_code, b.currency_code),
    category: (a, b) => text(a.receipt_type, b.receipt_type),
    region: (a, b) => text(a.country_region, b.country_region),
    analyzed: (a, b) => text(a.analyzed_at, b.analyzed_at) || text(whenOf(a), whenOf(b)),
  },
  items: {
    date: (a, b) =>
      text(a.receipt_transaction_date, b.receipt_transaction_date) || byId(b.item_id, a.item_id),
    description: (a, b) => text(a.description, b.description),
    quantity: (a, b) => number(a.quantity, b.quantity),
    total: (a, b) => number(a.total_price, b.total_price),
    merchant: (a, b) => text(a.merchant_name, b.merchant_name),
    brand: (a, b) => text(a.brand, b.brand),
  },
  merchants: {
    name: (a, b) => text(a.name, b.name),
    city: (a, b) => text(a.city, b.city),
    visits: (a, b) => a.visits - b.visits,
    total: (a, b) => a.total - b.total,
    lastVisit: (a, b) => text(a.last_visit, b.last_visit),
  },
  brands: {
    name: (a, b) => text(a.name, b.name),
    corporation: (a, b) => text(a.owning_corporation, b.owning_corporation),
    purchases: (a, b) => a.purchases - b.purchases,
    total: (a, b) => a.total - b.total,
  },
  corporations: {
    name: (a, b) => text(a.name, b.name),
    brands: (a, b) => a.brands.length - b.brands.length,
    purchases: (a, b) => a.purchases - b.purchases,
    total: (a, b) => a.total - b.total,
  },
};

const ID_OF: { [T in ReportTable]: (row: ReportRows[T]) => string } = {
  receipts: (r) => r.receipt_id,
  items: (r) => r.item_id,
  merchants: (r) => r.merchant_id,
  brands: (r) => r.name,
  corporations: (r) => r.name,
};

function whenOf(r: Receipt): string {
  return `${r.transaction_date ?? ''} ${r.transaction_time ?? ''}`;
}

/** The fingerprint a page token carries: the table, order and filters it belongs to. */
function fingerprint(query: PageQuery, sort: string, dir: SortDirection): string {
  const { q, from, to, currency, category, merchant, brand, corporation, review } = query;
  return shortHash(
    JSON.stringify([
      query.table,
      sort,
      dir,
      q ?? '',
      from,
      to,
      currency,
      category,
      merchant,
      brand,
      corporation,
      review,
    ]),
  );
}

/** The page token of the page starting at `offset`. */
export function pageTokenFor(offset: number, key: string): string {
  return `${offset.toString(36)}.${key}`;
}

function offsetOf(token: string | undefined, key: string): number {
  if (!token) return 0;
  const [offset, tokenKey] = token.split('.');
  const value = Number.parseInt(offset ?? '', 36);
  if (!Number.isSafeInteger(value) || value < 0 || !tokenKey) {
    throw new ValidationError(
      'pageToken is not one this server gave out; leave it out to start from the first page.',
      {
        code: 'InvalidPageToken',
      },
    );
  }
  if (tokenKey !== key) {
    throw new ValidationError(
      'pageToken belongs to another query (other filters or another order); leave it out to start from the first page.',
      { code: 'StalePageToken' },
    );
  }
  return value;
}

/** The receipts under the filter's receipt conditions (date, currency, category, merchant). */
function receiptMatches(r: IndexedReceipt, f: ReportFilter): boolean {
  const { receipt } = r;
  if (f.from && (receipt.transaction_date ?? '') < f.from) return false;
  if (f.to && (!receipt.transaction_date || receipt.transaction_date > f.to)) return false;
  if (f.currency && receipt.currency_code !== f.currency) return false;
  if (f.category && (receipt.receipt_type ?? '').toLowerCase() !== f.category.toLowerCase()) return false;
  if (f.merchant && receipt.merchant_id !== f.merchant) return false;
  if (f.review === 'needed' && receipt.needs_review !== true) return false;
  return true;
}

function itemMatches(i: IndexedItem, f: ReportFilter): boolean {
  if (f.brand && i.item.brand !== f.brand) return false;
  if (f.corporation && i.corporation !== f.corporation) return false;
  if (f.currency && i.currency !== f.currency) return false;
  return true;
}

/** Normalised search words; every word must occur (in any field). */
function searchWords(q: string | undefined): string[] {
  return q ? normaliseName(q).split(' ').filter(Boolean) : [];
}
const hasAll = (haystack: string, words: string[]) => words.every((w) => haystack.includes(w));

function filteredReceipts(index: ReportIndex, f: ReportFilter): IndexedReceipt[] {
  const words = searchWords(f.q);
  return index.receipts.filter((r) => {
    if (!receiptMatches(r, f)) return false;
    if ((f.brand || f.corporation) && !r.items.some((i) => itemMatches(i, f))) return false;
    return hasAll(r.text, words);
  });
}

/** Items under the filter; the search text must match the item itself or its merchant. */
function filteredItems(index: ReportIndex, f: ReportFilter): IndexedItem[] {
  const words = searchWords(f.q);
  return index.items.filter(
    (i) => receiptMatches(i.receipt, f) && itemMatches(i, f) && hasAll(i.text, words),
  );
}

/** Thousandths: amounts and quantities with at most three decimals are added as whole numbers. */
const UNITS = 1000;

/**
 * A sum that does not depend on the order of its terms when they have at most three decimals
 * (money, quantities): those are added exactly in thousandths, any other term as a float. So the
 * figures of a set of rows summed row by row equal those summed from its groups' sums.
 */
class ExactSum {
  private units = 0;
  private rest = 0;
  add(value: number): void {
    const units = Math.round(value * UNITS);
    if (units / UNITS === value) this.units += units;
    else this.rest += value;
  }
  addSum(other: ExactSum): void {
    this.units += other.units;
    this.rest += other.rest;
  }
  get value(): number {
    return this.units / UNITS + this.rest;
  }
}

class CurrencySums {
  /**
   * The currency added to last and its sum: rows of one set are mostly in one currency, and a set in
   * one currency needs no map (the search dictionary has a set per distinct text).
   */
  private lastKey: string | undefined;
  private lastSum: ExactSum | undefined;
  /** Every currency's sum, once there is more than one currency. */
  private more: Map<string, ExactSum> | undefined;
  add(currency: string | null, amount: number | null): void {
    if (amount === null) return;
    this.sumOf(currency ?? '').add(amount);
  }
  addSums(other: CurrencySums): void {
    if (other.more) other.more.forEach((sum, c) => this.sumOf(c).addSum(sum));
    else if (other.lastKey !== undefined) this.sumOf(other.lastKey).addSum(other.lastSum!);
  }
  private sumOf(key: string): ExactSum {
    if (key === this.lastKey) return this.lastSum!;
    let sum: ExactSum | undefined;
    if (this.lastKey !== undefined) {
      this.more ??= new Map([[this.lastKey, this.lastSum!]]);
      sum = this.more.get(key);
    }
    if (!sum) {
      sum = new ExactSum();
      this.more?.set(key, sum);
    }
    this.lastKey = key;
    this.lastSum = sum;
    return sum;
  }
  private get sums(): Map<string, ExactSum> {
    return this.more ?? new Map(this.lastKey === undefined ? [] : [[this.lastKey, this.lastSum!]]);
  }
  /** Sums per currency, rounded, in code order; amounts without a currency under ''. */
  record(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [c, sum] of [...this.sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      out[c] = roundMoney(sum.value);
    return out;
  }
  /** The currency most amounts are in (ties: alphabetical) and its sum. */
  main(counts: Map<string, number>): { currency: string | null; total: number } {
    let best: string | null = null;
    let bestCount = -1;
    for (const [c, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (n > bestCount) {
        best = c;
        bestCount = n;
      }
    }
    return { currency: best || null, total: roundMoney(this.sums.get(best ?? '')?.value ?? 0) };
  }
}

class Group {
  readonly money = new CurrencySums();
  readonly counts = new Map<string, number>();
  n = 0;
  add(currency: string | null, amount: number | null): void {
    this.n += 1;
    this.money.add(currency, amount);
    const key = currency ?? '';
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

function merchantRows(index: ReportIndex, receipts: IndexedReceipt[]): MerchantReportRow[] {
  const groups = new Map<string, { group: Group; name: string; first: string | null; last: string | null }>();
  for (const { receipt } of receipts) {
    let entry = groups.get(receipt.merchant_id);
    if (!entry) {
      entry = { group: new Group(), name: receipt.merchant_name, first: null, last: null };
      groups.set(receipt.merchant_id, entry);
    }
    entry.group.add(receipt.currency_code, receipt.total_amount);
    const day = receipt.transaction_date;
    if (day) {
      if (!entry.first || day < entry.first) entry.first = day;
      if (!entry.last || day > entry.last) entry.last = day;
    }
  }
  return [...groups].map(([id, { group, name, first, last }]) => {
    const main = group.money.main(group.counts);
    return {
      merchant_id: id,
      name,
      city: index.merchantCity.get(id) ?? null,
      owning_corporation: index.merchantCorporation.get(id) ?? null,
      visits: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
      first_visit: first,
      last_visit: last,
    };
  });
}

function brandRows(items: IndexedItem[]): BrandReportRow[] {
  const groups = new Map<string, { group: Group; corporation: string | null }>();
  for (const i of items) {
    if (!i.item.brand) continue;
    let entry = groups.get(i.item.brand);
    if (!entry) {
      entry = { group: new Group(), corporation: i.corporation };
      groups.set(i.item.brand, entry);
    }
    entry.group.add(i.currency, i.item.total_price);
  }
  return [...groups].map(([name, { group, corporation }]) => {
    const main = group.money.main(group.counts);
    return {
      name,
      owning_corporation: corporation,
      purchases: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
    };
  });
}

function corporationRows(items: IndexedItem[]): CorporationReportRow[] {
  const groups = new Map<string, { group: Group; brands: Set<string> }>();
  for (const i of items) {
    if (!i.corporation) continue;
    let entry = groups.get(i.corporation);
    if (!entry) {
      entry = { group: new Group(), brands: new Set() };
      groups.set(i.corporation, entry);
    }
    entry.group.add(i.currency, i.item.total_price);
    if (i.item.brand) entry.brands.add(i.item.brand);
  }
  return [...groups].map(([name, { group, brands }]) => {
    const main = group.money.main(group.counts);
    return {
      name,
      brands: [...brands].sort(text),
      purchases: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
    };
  });
}

type Summed<T extends ReportTable> = {
  rows: ReportRows[T][];
  totals: Record<string, number>;
  sums: Record<string, number>;
};

/** The tables whose rows are sums over receipts or items (one row per merchant, brand, corporation). */
export type SummaryTable = 'merchants' | 'brands' | 'corporations';

/**
 * The rows of a merchants, brands or corporations table that match the search words (merchants:
 * name or city; brands: name or corporation; corporations: name or a brand), with the money totals
 * per currency and the count sums of the table's total row.
 */
export function summed<T extends SummaryTable>(table: T, all: ReportRows[T][], words: string[]): Summed<T> {
  const money = new CurrencySums();
  const add = (totals: Record<string, number>) => {
    for (const [c, amount] of Object.entries(totals)) money.add(c || null, amount);
  };
  switch (table) {
    case 'merchants': {
      const rows = (all as MerchantReportRow[]).filter((m) =>
        hasAll(`${normaliseName(m.name)}|${normaliseName(m.city ?? '')}`, words),
      );
      let visits = 0;
      for (const m of rows) {
        visits += m.visits;
        add(m.totals_by_currency);
      }
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: { visits } };
    }
    case 'brands': {
      const rows = (all as BrandReportRow[]).filter((b) =>
        hasAll(`${normaliseName(b.name)}|${normaliseName(b.owning_corporation ?? '')}`, words),
      );
      let purchases = 0;
      for (const b of rows) {
        purchases += b.purchases;
        add(b.totals_by_currency);
      }
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: { purchases } };
    }
    default: {
      const rows = (all as CorporationReportRow[]).filter((c) =>
        hasAll([normaliseName(c.name), ...c.brands.map(normaliseName)].join('|'), words),
      );
      let purchases = 0;
      const brands = new Set<string>();
      for (const c of rows) {
        purchases += c.purchases;
        for (const b of c.brands) brands.add(b);
        add(c.totals_by_currency);
      }
      return {
        rows: rows as ReportRows[T][],
        totals: money.record(),
        sums: { purchases, brands: brands.size },
      };
    }
  }
}

/** All rows of a table under the query's filter, with the money and count sums over them. */
function rowsOf<T extends ReportTable>(index: ReportIndex, query: PageQuery<T>): Summed<T> {
  const money = new CurrencySums();
  switch (query.table) {
    case 'receipts': {
      const rows = filteredReceipts(index, query).map((r) => r.receipt);
      for (const r of rows) money.add(r.currency_code, r.total_amount);
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: {} };
    }
    case 'items': {
      const found = filteredItems(index, query);
      const quantity = new ExactSum();
      for (const i of found) {
        money.add(i.currency, i.item.total_price);
        quantity.add(i.item.quantity ?? 0);
      }
      return {
        rows: found.map((i) => i.item) as ReportRows[T][],
        totals: money.record(),
        sums: { quantity: quantity.value },
      };
    }
    // One meaning of the search text in every table (see `q` in report-api): the
    // merchants of the receipts it finds, the brands and corporations of the items it finds, each
    // summed over those receipts or items only.
    case 'merchants':
      return summed('merchants', merchantRows(index, filteredReceipts(index, query)), []) as Summed<T>;
    case 'brands':
      return summed('brands', brandRows(filteredItems(index, query)), []) as Summed<T>;
    case 'corporations': {
      // Through the brands (the items it finds) and, apart, through the shops it owns (the
      // merchants of the receipts it finds).
      const shops = merchantRows(index, filteredReceipts(index, query));
      const rows = withShopOwners(corporationRows(filteredItems(index, query)), shops);
      return summed('corporations', rows, []) as Summed<T>;
    }
  }
  throw new ValidationError(`Unknown report table: ${String(query.table)}`, { code: 'InvalidRequest' });
}

/** The sort column and direction of a query: its own, or the table's default. */
export function orderOf(query: {
  table: ReportTable;
  sort?: string | undefined;
  dir?: SortDirection | undefined;
}): {
  sort: string;
  dir: SortDirection;
} {
  const fallback = REPORT_DEFAULT_SORT[query.table];
  const sort = query.sort ?? fallback.sort;
  return { sort, dir: query.dir ?? (query.sort ? 'asc' : fallback.dir) };
}

/** Every row of a table under the filter, in the query's order (for the export). */
export function sortedRows<T extends ReportTable>(
  index: ReportIndex,
  query: Omit<PageQuery<T>, 'pageSize' | 'pageToken'>,
): ReportRows[T][] {
  const { rows } = rowsOf(index, { ...query, pageSize: 1 });
  return [...rows].sort(comparatorOf(query.table, orderOf(query)));
}

/**
 * The first `k` rows in order: a bounded insertion for small pages (the usual case: a first page of
 * 25 rows out of 100,000 items), a full sort otherwise.
 */
function firstInOrder<R>(rows: R[], compare: Compare<R>, k: number): R[] {
  if (k * 8 >= rows.length) return [...rows].sort(compare).slice(0, k);
  const out: R[] = [];
  for (const row of rows) {
    if (out.length === k && compare(row, out[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(out[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, row);
    if (out.length > k) out.pop();
  }
  return out;
}

function comparatorOf<T extends ReportTable>(
  table: T,
  order: { sort: string; dir: SortDirection },
): Compare<ReportRows[T]> {
  const compare = (ORDERS[table] as Record<string, Compare<ReportRows[T]>>)[order.sort];
  if (!compare) {
    throw new ValidationError(`sort "${order.sort}" is not a column of the ${table} table.`, {
      code: 'InvalidSort',
    });
  }
  const idOf = ID_OF[table] as (row: ReportRows[T]) => string;
  const sign = order.dir === 'desc' ? -1 : 1;
  return (a, b) => sign * (compare(a, b) || byId(idOf(a), idOf(b)));
}

/** Most search words a search through the dictionary takes (one bit each); more are rare, and scanned. */
const MAX_DICTIONARY_WORDS = 30;

/**
 * The receipts or items table in its default order, unfiltered or under a search text only, from
 * the figures the index keeps: the unfiltered table's totals, or the search dictionary's groups.
 * Work in proportion to the page and to the distinct texts, not to the rows. Undefined for any
 * other query.
 */
function orderedOf<T extends ReportTable>(index: ReportIndex, query: PageQuery<T>): Ordered<T> | undefined {
  const table: ReportTable = query.table;
  if (table !== 'receipts' && table !== 'items') return undefined;
  const order = orderOf(query);
  const fallback = REPORT_DEFAULT_SORT[table];
  if (order.sort !== fallback.sort || order.dir !== fallback.dir) return undefined;
  if (ROW_FILTERS.some((name) => query[name] !== undefined)) return undefined;
  const words = searchWords(query.q);
  if (words.length > MAX_DICTIONARY_WORDS) return undefined;
  let figures: Figures;
  let lists: (IndexedReceipt | IndexedItem)[][];
  if (words.length === 0) {
    figures = index.all[table];
    lists = [table === 'receipts' ? index.receipts : index.items];
  } else {
    // Which words each distinct text holds, one bit per word; a group matches when its texts hold all.
    const { texts } = index;
    const search = searchDictionaryOf(index);
    const holds = new Int32Array(texts.length);
    for (let t = 0; t < texts.length; t++) {
      let bits = 0;
      for (let w = 0; w < words.length; w++) if (texts[t]!.includes(words[w]!)) bits |= 1 << w;
      holds[t] = bits;
    }
    const every = (1 << words.length) - 1;
    const found = emptyFigures();
    const matched: (IndexedReceipt | IndexedItem)[][] = [];
    const take = (group: TextGroup<IndexedReceipt | IndexedItem>) => {
      addFigures(found, group);
      matched.push(group.rows);
    };
    if (table === 'receipts') {
      for (const group of search.receipts) {
        const t = group.texts;
        let bits = 0;
        for (let i = 0; i < t.length; i++) bits |= holds[t[i]!]!;
        if (bits === every) take(group);
      }
    } else {
      // Items whose own text holds every word, then those whose merchant's name holds the rest.
      for (const group of search.itemsByOwn) if (group && holds[group.texts[0]!] === every) take(group);
      const { itemsByMerchant } = search;
      for (let m = 0; m < itemsByMerchant.length; m++) {
        const byOwn = itemsByMerchant[m];
        const merchant = holds[m]!;
        if (!byOwn || merchant === 0) continue;
        for (const pair of byOwn) {
          const own = holds[pair.texts[0]!]!;
          if (own !== every && (own | merchant) === every) take(pair);
        }
      }
    }
    figures = found;
    lists = matched;
  }
  const rowOf = (r: IndexedReceipt | IndexedItem): ReportReceipt | ReportItem =>
    'item' in r ? r.item : r.receipt;
  return {
    count: figures.count,
    totals: figures.money.record(),
    sums: table === 'items' ? { quantity: figures.quantity.value } : {},
    first: (end) => mergedByRank(lists, end).map(rowOf) as ReportRows[T][],
  };
}

/**
 * The first `end` rows of lists each in the default order, in that order: a k-way merge on the
 * rows' positions with a binary heap of the lists' next rows.
 */
function mergedByRank<R extends { rank: number }>(lists: R[][], end: number): R[] {
  if (lists.length === 1) return lists[0]!.slice(0, end);
  // heap: list numbers, ordered by the rank of each list's next row (key).
  const heads = new Int32Array(lists.length);
  const key = new Float64Array(lists.length);
  const heap = new Int32Array(lists.length);
  let size = 0;
  const down = (from: number) => {
    let at = from;
    const l = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && key[heap[child + 1]!]! < key[heap[child]!]!) child += 1;
      if (key[heap[child]!]! >= key[l]!) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = l;
  };
  for (let l = 0; l < lists.length; l++) {
    if (lists[l]!.length === 0) continue;
    key[l] = lists[l]![0]!.rank;
    heap[size++] = l;
  }
  for (let at = (size >> 1) - 1; at >= 0; at--) down(at);
  const out: R[] = [];
  while (out.length < end && size > 0) {
    const l = heap[0]!;
    const list = lists[l]!;
    out.push(list[heads[l]!]!);
    heads[l] += 1;
    if (heads[l]! < list.length) key[l] = list[heads[l]!]!.rank;
    else heap[0] = heap[--size]!;
    down(0);
  }
  return out;
}

/**
 * One page of a table under the query. The receipts and items tables in their default order,
 * unfiltered or searched, are answered from the index's figures and search dictionary. For any other
 * query the rows under its filter and order are kept with the index: a query seen before (the next
 * page, the same table opened again) only sorts them once, on its second use, and is then cut from
 * them. Either way the page is the one {@link scanReportIndex} gives.
 */
export function queryReportIndex<T extends ReportTable>(
  index: ReportIndex,
  query: PageQuery<T>,
): ReportPage<T> {
  return pageOf(query, index.version, (q, key) => {
    const known = index.results.get(key) as Selected<T> | undefined;
    index.results.delete(key);
    if (known) {
      if ('summed' in known && !known.sorted) {
        known.summed.rows.sort(comparatorOf(query.table, orderOf(query)));
        known.sorted = true;
      }
      index.results.set(key, known as QueryResult);
      return known;
    }
    const ordered = orderedOf(index, q);
    // The rows of the receipts and items tables are filtered in the index's order, the default one.
    const found: Selected<T> = ordered
      ? { ordered }
      : { summed: rowsOf(index, q), sorted: inDefaultOrder(q) };
    index.results.set(key, found as QueryResult);
    while (index.results.size > MAX_QUERY_RESULTS) index.results.delete(index.results.keys().next().value!);
    return found;
  });
}

function inDefaultOrder(query: PageQuery): boolean {
  if (query.table !== 'receipts' && query.table !== 'items') return false;
  const order = orderOf(query);
  const fallback = REPORT_DEFAULT_SORT[query.table];
  return order.sort === fallback.sort && order.dir === fallback.dir;
}

/**
 * One page of a table under the query by a pass over all of the index's rows (filtered, summed and
 * the page picked by a bounded top-k), keeping nothing: the reference {@link queryReportIndex}
 * answers the same as.
 */
export function scanReportIndex<T extends ReportTable>(
  index: ReportIndex,
  query: PageQuery<T>,
): ReportPage<T> {
  return pageOf(query, index.version, (q) => ({ summed: rowsOf(index, q), sorted: false }));
}

/** Search words of a query, normalised (every one must occur). */
export { searchWords };

/**
 * One page of a table under the query, over the rows `select` answers for it: all rows under the
 * filter, with their sums, and whether they are already in the query's order; or their figures and
 * the first rows in order. The page token is checked first, the rows ordered and cut.
 */
export function pageOf<T extends ReportTable>(
  query: PageQuery<T>,
  version: string,
  select: (query: PageQuery<T>, key: string) => Selected<T>,
): ReportPage<T> {
  const order = orderOf(query);
  const key = fingerprint(query, order.sort, order.dir);
  const offset = offsetOf(query.pageToken, key);
  const selected = select(query, key);
  const end = offset + query.pageSize;
  let page: ReportRows[T][];
  let figures: { count: number; totals: Record<string, number>; sums: Record<string, number> };
  if ('ordered' in selected) {
    figures = selected.ordered;
    page = offset < figures.count ? selected.ordered.first(end).slice(offset) : [];
  } else {
    const { rows, totals, sums } = selected.summed;
    figures = { count: rows.length, totals, sums };
    page = selected.sorted
      ? rows.slice(offset, end)
      : firstInOrder(rows, comparatorOf(query.table, order), end).slice(offset);
  }
  const { count, totals, sums } = figures;
  return {
    table: query.table,
    rows: page,
    count,
    totals,
    sums,
    sort: order.sort,
    dir: order.dir,
    pageSize: query.pageSize,
    offset,
    nextPageToken: end < count ? pageTokenFor(end, key) : null,
    previousPageToken: offset > 0 ? pageTokenFor(Math.max(0, offset - query.pageSize), key) : null,
    version,
  };
}
