import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError, type Logger } from '@receipts/core';
import { ROUTES, type RouteName } from '@receipts/core/contract/routes';
import type { ApiHandler } from '@receipts/lambdas/route-handlers';
import { invokeHandler } from './api-gateway-event';
import { sendJson } from './json-answer';
import { createStaticFiles } from './static-files';

/** Options of {@link startLocalServer}. */
export interface LocalServerOptions {
  /** Port on 127.0.0.1 (0 = a free one). */
  port: number;
  /** The built web app (web/dist), or null when there is none. */
  webDir: string | null;
  /** The web app's runtime configuration, served at /config.json. */
  webConfig: unknown;
  logger: Logger;
  /** The handler of each route (the app's: routeHandlers(services)). */
  handlers: Record<RouteName, ApiHandler>;
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

/**
 * The local web server: `/api/*` through the same handlers as on AWS (each request turned into an
 * API Gateway event), `/config.json`, and the built web app with its client routes.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { handlers } = options;
  const { logger } = options;
  const allowedHosts = (options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean);
  const staticFiles = createStaticFiles(options.webDir);

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
      staticFiles(req, res, url);
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
    await invokeHandler(req, res, url, `${method} ${url.pathname}`, handlers[route.name]);
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
