import { listStorageRecords } from '@receipts/core';
import { storageTableQuery } from '@receipts/core/contract/requests';
import * as z from 'zod';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

const query = storageTableQuery.extend({ continuationToken: z.string().max(2048).optional() });

/** GET /api/storage/records?table=&continuationToken= (admin): one page of a table's records. */
export const handler = defineRoute({
  name: 'storageListRecords',
  auth: 'admin',
  input: (event) => queryOf(event, query),
  run: ({ services }, input) => listStorageRecords(services.store, input),
});
