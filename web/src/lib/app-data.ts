import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppData, ReportReceipt } from '@receipts/core/entities';
import { useAppState, type AnalysisResultState } from '../stores/app-state';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';
import { totalsByCurrency, type CurrencyTotal } from './totals';

/** Missing lists become empty ones, so screens never test for undefined. */
function normalise(data: Partial<AppData> | null | undefined): AppData {
  return {
    version: data?.version ?? '',
    reportMerchants: data?.reportMerchants ?? [],
    corporations: data?.corporations ?? [],
    brands: data?.brands ?? [],
    reportReceipts: data?.reportReceipts ?? [],
    reportProductItems: data?.reportProductItems ?? [],
  };
}

export async function getAppData(userId: string): Promise<AppData> {
  return normalise(await apiRequest('getAppData', { query: { userId } }));
}

export const appDataQueryOptions = (userId: string) =>
  queryOptions({ queryKey: queryKeys.appData(userId), queryFn: () => getAppData(userId) });

/**
 * The signed-in user's report data. `refetchOnMount: 'always'` is the spec's "loading is requested on
 * entry" for the screens that want it.
 */
export function useAppData(options: { reloadOnEntry?: boolean } = {}) {
  const { userId } = useAppState();
  return useQuery({
    ...appDataQueryOptions(userId ?? ''),
    enabled: Boolean(userId),
    refetchOnMount: options.reloadOnEntry ? 'always' : true,
  });
}

/**
 * The receipt screen's analysis result: the receipt by receipt_id, its merchant by merchant_id and its
 * items by receipt_id (spec §3). Null when the receipt is not in the data.
 */
export function buildAnalysisResult(data: AppData, receiptId: string): AnalysisResultState | null {
  const receipt = data.reportReceipts.find((r) => r.receipt_id === receiptId);
  if (!receipt) return null;
  return {
    receipt,
    merchant: data.reportMerchants.find((m) => m.merchant_id === receipt.merchant_id) ?? null,
    items: data.reportProductItems.filter((i) => i.receipt_id === receiptId),
  };
}

/** A merchant's receipts, newest first. */
export function merchantReceipts(data: AppData, merchantId: string) {
  return data.reportReceipts
    .filter((r) => r.merchant_id === merchantId)
    .sort((a, b) =>
      `${b.transaction_date ?? ''}${b.transaction_time ?? ''}`.localeCompare(
        `${a.transaction_date ?? ''}${a.transaction_time ?? ''}`,
      ),
    );
}

/** A merchant's total per currency, from its loaded receipts (never adding currencies together). */
export function merchantTotals(data: AppData, merchantId: string): CurrencyTotal[] {
  return totalsByCurrency(
    data.reportReceipts
      .filter((r) => r.merchant_id === merchantId)
      .map((r) => ({ [r.currency_code ?? '']: r.total_amount })),
  );
}

/** The receipts whose analysis asked for a person to check them, newest analysis first. */
export function reviewQueue(data: AppData): ReportReceipt[] {
  return data.reportReceipts
    .filter((r) => r.needs_review)
    .sort(
      (a, b) =>
        (b.analyzed_at ?? '').localeCompare(a.analyzed_at ?? '') ||
        `${b.transaction_date ?? ''}${b.transaction_time ?? ''}`.localeCompare(
          `${a.transaction_date ?? ''}${a.transaction_time ?? ''}`,
        ),
    );
}
