import { REQUIRED_TABLES, UnauthorizedError, silentLogger, type Identity } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadConfig } from '../src/config';
import { createServices, type Services } from '../src/composition';
import { MemoryBlobStore, RecordingNotifier, RecordingQueue } from '../../packages/core/test/support/fakes';
import { MemoryTableStore } from '../../packages/core/test/support/memory-table-store';

/** Tokens the fake verifier accepts, and who they prove. */
export const TOKENS: Record<string, Identity> = {
  'token-alice': { uid: 'alice', email: 'alice@example.com', name: 'Alice', emailVerified: true },
  'token-bob': { uid: 'bob', email: 'bob@example.com', name: 'Bob', emailVerified: true },
  'token-admin': { uid: 'root', email: 'Admin@Example.com', name: 'Admin', emailVerified: true },
  'token-admin-unverified': {
    uid: 'root2',
    email: 'admin@example.com',
    name: 'Admin?',
    emailVerified: false,
  },
};

/**
 * Services on in-memory adapters, made by the one composition root (createServices) as every
 * function's are, with a verifier that knows TOKENS.
 */
export async function memoryServices(): Promise<
  Services & { store: MemoryTableStore; queue: RecordingQueue }
> {
  const store = new MemoryTableStore();
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const queue = new RecordingQueue();
  const config = loadConfig({ STORAGE_BACKEND: 'dynamodb', ADMIN_EMAILS: 'admin@example.com' });
  const services = await createServices(config, {
    logger: silentLogger,
    store,
    blobs: new MemoryBlobStore(),
    queue,
    identity: {
      verify: async (token) => {
        const identity = TOKENS[token];
        if (!identity) throw new UnauthorizedError('The sign-in token is not valid. Sign in again.');
        return identity;
      },
      deleteAccount: async () => {},
    },
    notifier: new RecordingNotifier(),
    analyzer: {
      name: 'none',
      analyze: async () => {
        throw new Error('The handler tests analyse no receipt.');
      },
    },
    enricher: null,
  });
  return { ...services, store, queue };
}

/** An API Gateway HTTP API (v2) event. */
export function apiEvent(
  method: string,
  path: string,
  init: {
    token?: string;
    query?: Record<string, string>;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): APIGatewayProxyEventV2 {
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(init.query ?? {}).toString(),
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.query ? { queryStringParameters: init.query } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'test',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

export const bodyOf = (result: { body?: string }) =>
  JSON.parse(result.body ?? 'null') as Record<string, unknown>;
