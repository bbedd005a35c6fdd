import { listBrands } from '@receipts/core';
import { userIdQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/listBrands?userId=: the brand dataset, for the item form's type-ahead. */
export const handler = defineRoute({
  name: 'listBrands',
  auth: 'user',
  input: (event) => queryOf(event, userIdQuery),
  run: async ({ services, identity }, query) =>
    listBrands({ brandCatalog: await services.loadBrandCatalog() }, identity, query),
});
