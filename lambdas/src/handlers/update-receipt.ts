import { updateReceipt } from '@receipts/core';
import { updateReceiptBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/updateReceipt: sets the receipt fields a person corrected (the etag read with them must be current). */
export const handler = defineRoute({
  name: 'updateReceipt',
  auth: 'user',
  input: (event) => jsonBodyOf(event, updateReceiptBody),
  run: ({ services, identity }, input) => updateReceipt(services, identity, input),
});
