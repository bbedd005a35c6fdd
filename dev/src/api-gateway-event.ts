import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '@receipts/core/contract/routes';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import type { HttpResult } from '@receipts/lambdas/http/responses';
import type { ApiHandler } from '@receipts/lambdas/route-handlers';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { sendJson } from './json-answer';

/*
 * What API Gateway (HTTP API, payload format 2.0) does between a client and a Lambda function, for
 * the local server: a Node request becomes an APIGatewayProxyEventV2, the route's handler is called
 * with it, and its result is written back as the HTTP answer. A body over MAX_BODY_BYTES is refused
 * with 413 before any handler sees it, as API Gateway and Lambda refuse it.
 */

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

const tooLarge = (): ErrorAnswer => ({
  error: 'BodyTooLarge',
  message: `The request body is larger than ${(MAX_BODY_BYTES / (1024 * 1024)).toFixed(1)} MB, the largest accepted. Send a smaller image.`,
});

/**
 * The most bytes of an oversized body read (and dropped) so that its 413 answer reaches the client:
 * a server that closes the connection with a body still arriving makes the client see a reset, not
 * the answer. Past this the connection is closed anyway.
 */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

/** Reads the rest of a refused body and drops it; false when it is larger than MAX_DRAINED_BYTES. */
function drainBody(req: IncomingMessage, alreadyRead: number): Promise<boolean> {
  return new Promise((resolveDrain) => {
    let size = alreadyRead;
    if (req.readableEnded) {
      resolveDrain(true);
      return;
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAINED_BYTES) {
        req.off('data', onData);
        req.pause();
        resolveDrain(false);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolveDrain(true));
    req.once('error', () => resolveDrain(false));
    req.resume();
  });
}

/** Answers 413 once the body has been read, so that the client gets the answer, not a reset. */
async function refuseTooLarge(req: IncomingMessage, res: ServerResponse, alreadyRead: number): Promise<void> {
  const drained = await drainBody(req, alreadyRead);
  sendJson(res, 413, tooLarge(), drained ? {} : { connection: 'close' });
}

/** Reads the body, refusing it as soon as it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | { tooLarge: number }> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.off('data', onData);
        req.off('end', onEnd);
        resolveBody({ tooLarge: size });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolveBody(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/** The request as API Gateway (HTTP API, payload format 2.0) hands it to a Lambda function. */
export function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  const cookieHeader = req.headers.cookie;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookieHeader ? { cookies: cookieHeader.split(/;\s*/) } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

/** Writes a streamed body chunk by chunk, waiting whenever the socket's buffer is full. */
async function sendStream(
  res: ServerResponse,
  result: HttpResult,
  stream: AsyncIterable<string> | AsyncIterable<Uint8Array>,
): Promise<void> {
  res.writeHead(result.statusCode, { ...result.headers, 'transfer-encoding': 'chunked' });
  try {
    for await (const chunk of stream) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await new Promise<void>((resolveDrain) => res.once('drain', resolveDrain));
    }
    res.end();
  } catch {
    // The answer has started; all that can be said now is that it broke off.
    res.destroy();
  }
}

/** Writes a handler's result as the HTTP answer (its body decoded, its cookies as Set-Cookie). */
function sendResult(res: ServerResponse, result: HttpResult): void | Promise<void> {
  if (result.bodyStream) return sendStream(res, result, result.bodyStream);
  const body =
    result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string | number | string[]> = {
    ...result.headers,
    'content-length': body.length,
  };
  if (result.cookies && result.cookies.length > 0) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

/**
 * Calls a route's handler as API Gateway would: reads the body (413 past MAX_BODY_BYTES, without
 * keeping it), hands the handler the event for `routeKey` and writes its result.
 */
export async function invokeHandler(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  routeKey: string,
  handler: ApiHandler,
): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) {
    await refuseTooLarge(req, res, 0);
    return;
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (!Buffer.isBuffer(body)) {
    await refuseTooLarge(req, res, body.tooLarge);
    return;
  }
  await sendResult(res, await handler(toApiGatewayEvent(req, url, body, routeKey)));
}
