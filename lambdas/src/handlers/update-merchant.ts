import { updateMerchant } from '@receipts/core';
import { updateMerchantBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/updateMerchant: renames a merchant and edits its address. */
export const handler = defineRoute({
  name: 'updateMerchant',
  auth: 'user',
  input: (event) => jsonBodyOf(event, updateMerchantBody),
  run: ({ services, identity }, input) => updateMerchant(services, identity, input),
});
