import { roundMoney } from '../analysis';
import type { AppData, Receipt, ReportItem, ReportMerchant, ReportReceipt } from '../entities';
import { ValidationError } from '../errors';
import {
  REPORT_DEFAULT_SORT,
  type BrandReportRow,
  type CorporationReportRow,
  type MerchantReportRow,
  type ReportFilter,
  type ReportPage,
  type ReportRows,
  type ReportTable,
  type SortDirection,
} from '../report-api';
import { normaliseName, shortHash } from './keys';

/**
 * One user's report data arranged for queries: receipts and items with their search text, built once
 * per data version from the report data (getAppData) and then queried in memory. Pure: the same data
 * and query give the same page.
 */
export interface ReportIndex {
  version: string;
  receipts: IndexedReceipt[];
  /** Items in report order (newest receipt first). */
  items: IndexedItem[];
  merchantCity: Map<string, string | null>;
  merchantCorporation: Map<string, string | null>;
  /** Receipts, items and merchants by id, for the detail screens' lookups (one map read each). */
  receiptById: Map<string, IndexedReceipt>;
  itemById: Map<string, IndexedItem>;
  merchantById: Map<string, ReportMerchant>;
  /** Results of recent queries (see queryReportIndex): the data never changes under an index. */
  results: Map<string, QueryResult>;
}

/** The rows under one filter with their sums, sorted in the query's order once asked for again. */
interface QueryResult {
  summed: Summed<ReportTable>;
  sorted: boolean;
}

/** Query results an index keeps (the least recently used goes first). */
const MAX_QUERY_RESULTS = 16;

interface IndexedReceipt {
  receipt: ReportReceipt;
  items: IndexedItem[];
  /** Normalised merchant name, item descriptions and brands, joined by '|'. */
  text: string;
  /** `date time`, for ordering. */
  when: string;
}

interface IndexedItem {
  item: ReportItem;
  receipt: IndexedReceipt;
  corporation: string | null;
  currency: string | null;
  /** Normalised description, brand and merchant name. */
  text: string;
}

/** Arranges a user's report data for queries. Linear in the user's receipts and items. */
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
  const corporationOfBrand = new Map<string, string | null>();
  for (const brand of data.brands) corporationOfBrand.set(brand.name, brand.owning_corporation);
  const byId = new Map<string, IndexedReceipt>();
  const receipts = data.reportReceipts.map((receipt) => {
    const indexed: IndexedReceipt = {
      receipt,
      items: [],
      text: normalise(receipt.merchant_name),
      when: `${receipt.transaction_date ?? ''} ${receipt.transaction_time ?? ''}`,
    };
    byId.set(receipt.receipt_id, indexed);
    return indexed;
  });
  const items: IndexedItem[] = [];
  const owns = new Map<IndexedItem, string>();
  for (const item of data.reportProductItems) {
    const receipt = byId.get(item.receipt_id);
    if (!receipt) continue;
    const own = `${normalise(item.description)}|${normalise(item.brand)}`;
    const indexed: IndexedItem = {
      item,
      receipt,
      corporation: item.brand ? (corporationOfBrand.get(item.brand) ?? null) : null,
      currency: item.currency_code ?? receipt.receipt.currency_code,
      text: `${own}|${receipt.text}`,
    };
    owns.set(indexed, own);
    receipt.items.push(indexed);
    items.push(indexed);
  }
  for (const receipt of receipts) {
    receipt.text = [receipt.text, ...receipt.items.map((i) => owns.get(i)!)].join('|');
  }
  const merchantCity = new Map<string, string | null>();
  const merchantCorporation = new Map<string, string | null>();
  const merchantById = new Map<string, ReportMerchant>();
  for (const merchant of data.reportMerchants) {
    merchantCity.set(merchant.merchant_id, merchant.city);
    merchantCorporation.set(merchant.merchant_id, merchant.owning_corporation ?? null);
    merchantById.set(merchant.merchant_id, merchant);
  }
  const itemById = new Map(items.map((i) => [i.item.item_id, i]));
  return {
    version: data.version,
    receipts,
    items,
    merchantCity,
    merchantCorporation,
    receiptById: byId,
    itemById,
    merchantById,
    results: new Map(),
  };
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
  const found = index.itemById.get(itemId);
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

