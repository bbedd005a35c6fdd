import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RouteAnswers } from '@receipts/core/contract/answers';
import { ROUTES } from '@receipts/core/contract/routes';
import { apiRequest } from './api-client';
import { invalidateUserData } from './query-keys';

/** The routes that edit a receipt or merchant; each answers the new etag of what it changed. */
export type EditRoute =
  | 'updateReceipt'
  | 'saveItem'
  | 'saveReceipt'
  | 'deleteItem'
  | 'markReviewed'
  | 'keepBothReceipts'
  | 'reanalyseReceipt'
  | 'moveReceipt'
  | 'updateMerchant'
  | 'mergeMerchants';

/** Sends one edit: a JSON body for POST routes, query parameters for DELETE routes. */
export function sendEdit<R extends EditRoute>(
  route: R,
  input: Record<string, unknown>,
): Promise<RouteAnswers[R]> {
  if (ROUTES[route].method === 'POST') return apiRequest(route, { body: input });
  const query: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(input))
    query[key] = value === undefined ? undefined : String(value);
  return apiRequest(route, { query });
}

/**
 * A mutation of one edit route. On success the report data is loaded again before the mutation
 * settles: every screen then shows the figures the server recomputed, and the forms the new etags.
 */
export function useEdit<I extends Record<string, unknown>>(route: EditRoute, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => sendEdit(route, { userId, ...input }),
    onSuccess: async () => {
      await invalidateUserData(queryClient, userId);
    },
  });
}

/**
 * The input of a number field as the server should get it: null when blank, the number when it
 * reads as one (a decimal comma is taken), else the text as typed, which the server refuses with a
 * message naming the field.
 */
export function numberInput(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : trimmed;
}
