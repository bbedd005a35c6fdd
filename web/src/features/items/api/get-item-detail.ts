import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemDetailAnswer } from '@receipts/core/contract/details';
import { apiRequest } from '../../../lib/api-client';
import { nullWhenNotFound } from '../../../lib/details';
import { queryKeys } from '../../../lib/query-keys';
import { useAppState } from '../../../stores/app-state';

/** GET /api/itemDetail: the item with its receipt and brand owner, or null when it is not the user's. */
export function getItemDetail(userId: string, itemId: string): Promise<ItemDetailAnswer | null> {
  // A screen opened without an id shows "not found", like an unknown one.
  if (!itemId) return Promise.resolve(null);
  return nullWhenNotFound(apiRequest('itemDetail', { query: { userId, itemId } }));
}

export const itemDetailQueryOptions = (userId: string, itemId: string) =>
  queryOptions({
    queryKey: queryKeys.itemDetail(userId, itemId),
    queryFn: () => getItemDetail(userId, itemId),
  });

/** The product item screen's item, for the signed-in user. */
export function useItemDetail(itemId: string) {
  const { userId } = useAppState();
  return useQuery({ ...itemDetailQueryOptions(userId ?? '', itemId), enabled: Boolean(userId) });
}
