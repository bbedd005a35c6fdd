import type { Receipt } from '../entities';
import { ValidationError } from '../errors';
import {
  REPORT_DEFAULT_SORT,
  type ReportFilter,
  type ReportRows,
  type ReportTable,
  type SortDirection,
} from '../contract/reports';
import { shortHash } from '../repository/keys';
import { byId } from './index-types';

/** The query of one page, as validated by `reportQuery` (without the user id). */
export interface PageQuery<T extends ReportTable = ReportTable> extends ReportFilter {
  table: T;
  sort?: string | undefined;
  dir?: SortDirection | undefined;
  pageSize: number;
  pageToken?: string | undefined;
}

export type Compare<R> = (a: R, b: R) => number;

export const text = (a: string | null | undefined, b: string | null | undefined) => {
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
export const ORDERS: { [T in ReportTable]: Record<string, Compare<ReportRows[T]>> } = {
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

export const ID_OF: { [T in ReportTable]: (row: ReportRows[T]) => string } = {
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
export function fingerprint(query: PageQuery, sort: string, dir: SortDirection): string {
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

export function offsetOf(token: string | undefined, key: string): number {
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

/**
 * The first `k` rows in order: a bounded insertion for small pages (the usual case: a first page of
 * 25 rows out of 100,000 items), a full sort otherwise.
 */
export function firstInOrder<R>(rows: R[], compare: Compare<R>, k: number): R[] {
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

export function comparatorOf<T extends ReportTable>(
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
