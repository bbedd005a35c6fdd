import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/retryScan: puts a failed scan back in the queue. */
export function retryScan(input: { userId: string; fileName: string }): Promise<unknown> {
  return apiRequest('retryScan', { body: input });
}

export function useRetryScan(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileName: string) => retryScan({ userId, fileName }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.queue(userId) }),
  });
}
