import { reanalyseReceipt } from '@receipts/core';
import { reanalyseReceiptBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/reanalyseReceipt: queues the stored image for analysis again (edited fields are kept). */
export const handler = defineRoute({
  name: 'reanalyseReceipt',
  auth: 'user',
  input: (event) => jsonBodyOf(event, reanalyseReceiptBody),
  run: ({ services, identity }, body) => reanalyseReceipt(services, identity, body),
  status: 202,
});
