import { registerFcmToken } from '@receipts/core';
import { registerFcmTokenBody } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/registerFCMToken: keeps a device's push token for the signed-in user. */
export const handler = defineRoute({
  name: 'registerFCMToken',
  auth: 'user',
  input: (event) => jsonBodyOf(event, registerFcmTokenBody),
  run: ({ services, identity }, body) => registerFcmToken(services, identity, body),
});
