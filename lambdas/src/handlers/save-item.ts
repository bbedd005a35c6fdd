import { saveItem } from '@receipts/core';
import { saveItemBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/saveItem: changes one item of a receipt, or adds one. */
export const handler = defineRoute({
  name: 'saveItem',
  auth: 'user',
  input: (event) => jsonBodyOf(event, saveItemBody),
  run: async ({ services, identity }, input) =>
    saveItem({ ...services, brandCatalog: await services.loadBrandCatalog() }, identity, input),
});
