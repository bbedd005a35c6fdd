import type { ServerResponse } from 'node:http';
import type { ErrorAnswer } from '@receipts/core/contract/answers';

/** Answers JSON, never cached: an API answer, /config.json, or an error of the local server itself. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: ErrorAnswer | unknown,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}
