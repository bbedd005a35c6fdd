import { createStorageTestRecord } from '@receipts/core';
import { storageTableQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/storage/records { table } (admin): creates a test record. */
export const handler = defineRoute({
  name: 'storageCreateRecord',
  auth: 'admin',
  input: (event) => jsonBodyOf(event, storageTableQuery),
  run: ({ services }, body) => createStorageTestRecord(services.store, body),
  status: 201,
});
