import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MerchantDetailAnswer } from '@receipts/core/contract/details';
import { apiRequest } from '../../../lib/api-client';
import { nullWhenNotFound } from '../../../lib/details';
import { queryKeys } from '../../../lib/query-keys';
import { useAppState } from '../../../stores/app-state';

/** GET /api/merchantDetail: the merchant with the user's visits and totals, or null when unknown. */
export function getMerchantDetail(userId: string, merchantId: string): Promise<MerchantDetailAnswer | null> {
  // A screen opened without an id shows "not found", like an unknown one.
  if (!merchantId) return Promise.resolve(null);
  return nullWhenNotFound(apiRequest('merchantDetail', { query: { userId, merchantId } }));
}

export const merchantDetailQueryOptions = (userId: string, merchantId: string) =>
  queryOptions({
    queryKey: queryKeys.merchantDetail(userId, merchantId),
    queryFn: () => getMerchantDetail(userId, merchantId),
  });

/** The merchant screen's summary, for the signed-in user. */
export function useMerchantDetail(merchantId: string) {
  const { userId } = useAppState();
  return useQuery({
    ...merchantDetailQueryOptions(userId ?? '', merchantId),
    enabled: Boolean(userId),
  });
}
