import type { QueryClient } from '@tanstack/react-query';

/** Query keys shared between features, so one can refresh what another shows. */
export const queryKeys = {
  appData: (userId: string) => ['appData', userId] as const,
  queue: (userId: string) => ['queue', userId] as const,
  /** Every report page of a user (the report tables); one table's page adds table and params. */
  reports: (userId: string) => ['report', userId] as const,
  image: (userId: string, blobName: string, preview = false) =>
    ['image', userId, blobName, preview ? 'preview' : 'file'] as const,
  storageTables: () => ['storage', 'tables'] as const,
  storageRecords: (table: string) => ['storage', 'records', table] as const,
};

/**
 * After a change to a user's receipts (an edit, a delete, a finished scan): the app data and every
 * report page and figure computed from it are read again.
 */
export function invalidateUserData(queryClient: QueryClient, userId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.appData(userId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.reports(userId) }),
  ]).then(() => undefined);
}
