import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListQueueAnswer, RemoveScanAnswer } from '@receipts/core/contract/requests';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useAppActions, useAppState } from '../../../stores/app-state';

/** DELETE /api/removeScan: a failed or stuck scan and its image, out of the queue. */
export function removeScan(input: { userId: string; fileName: string }): Promise<RemoveScanAnswer> {
  return apiRequest('removeScan', { query: input });
}

/**
 * Removes, drops the entry from the cached queue and the pending list at once (so its leaving is not
 * taken for a finished scan), and reloads the queue either way.
 */
export function useRemoveScan(userId: string) {
  const queryClient = useQueryClient();
  const { scanning } = useAppState();
  const actions = useAppActions();
  return useMutation({
    mutationFn: (fileName: string) => removeScan({ userId, fileName }),
    onSuccess: (_answer, fileName) => {
      actions.setScanning(scanning.filter((entry) => entry.fileName !== fileName));
      queryClient.setQueryData<ListQueueAnswer>(queryKeys.queue(userId), (entries) =>
        entries?.filter((entry) => entry.fileName !== fileName),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.queue(userId) }),
  });
}
