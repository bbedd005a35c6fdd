import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReceiptDetailAnswer } from '@receipts/core/contract/details';
import { apiRequest } from '../../../lib/api-client';
import { nullWhenNotFound } from '../../../lib/details';
import { queryKeys } from '../../../lib/query-keys';
import { useAppState } from '../../../stores/app-state';

/** GET /api/receiptDetail: the receipt with its items and merchant, or null when it is not the user's. */
export function getReceiptDetail(userId: string, receiptId: string): Promise<ReceiptDetailAnswer | null> {
  // A screen opened without an id shows "not found", like an unknown one.
  if (!receiptId) return Promise.resolve(null);
  return nullWhenNotFound(apiRequest('receiptDetail', { query: { userId, receiptId } }));
}

export const receiptDetailQueryOptions = (userId: string, receiptId: string) =>
  queryOptions({
    queryKey: queryKeys.receiptDetail(userId, receiptId),
    queryFn: () => getReceiptDetail(userId, receiptId),
  });

/** What the receipt screen shows, for the signed-in user. */
export function useReceiptDetail(receiptId: string) {
  const { userId } = useAppState();
  return useQuery({
    ...receiptDetailQueryOptions(userId ?? '', receiptId),
    enabled: Boolean(userId),
  });
}
