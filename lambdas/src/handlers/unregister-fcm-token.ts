import { unregisterFcmToken } from '@receipts/core';
import { unregisterFcmTokenBody } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/unregisterFCMToken: forgets a device's push token of the signed-in user (sign-out). */
export const handler = defineRoute({
  name: 'unregisterFCMToken',
  auth: 'user',
  input: (event) => jsonBodyOf(event, unregisterFcmTokenBody),
  run: ({ services, identity }, body) => unregisterFcmToken(services, identity, body),
});
