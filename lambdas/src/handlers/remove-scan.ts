import { removeScan } from '@receipts/core';
import { removeScanQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** DELETE /api/removeScan?userId=&fileName=: a failed or stuck scan and its image, out of the queue. */
export const handler = defineRoute({
  name: 'removeScan',
  auth: 'user',
  input: (event) => queryOf(event, removeScanQuery),
  run: ({ services, identity }, query) => removeScan(services, identity, query),
});
