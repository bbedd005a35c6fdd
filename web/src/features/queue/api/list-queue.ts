import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListQueueAnswer } from '@receipts/core/contract/requests';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/listQueue: the user's pending scans. */
export function listQueue(userId: string): Promise<ListQueueAnswer> {
  return apiRequest('listQueue', { query: { userId } });
}

export const queueQueryOptions = (userId: string) =>
  queryOptions({ queryKey: queryKeys.queue(userId), queryFn: () => listQueue(userId), staleTime: 0 });

export function useQueue(userId: string | null) {
  return useQuery({ ...queueQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
