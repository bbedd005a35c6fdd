import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemFields, ReceiptChanges } from '@receipts/core/api-edits';
import { apiRequest } from '../../../lib/api-client';
import { useEdit } from '../../../lib/edits';

interface ReceiptEdit extends Record<string, unknown> {
  receiptId: string;
  etag: string;
}

/** POST /api/updateReceipt */
export const useUpdateReceipt = (userId: string) =>
  useEdit<ReceiptEdit & { changes: Record<keyof ReceiptChanges, unknown> | Record<string, unknown> }>(
    'updateReceipt',
    userId,
  );

/** POST /api/saveItem (without itemId: adds one) */
export const useSaveItem = (userId: string) =>
  useEdit<ReceiptEdit & { itemId?: string; item: Record<keyof ItemFields, unknown> }>('saveItem', userId);

/** DELETE /api/deleteItem */
export const useDeleteItem = (userId: string) =>
  useEdit<ReceiptEdit & { itemId: string }>('deleteItem', userId);

/** POST /api/moveReceipt */
export const useMoveReceipt = (userId: string) =>
  useEdit<ReceiptEdit & { merchantId: string }>('moveReceipt', userId);

/** POST /api/reanalyseReceipt */
export const useReanalyseReceipt = (userId: string) => useEdit<ReceiptEdit>('reanalyseReceipt', userId);

/** GET /api/listBrands: the brand dataset for the brand type-ahead (it does not change while the app runs). */
export function useBrandOptions(userId: string | null, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['brands', userId ?? ''] as const,
      queryFn: () => apiRequest('listBrands', { query: { userId: userId ?? '' } }),
      staleTime: Infinity,
      enabled: enabled && Boolean(userId),
    }),
  );
}

/** GET /api/getAnalysis: the analysis as the analyzer wrote it, for the JSON viewer. */
export function useOriginalAnalysis(userId: string | null, receiptId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['analysis', userId ?? '', receiptId] as const,
    queryFn: () => apiRequest('getAnalysis', { query: { userId: userId ?? '', receiptId } }),
    enabled: enabled && Boolean(userId && receiptId),
    retry: false,
  });
}
