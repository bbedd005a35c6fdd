import { listStorageTables } from '@receipts/core';
import { defineRoute } from '../http/route';

/** GET /api/storage/tables (admin): the store's tables. */
export const handler = defineRoute({
  name: 'storageListTables',
  auth: 'admin',
  input: () => undefined,
  run: ({ services }) => listStorageTables(services.store),
});
