import { saveReceipt } from '@receipts/core';
import { saveReceiptBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/saveReceipt: the whole edit form (fields and items) in one save, under one etag. */
export const handler = defineRoute({
  name: 'saveReceipt',
  auth: 'user',
  input: (event) => jsonBodyOf(event, saveReceiptBody),
  run: async ({ services, identity }, input) =>
    saveReceipt({ ...services, brandCatalog: await services.loadBrandCatalog() }, identity, input),
});
