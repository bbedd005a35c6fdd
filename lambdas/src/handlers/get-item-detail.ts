import { getItemDetail } from '@receipts/core';
import { itemDetailQuery } from '@receipts/core/contract/details';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/itemDetail?userId=&itemId=: one item with its receipt and its brand's owner. */
export const handler = defineRoute({
  name: 'itemDetail',
  auth: 'user',
  input: (event) => queryOf(event, itemDetailQuery),
  run: ({ services, identity }, query) => getItemDetail(services, identity, query),
});
