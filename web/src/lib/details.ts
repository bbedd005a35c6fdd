import { useQuery } from '@tanstack/react-query';
import type { ListMerchantsAnswer } from '@receipts/core/contract/details';
import { useAppState } from '../stores/app-state';
import { ApiError, apiRequest } from './api-client';
import { queryKeys } from './query-keys';
import type { CurrencyTotal } from './totals';

/**
 * A detail lookup's answer, or null when the server says there is no such receipt, merchant or item
 * (404): the screen then says "not found" instead of showing an error.
 */
export function nullWhenNotFound<T>(request: Promise<T>): Promise<T | null> {
  return request.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
}

/** GET /api/listMerchants: the user's merchants by name, for the move and merge forms. */
export function listMerchants(userId: string): Promise<ListMerchantsAnswer> {
  return apiRequest('listMerchants', { query: { userId } });
}

/** The signed-in user's merchants, loaded only while a form that lists them is open. */
export function useMerchantOptions(enabled: boolean) {
  const { userId } = useAppState();
  return useQuery({
    queryKey: queryKeys.merchantOptions(userId ?? ''),
    queryFn: () => listMerchants(userId ?? ''),
    enabled: enabled && Boolean(userId),
  });
}

/** A merchant's totals per currency as the merchant summary lists them ('' is an unknown currency). */
export function currencyTotals(totals: Record<string, number>): CurrencyTotal[] {
  return Object.entries(totals).map(([currency, amount]) => ({ currency: currency || null, amount }));
}
