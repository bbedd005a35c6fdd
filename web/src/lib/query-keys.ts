/** Query keys shared between features, so one can refresh what another shows. */
export const queryKeys = {
  appData: (userId: string) => ['appData', userId] as const,
  queue: (userId: string) => ['queue', userId] as const,
  image: (userId: string, blobName: string) => ['image', userId, blobName] as const,
  storageTables: () => ['storage', 'tables'] as const,
  storageRecords: (table: string) => ['storage', 'records', table] as const,
};
