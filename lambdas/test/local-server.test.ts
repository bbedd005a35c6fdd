import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, ROUTES, silentLogger, type RouteName } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { json } from '../src/http/responses';
import { startLocalServer, type LocalServer } from '../src/local/server';
import type { ApiHandler } from '../src/route-handlers';

describe('the local server', () => {
  let server: LocalServer;
  let webDir: string;
  const events: APIGatewayProxyEventV2[] = [];

  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'receipts-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(webDir, 'assets', 'app.js'), 'console.log(1)');
    const echo: ApiHandler = async (event) => {
      events.push(event);
      return json(200, {
        path: event.rawPath,
        query: event.queryStringParameters ?? null,
        body: event.body ?? null,
      });
    };
    const handlers = Object.fromEntries(Object.keys(ROUTES).map((name) => [name, echo])) as Record<
      RouteName,
      ApiHandler
    >;
    server = await startLocalServer({
      port: 0,
      webDir,
      webConfig: { firebase: { projectId: 'demo-x' } },
      logger: silentLogger,
      handlers,
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('turns a request into an API Gateway v2 event for the route handler', async () => {
    const answer = await fetch(`${server.url}/api/upload?x=1&x=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"a":1}',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ path: '/api/upload', query: { x: '1,2' }, body: '{"a":1}' });
    const event = events.at(-1)!;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/upload',
      isBase64Encoded: false,
      headers: expect.objectContaining({ authorization: 'Bearer t' }),
      requestContext: expect.objectContaining({
        http: expect.objectContaining({ method: 'POST', path: '/api/upload' }),
      }),
    });
  });

  it('refuses a body over the limit with 413 before calling a handler', async () => {
    const before = events.length;
    const answer = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(answer.status).toBe(413);
    expect((await answer.json()).message).toMatch(/larger than/);
    expect(events.length).toBe(before);
  });

  it('serves /config.json, the web app, its assets, and the app for client routes', async () => {
    expect(await (await fetch(`${server.url}/config.json`)).json()).toEqual({
      firebase: { projectId: 'demo-x' },
    });
    for (const path of ['/', '/Reports', '/Receipt?receiptId=a~b.jpg']) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>app</title>');
    }
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
  });

  it('says which port is taken when it cannot listen', async () => {
    await expect(
      startLocalServer({ port: server.port, webDir: null, webConfig: {}, logger: silentLogger }),
    ).rejects.toThrow(new RegExp(`Port ${server.port} on 127.0.0.1 is already in use.*set PORT`));
  });

  it('never serves a file outside the web folder', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd.txt']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(await answer.text()).not.toMatch(/root:/);
    }
  });
});
