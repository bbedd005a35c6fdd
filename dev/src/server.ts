import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import {
  ConfigurationError,
  MAX_BODY_BYTES,
  ROUTES,
  type ErrorAnswer,
  type Logger,
  type RouteName,
} from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResult } from '@receipts/lambdas/http/responses';
import { ROUTE_HANDLERS, type ApiHandler } from '@receipts/lambdas/route-handlers';

/** Options of {@link startLocalServer}. */
export interface LocalServerOptions {
  /** Port on 127.0.0.1 (0 = a free one). */
  port: number;
  /** The built web app (web/dist), or null when there is none. */
  webDir: string | null;
  /** The web app's runtime configuration, served at /config.json. */
  webConfig: unknown;
  logger: Logger;
  /** The handlers to call (default: the app's). */
  handlers?: Record<RouteName, ApiHandler>;
  /**
   * Host names served besides the loopback ones (localhost, *.localhost, 127.0.0.1, [::1]), e.g.
   * the name of a machine that reaches this one through a tunnel. Any other Host is refused.
   */
  allowedHosts?: string[];
}

export interface LocalServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt Tracker</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto">
<h1>Receipt Tracker</h1><p>The web app is not built yet. Run <code>npm run build:web</code> and reload;
the API is running under <code>/api</code>.</p></body></html>`;

function sendJson(
  res: ServerResponse,
  status: number,
  body: ErrorAnswer | unknown,
  extra: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}

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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header, lower case, without the port. */
export function hostNameOf(hostHeader: string | undefined): string | null {
  const host = hostHeader?.trim().toLowerCase();
  if (!host) return null;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(0, end + 1) : null;
  }
  return host.split(':')[0] || null;
}

/**
 * Whether the Host header names this server. A web page can point a name it controls at 127.0.0.1
 * (DNS rebinding) and then call this server as its own origin; its requests carry that name.
 */
export function isAllowedHost(hostHeader: string | undefined, extra: readonly string[] = []): boolean {
  const name = hostNameOf(hostHeader);
  if (!name) return false;
  return LOOPBACK_HOSTS.has(name) || name.endsWith('.localhost') || extra.includes(name);
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

/** Finds the route of a method and path; `methods` lists the path's methods when only those differ. */
function findRoute(method: string, path: string): { name?: RouteName; methods: string[] } {
  const methods: string[] = [];
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, (typeof ROUTES)[RouteName]][]) {
    if (route.path !== path) continue;
    if (route.method === method) return { name, methods: [route.method] };
    methods.push(route.method);
  }
  return { methods };
}

async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  webDir: string | null,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(
      res,
      405,
      { error: 'MethodNotAllowed', message: 'Only GET and HEAD are served here.' },
      { allow: 'GET, HEAD' },
    );
    return;
  }
  if (!webDir) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    sendJson(res, 400, { error: 'BadPath', message: 'The path is not valid URL encoding.' });
    return;
  }
  const root = resolve(webDir);
  let file = resolve(join(root, pathname));
  if (file !== root && !file.startsWith(root + sep)) {
    sendJson(res, 404, { error: 'NotFound', message: 'Not found.' });
    return;
  }
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = join(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) {
    // Client-side routes (/Reports, /Receipt?…) get the app; a missing asset is a real 404.
    if (extname(pathname) !== '') {
      sendJson(res, 404, { error: 'NotFound', message: `No file ${pathname}.` });
      return;
    }
    file = join(root, 'index.html');
    info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(NOT_BUILT_PAGE);
      return;
    }
  }
  const immutable = pathname.startsWith('/assets/');
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

/**
 * The local web server: `/api/*` through the same handlers as on AWS (each request turned into an
 * API Gateway event), `/config.json`, and the built web app with its client routes.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const handlers = options.handlers ?? ROUTE_HANDLERS;
  const { logger } = options;
  const allowedHosts = (options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    if (!isAllowedHost(req.headers.host, allowedHosts)) {
      sendJson(res, 421, {
        error: 'HostNotAllowed',
        message: `This server answers only for localhost, 127.0.0.1 and the names in ALLOWED_HOSTS, not "${hostNameOf(req.headers.host) ?? ''}".`,
      });
      return;
    }
    if (url.pathname === '/config.json') {
      sendJson(res, 200, options.webConfig);
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      await serveStatic(req, res, url, options.webDir);
      return;
    }
    const route = findRoute(method, url.pathname);
    if (!route.name) {
      if (route.methods.length > 0) {
        sendJson(
          res,
          405,
          {
            error: 'MethodNotAllowed',
            message: `${url.pathname} takes ${route.methods.join(' or ')}, not ${method}.`,
          },
          { allow: route.methods.join(', ') },
        );
      } else {
        sendJson(res, 404, {
          error: 'NotFound',
          message: `There is no API route ${method} ${url.pathname}.`,
        });
      }
      return;
    }
    // Refuse an oversized upload without keeping it, as API Gateway and Lambda would.
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
    const routeKey = `${method} ${url.pathname}`;
    const result = await handlers[route.name](toApiGatewayEvent(req, url, body, routeKey));
    await sendResult(res, result);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('local server error', { error: error instanceof Error ? error.stack : String(error) });
      if (!res.headersSent)
        sendJson(res, 500, {
          error: 'InternalError',
          message: 'Something went wrong on our side. Try again.',
        });
      else res.destroy();
    });
  });
  server.requestTimeout = 120_000;
  await new Promise<void>((resolveListen, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigurationError(
              `Port ${options.port} on 127.0.0.1 is already in use; stop what uses it or set PORT to another port.`,
              { code: 'PortInUse', cause: error },
            )
          : error,
      );
    };
    server.once('error', failed);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', failed);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
