import { getAppDataJson } from '@receipts/core';
import { userIdQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';
import { jsonText } from '../http/responses';

/** GET /api/getAppData?userId=: everything the reports show, for the signed-in user. */
export const handler = defineRoute({
  name: 'getAppData',
  auth: 'user',
  input: (event) => queryOf(event, userIdQuery),
  run: ({ services, identity }, query) => getAppDataJson(services, identity, query),
  respond: (text, event) => jsonText(200, text, event),
});
