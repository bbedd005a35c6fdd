import { REPORT_DEFAULT_SORT, type ReportPage, type ReportRows, type ReportTable } from '../contract/reports';
import type { QueryResult, ReportIndex, Selected } from './index-build';
import {
  comparatorOf,
  fingerprint,
  firstInOrder,
  offsetOf,
  orderOf,
  pageTokenFor,
  type PageQuery,
} from './order';
import { orderedOf } from './search';
import { rowsOf } from './table-rows';
import { MAX_QUERY_RESULTS } from './index-build';

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
