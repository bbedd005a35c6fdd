import { logBody } from '@receipts/core/contract/requests';
import { logClientEvent } from '@receipts/core';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** Client events are short; this bounds what an anonymous caller can make us log. */
const MAX_LOG_BODY_BYTES = 16 * 1024;

/** POST /api/log: records an event the web app reports. Needs no sign-in (spec §7). */
export const handler = defineRoute({
  name: 'log',
  auth: 'none',
  input: (event) => jsonBodyOf(event, logBody, MAX_LOG_BODY_BYTES),
  run: ({ services, event }, body) =>
    logClientEvent(services, body, {
      sourceIp: event.requestContext?.http?.sourceIp,
      userAgent: event.requestContext?.http?.userAgent,
    }),
});
