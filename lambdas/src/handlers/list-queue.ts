import { listQueue } from '@receipts/core';
import { userIdQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/listQueue?userId=: the user's pending and failed scans. */
export const handler = defineRoute({
  name: 'listQueue',
  auth: 'user',
  input: (event) => queryOf(event, userIdQuery),
  run: ({ services, identity }, query) => listQueue(services, identity, query),
});