/** Row order of each sort column; ties are broken by the row's id so pages never overlap. */
const ORDERS: { [T in ReportTable]: Record<string, Compare<ReportRows[T]>> } = {
  receipts: {
    date: (a, b) => text(whenOf(a), whenOf(b)),
    merchant: (a, b) => text(a.merchant_name, b.merchant_name),
    total: (a, b) => number(a.total_amount, b.total_amount),
    currency: (a, b) => text(a.currency_code, b.currency_code),
    category: (a, b) => text(a.receipt_type, b.receipt_type),
    region: (a, b) => text(a.country_region, b.country_region),
    analyzed: (a, b) => text(a.analyzed_at, b.analyzed_at) || text(whenOf(a), whenOf(b)),
  },
  items: {
    date: (a, b) => text(a.receipt_transaction_date, b.receipt_transaction_date),
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

/** Items under the filter; the search text, when `searchItems`, must match the item itself. */
function filteredItems(index: ReportIndex, f: ReportFilter, searchItems: boolean): IndexedItem[] {
  const words = searchItems ? searchWords(f.q) : [];
  return index.items.filter(
    (i) => receiptMatches(i.receipt, f) && itemMatches(i, f) && hasAll(i.text, words),
  );
}

class CurrencySums {
  readonly sums = new Map<string, number>();
  add(currency: string | null, amount: number | null): void {
    if (amount === null) return;
    const key = currency ?? '';
    this.sums.set(key, (this.sums.get(key) ?? 0) + amount);
  }
  /** Sums per currency, rounded, in code order; amounts without a currency under ''. */
  record(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [c, sum] of [...this.sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      out[c] = roundMoney(sum);
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
    return { currency: best || null, total: roundMoney(this.sums.get(best ?? '') ?? 0) };
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
  const words = searchWords(query.q);
  switch (query.table) {
    case 'receipts': {
      const rows = filteredReceipts(index, query).map((r) => r.receipt);
      for (const r of rows) money.add(r.currency_code, r.total_amount);
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: {} };
    }
    case 'items': {
      const found = filteredItems(index, query, true);
      let quantity = 0;
      for (const i of found) {
        money.add(i.currency, i.item.total_price);
        quantity += i.item.quantity ?? 0;
      }
      return {
        rows: found.map((i) => i.item) as ReportRows[T][],
        totals: money.record(),
        sums: { quantity },
      };
    }
    case 'merchants': {
      // The merchants of the receipts under the filter; the search text matches the name or city.
      const receipts = filteredReceipts(index, { ...query, q: undefined });
      return summed('merchants', merchantRows(index, receipts), words) as Summed<T>;
    }
    case 'brands':
      return summed('brands', brandRows(filteredItems(index, query, false)), words) as Summed<T>;
    case 'corporations':
      return summed('corporations', corporationRows(filteredItems(index, query, false)), words) as Summed<T>;
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
  return (a, b) => sign * (compare(a, b) || text(idOf(a), idOf(b)));
}

/**
 * One page of a table under the query. The rows under a filter and order are kept with the index:
 * a query seen before (the next page, the same table opened again) only sorts them once, on its
 * second use, and is then cut from them.
 */
export function queryReportIndex<T extends ReportTable>(
  index: ReportIndex,
  query: PageQuery<T>,
): ReportPage<T> {
  return pageOf(query, index.version, (q, key) => {
    const known = index.results.get(key) as { summed: Summed<T>; sorted: boolean } | undefined;
    index.results.delete(key);
    if (known) {
      if (!known.sorted) {
        known.summed.rows.sort(comparatorOf(query.table, orderOf(query)));
        known.sorted = true;
      }
      index.results.set(key, known as QueryResult);
      return known;
    }
    const found = { summed: rowsOf(index, q), sorted: false };
    index.results.set(key, found as QueryResult);
    while (index.results.size > MAX_QUERY_RESULTS) index.results.delete(index.results.keys().next().value!);
    return found;
  });
}

/** Search words of a query, normalised (every one must occur). */
export { searchWords };

/**
 * One page of a table under the query, over the rows `select` answers for it (all rows under the
 * filter, with their sums, and whether they are already in the query's order): the page token is
 * checked first, the rows ordered and cut.
 */
export function pageOf<T extends ReportTable>(
  query: PageQuery<T>,
  version: string,
  select: (query: PageQuery<T>, key: string) => { summed: Summed<T>; sorted: boolean },
): ReportPage<T> {
  const order = orderOf(query);
  const key = fingerprint(query, order.sort, order.dir);
  const offset = offsetOf(query.pageToken, key);
  const { summed, sorted } = select(query, key);
  const { rows, totals, sums } = summed;
  const end = offset + query.pageSize;
  const page = sorted
    ? rows.slice(offset, end)
    : firstInOrder(rows, comparatorOf(query.table, order), end).slice(offset);
  return {
    table: query.table,
    rows: page,
    count: rows.length,
    totals,
    sums,
    sort: order.sort,
    dir: order.dir,
    pageSize: query.pageSize,
    offset,
    nextPageToken: end < rows.length ? pageTokenFor(end, key) : null,
    previousPageToken: offset > 0 ? pageTokenFor(Math.max(0, offset - query.pageSize), key) : null,
    version,
  };
}
