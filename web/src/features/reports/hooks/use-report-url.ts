import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SortingState } from '@tanstack/react-table';
import {
  REPORT_DEFAULT_SORT,
  ROW_FILTERS,
  type ReportTable,
  type RowFilter,
} from '@receipts/core/contract/reports';
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

/** The filters of the current URL. */
export function useReportFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => {
    const out: Partial<Record<FilterKey, string>> = {};
    for (const key of FILTER_KEYS) {
      const value = searchParams.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [searchParams]);

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
  const { filters } = useReportFilters();
  const keys = keysOf(table);
  const fallback = REPORT_DEFAULT_SORT[table];
  const sort = searchParams.get(keys.sort) ?? fallback.sort;
  const dir =
    searchParams.get(keys.dir) === 'asc'
      ? 'asc'
      : searchParams.get(keys.dir) === 'desc'
        ? 'desc'
        : fallback.dir;
  const pageToken = searchParams.get(keys.page) ?? undefined;
  const extraKey = JSON.stringify(extra);

  const params = useMemo<ReportParams>(
    () => ({ ...filters, ...(JSON.parse(extraKey) as ReportParams), sort, dir, pageToken }),
    [filters, extraKey, sort, dir, pageToken],
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
