import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportPage, ReportRows, ReportTable } from '@receipts/core/contract/reports';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';
import { useAppState } from '../stores/app-state';

/** The query string of one report page: table, order, page token and filters, as the URL holds them. */
export type ReportParams = Record<string, string | undefined>;

export type TypedReportPage<T extends ReportTable> = ReportPage<T> & { rows: ReportRows[T][] };

/** One page of one report table (GET /api/report). */
export function getReport<T extends ReportTable>(
  userId: string,
  table: T,
  params: ReportParams,
  signal?: AbortSignal,
): Promise<TypedReportPage<T>> {
  // The route answers a page of the table asked for: its rows are that table's.
  const page = apiRequest('report', { query: { ...params, userId, table }, signal });
  return page as Promise<TypedReportPage<T>>;
}

export const reportQueryOptions = <T extends ReportTable>(userId: string, table: T, params: ReportParams) =>
  queryOptions({
    queryKey: [...queryKeys.reports(userId), table, params] as const,
    queryFn: ({ signal }) => getReport(userId, table, params, signal),
  });

/**
 * A page of the signed-in user's report table. While the next page or another filter loads, the page
 * shown stays (no flashing empty table as a person types a search).
 */
export function useReport<T extends ReportTable>(table: T, params: ReportParams) {
  const { userId } = useAppState();
  return useQuery({
    ...reportQueryOptions(userId ?? '', table, params),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
  });
}
