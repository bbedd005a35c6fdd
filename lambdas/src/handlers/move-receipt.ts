import { moveReceipt } from '@receipts/core';
import { moveReceiptBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/moveReceipt: the receipt is from another of the user's merchants. */
export const handler = defineRoute({
  name: 'moveReceipt',
  auth: 'user',
  input: (event) => jsonBodyOf(event, moveReceiptBody),
  run: ({ services, identity }, input) => moveReceipt(services, identity, input),
});
