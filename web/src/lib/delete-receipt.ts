import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteReceiptAnswer } from '@receipts/core/contract/requests';
import { apiRequest } from './api-client';
import { invalidateUserData, queryKeys } from './query-keys';

export interface DeleteReceiptInput {
  userId: string;
  receiptId: string;
  /** The last path segment of the receipt's document_url. */
  blobName?: string;
}

/** DELETE /api/deleteReceiptData: the receipt, its items, taxes and image (the receipt page and the review list). */
export function deleteReceipt({
  userId,
  receiptId,
  blobName,
}: DeleteReceiptInput): Promise<DeleteReceiptAnswer> {
  return apiRequest('deleteReceiptData', {
    query: { receiptId, userId, blobName: blobName || undefined },
  });
}

/**
 * Deletes, then reloads the reports and details either way; the deleted receipt's own detail is not
 * asked for again while its screen closes (opened again, it says the receipt is not found).
 */
export function useDeleteReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReceipt,
    onSettled: (_answer, _error, { userId, receiptId }) =>
      invalidateUserData(queryClient, userId, { except: queryKeys.receiptDetail(userId, receiptId) }),
  });
}
