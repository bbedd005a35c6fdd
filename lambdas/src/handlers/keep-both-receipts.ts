import { keepBothReceipts } from '@receipts/core';
import { keepBothReceiptsBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/keepBothReceipts: the receipt is not a duplicate of the one it looked like. */
export const handler = defineRoute({
  name: 'keepBothReceipts',
  auth: 'user',
  input: (event) => jsonBodyOf(event, keepBothReceiptsBody),
  run: ({ services, identity }, input) => keepBothReceipts(services, identity, input),
});
