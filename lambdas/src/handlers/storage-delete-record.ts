import { deleteStorageTestRecord } from '@receipts/core';
import { storageDeleteQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** DELETE /api/storage/records?table=&partitionKey=&rowKey= (admin): deletes a test record. */
export const handler = defineRoute({
  name: 'storageDeleteRecord',
  auth: 'admin',
  input: (event) => queryOf(event, storageDeleteQuery),
  run: ({ services }, input) => deleteStorageTestRecord(services.store, input),
});
