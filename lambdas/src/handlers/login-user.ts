import { loginBody } from '@receipts/core/contract/requests';
import { loginUser } from '@receipts/core';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/login: records the signed-in user; answers `{ user_id, user_email }`. */
export const handler = defineRoute({
  name: 'login',
  auth: 'user',
  input: (event) => jsonBodyOf(event, loginBody),
  run: ({ services, identity }, body) => loginUser(services, identity, body),
});
