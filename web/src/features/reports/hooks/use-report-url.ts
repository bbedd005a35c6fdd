import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SortingState } from '@tanstack/react-table';
import {
  REPORT_DEFAULT_SORT,
  ROW_FILTERS,
  type ReportTable,
  type RowFilter,
} from '@receipts/core/contract/reports';
import { TABLE_PAGE_SIZE } from '@receipts/core/contract/routes';
import type { ReportParams } from '../../../lib/reports';

/**
 * The filters shared by every table of a page, by their URL (and API) names: the search text and
 * the row filters, but the review list's own.
 */
export const FILTER_KEYS = [
  'q',
  ...ROW_FILTERS.filter((name): name is Exclude<RowFilter, 'review'> => name !== 'review'),
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * The URL names of a table's own state: `<table>Sort`, `<table>Dir` and `<table>Page` (a page token),
 * e.g. `?q=cola&receiptsSort=total&receiptsDir=asc`. Bookmarking the URL keeps filter, order and page.
 */
const keysOf = (table: ReportTable) => ({ sort: `${table}Sort`, dir: `${table}Dir`, page: `${table}Page` });

/** The page's filters in a URL's query string. */
function filtersOf(searchParams: URLSearchParams): Partial<Record<FilterKey, string>> {
  const out: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) {
    const value = searchParams.get(key);
    if (value) out[key] = value;
  }
  return out;
}

/**
 * One table's order and the query of its current page as a URL's query string holds them: the page's
 * filters, the table's order and page token, and `extra` (e.g. the table's own filters). The table
 * asks for exactly this query, and so does a route loader asking for it before the table is drawn.
 */
export function tableQuery(table: ReportTable, searchParams: URLSearchParams, extra: ReportParams = {}) {
  const keys = keysOf(table);
  const fallback = REPORT_DEFAULT_SORT[table];
  const sort = searchParams.get(keys.sort) ?? fallback.sort;
  const asked = searchParams.get(keys.dir);
  const dir = asked === 'asc' || asked === 'desc' ? asked : fallback.dir;
  const pageToken = searchParams.get(keys.page) ?? undefined;
  const params: ReportParams = { ...filtersOf(searchParams), ...extra, sort, dir, pageToken };
  return { keys, sort, dir, params };
}

/** What a report table of a screen asks for besides the URL's state: one screen's page of rows. */
export const SCREEN_PAGE: ReportParams = { pageSize: String(TABLE_PAGE_SIZE) };

/** The filters of the current URL. */
export function useReportFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(searchParams), [searchParams]);

  /** Sets (or, when empty, removes) filters; every table goes back to its first page. */
  const setFilters = useCallback(
    (changes: Partial<Record<FilterKey, string | undefined>>) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          for (const key of [...next.keys()]) if (key.endsWith('Page')) next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );
  return { filters, setFilters };
}

/** One table's order and page in the URL, and the query of its current page. */
export function useTableUrl(table: ReportTable, extra: ReportParams = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const extraKey = JSON.stringify(extra);
  const { keys, sort, dir, params } = useMemo(
    () => tableQuery(table, searchParams, JSON.parse(extraKey) as ReportParams),
    [table, searchParams, extraKey],
  );

  const update = useCallback(
    (changes: Record<string, string | undefined>) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: false },
      ),
    [setSearchParams],
  );

  const sorting: SortingState = [{ id: sort, desc: dir === 'desc' }];
  const setSorting = (next: SortingState) => {
    const first = next[0];
    if (!first) return;
    update({ [keys.sort]: first.id, [keys.dir]: first.desc ? 'desc' : 'asc', [keys.page]: undefined });
  };
  const setPage = (token: string | null) => update({ [keys.page]: token ?? undefined });
  return { params, sorting, setSorting, setPage };
}
