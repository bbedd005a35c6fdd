import { mergeMerchants } from '@receipts/core';
import { mergeMerchantsBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/mergeMerchants: moves every receipt of a duplicate merchant to the one kept; the duplicate goes. */
export const handler = defineRoute({
  name: 'mergeMerchants',
  auth: 'user',
  input: (event) => jsonBodyOf(event, mergeMerchantsBody),
  run: ({ services, identity }, input) => mergeMerchants(services, identity, input),
});
