import { getImage } from '@receipts/core';
import { getImageQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/getImage?userId=&blobName=: one of the user's receipt images, as a JSON string holding a data URL. */
export const handler = defineRoute({
  name: 'getImage',
  auth: 'user',
  input: (event) => queryOf(event, getImageQuery),
  run: ({ services, identity }, query) => getImage(services, identity, query),
});
