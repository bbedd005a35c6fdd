import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemFields } from '@receipts/core/contract/edits';
import { apiRequest } from '../../../lib/api-client';
import { useEdit } from '../../../lib/edits';

interface ReceiptEdit extends Record<string, unknown> {
  receiptId: string;
  etag: string;
}

/**
 * POST /api/saveReceipt: the whole edit form at once; `items`, when sent, is the receipt's full list
 * afterwards (an item with `itemId` is one of the receipt's, one without is added).
 */
export const useSaveReceipt = (userId: string) =>
  useEdit<
    ReceiptEdit & {
      changes: Record<string, unknown>;
      items?: { itemId?: string; item: Record<keyof ItemFields, unknown> }[];
    }
  >('saveReceipt', userId);

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
