import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardAnswer, DashboardPeriod } from '@receipts/core/contract/dashboard';
import { apiRequest } from '../../../lib/api-client';
import { localDay } from '../../../lib/local-day';
import { queryKeys } from '../../../lib/query-keys';
import { useAppState } from '../../../stores/app-state';

/** The person's own calendar day, `YYYY-MM-DD` (their time zone decides which month is "this month"). */
export const localToday = localDay;

/**
 * GET /api/dashboard: Home's figures for a period: the one holding `at` (any day of an earlier
 * month, quarter or year), or else the one holding `today`.
 */
export function getDashboard(
  userId: string,
  period: DashboardPeriod,
  today: string,
  at: string | undefined,
  signal?: AbortSignal,
): Promise<DashboardAnswer> {
  return apiRequest('dashboard', { query: { userId, period, today, at }, signal });
}

/** Kept under the reports key, so new analysed receipts refresh Home as they refresh the reports. */
export const dashboardQueryOptions = (
  userId: string,
  period: DashboardPeriod,
  today: string,
  at: string | undefined,
) =>
  queryOptions({
    queryKey: [...queryKeys.reports(userId), 'dashboard', period, today, at ?? ''] as const,
    queryFn: ({ signal }) => getDashboard(userId, period, today, at, signal),
  });

/** The signed-in user's Home figures; the figures shown stay while another period loads. */
export function useDashboard(period: DashboardPeriod, at?: string) {
  const { userId } = useAppState();
  return useQuery({
    ...dashboardQueryOptions(userId ?? '', period, localToday(), at),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
  });
}
