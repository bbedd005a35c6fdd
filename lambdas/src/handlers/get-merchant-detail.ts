import { getMerchantDetail } from '@receipts/core';
import { merchantDetailQuery } from '@receipts/core/contract/details';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/merchantDetail?userId=&merchantId=: one merchant with the user's visits and totals there. */
export const handler = defineRoute({
  name: 'merchantDetail',
  auth: 'user',
  input: (event) => queryOf(event, merchantDetailQuery),
  run: ({ services, identity }, query) => getMerchantDetail(services, identity, query),
});
