import { retryScan } from '@receipts/core';
import { retryScanBody } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/retryScan: queues a failed scan for analysis again. */
export const handler = defineRoute({
  name: 'retryScan',
  auth: 'user',
  input: (event) => jsonBodyOf(event, retryScanBody),
  run: ({ services, identity }, body) => retryScan(services, identity, body),
  status: 202,
});
