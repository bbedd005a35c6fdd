import { listCorrectionRules } from '@receipts/core';
import { userIdQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/listCorrectionRules?userId=: the rules learnt from the caller's corrections. */
export const handler = defineRoute({
  name: 'listCorrectionRules',
  auth: 'user',
  input: (event) => queryOf(event, userIdQuery),
  run: ({ services, identity }, query) => listCorrectionRules(services, identity, query),
});
