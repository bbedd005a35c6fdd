import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountAnswer } from '@receipts/core/contract/my-data';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/deleteAccount: the account and all its data, after the typed confirmation. */
export function deleteAccount(input: { userId: string; confirmation: string }): Promise<DeleteAccountAnswer> {
  return apiRequest('deleteAccount', { body: input });
}

/** Deletes the account, then runs `onDeleted` (sign out and leave). */
export function useDeleteAccount(userId: string, onDeleted: () => Promise<void> | void) {
  return useMutation({
    mutationFn: (confirmation: string) => deleteAccount({ userId, confirmation }),
    onSuccess: () => onDeleted(),
  });
}
