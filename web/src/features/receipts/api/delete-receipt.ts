import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteReceiptAnswer } from '@receipts/core/api';
import type { AppData } from '@receipts/core/entities';
import { apiRequest } from '../../../lib/api-client';
import { invalidateUserData, queryKeys } from '../../../lib/query-keys';

export interface DeleteReceiptInput {
  userId: string;
  receiptId: string;
  /** The last path segment of the receipt's document_url. */
  blobName?: string;
}

/** DELETE /api/deleteReceiptData: the receipt, its items, taxes and image. */
export function deleteReceipt({
  userId,
  receiptId,
  blobName,
}: DeleteReceiptInput): Promise<DeleteReceiptAnswer> {
  return apiRequest('deleteReceiptData', {
    query: { receiptId, userId, blobName: blobName || undefined },
  });
}

/** Deletes, drops the receipt from the cached data at once, and reloads the data either way. */
export function useDeleteReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReceipt,
    onSuccess: (_answer, { userId, receiptId }) => {
      queryClient.setQueryData<AppData>(queryKeys.appData(userId), (data) =>
        data
          ? {
              ...data,
              reportReceipts: data.reportReceipts.filter((r) => r.receipt_id !== receiptId),
              reportProductItems: data.reportProductItems.filter((i) => i.receipt_id !== receiptId),
            }
          : data,
      );
    },
    onSettled: (_answer, _error, { userId }) => invalidateUserData(queryClient, userId),
  });
}
