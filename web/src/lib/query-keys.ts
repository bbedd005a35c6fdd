import type { QueryClient } from '@tanstack/react-query';

/** Query keys shared between features, so one can refresh what another shows. */
export const queryKeys = {
  queue: (userId: string) => ['queue', userId] as const,
  /** Every report page of a user (the report tables); one table's page adds table and params. */
  reports: (userId: string) => ['report', userId] as const,
  /** Every detail lookup of a user (a receipt, merchant or item screen, the merchant choices). */
  details: (userId: string) => ['detail', userId] as const,
  receiptDetail: (userId: string, receiptId: string) => ['detail', userId, 'receipt', receiptId] as const,
  merchantDetail: (userId: string, merchantId: string) => ['detail', userId, 'merchant', merchantId] as const,
  itemDetail: (userId: string, itemId: string) => ['detail', userId, 'item', itemId] as const,
  merchantOptions: (userId: string) => ['detail', userId, 'merchants'] as const,
  image: (userId: string, blobName: string, preview = false) =>
    ['image', userId, blobName, preview ? 'preview' : 'file'] as const,
  storageTables: () => ['storage', 'tables'] as const,
  storageRecords: (table: string) => ['storage', 'records', table] as const,
};

/**
 * After a change to a user's receipts (an edit, a delete, a finished scan): every report page and
 * detail lookup computed from them is read again (the ones on screen at once, the others when next
 * shown). A query named in `except` is only marked stale, not read again now (a receipt just deleted).
 */
export function invalidateUserData(
  queryClient: QueryClient,
  userId: string,
  options: { except?: readonly unknown[] } = {},
): Promise<void> {
  const except = options.except ? JSON.stringify(options.except) : null;
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.reports(userId) }),
    queryClient.invalidateQueries({
      queryKey: queryKeys.details(userId),
      predicate: (query) => JSON.stringify(query.queryKey) !== except,
    }),
    options.except &&
      queryClient.invalidateQueries({ queryKey: options.except, exact: true, refetchType: 'none' }),
  ]).then(() => undefined);
}
