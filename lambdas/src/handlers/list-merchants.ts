import { listMerchants } from '@receipts/core';
import { userIdQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/listMerchants?userId=: the user's merchants by name, for the move and merge forms. */
export const handler = defineRoute({
  name: 'listMerchants',
  auth: 'user',
  input: (event) => queryOf(event, userIdQuery),
  run: ({ services, identity }, query) => listMerchants(services, identity, query),
});
