import { MAX_BODY_BYTES } from '@receipts/core/contract/routes';
import { uploadBody } from '@receipts/core/contract/requests';
import { uploadReceipt } from '@receipts/core';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/**
 * POST /api/upload: stores a receipt image and queues it for analysis; answers 202 at once with
 * `{ fileName, status: 'false' }`.
 */
export const handler = defineRoute({
  name: 'upload',
  auth: 'user',
  input: (event) => jsonBodyOf(event, uploadBody, MAX_BODY_BYTES),
  run: ({ services, identity }, body) => uploadReceipt(services, identity, body),
  status: 202,
});
