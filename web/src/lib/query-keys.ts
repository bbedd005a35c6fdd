/** Query keys shared between features, so one can refresh what another shows. */
export const queryKeys = {
  appData: (userId: string) => ['appData', userId] as const,
  queue: (userId: string) => ['queue', userId] as const,
  /** Every report page of a user (the report tables); one table's page adds table and params. */
  reports: (userId: string) => ['report', userId] as const,
  image: (userId: string, blobName: string) => ['image', userId, blobName] as const,
  storageTables: () => ['storage', 'tables'] as const,
  storageRecords: (table: string) => ['storage', 'records', table] as const,
};
