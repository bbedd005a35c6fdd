import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { silentLogger } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { json } from '@receipts/lambdas/http/responses';
import { startLocalServer, type LocalServer } from '../src/server';
import type { ApiHandler } from '@receipts/lambdas/route-handlers';

describe('the local server', () => {
  let server: LocalServer;
  let webDir: string;
  const events: APIGatewayProxyEventV2[] = [];
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

  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'receipts-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(webDir, 'assets', 'app.js'), 'console.log("Receipt uploaded — analysing")');
    await writeFile(join(webDir, 'assets', 'app.css'), 'body{margin:0}');
    await writeFile(join(webDir, 'manifest.webmanifest'), '{"name":"Receipts"}');
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

  /** A raw HTTP request (fetch cannot choose the Host header), answered or failed with the error code. */
  function rawRequest(options: {
    method?: string;
    path: string;
    headers?: Record<string, string | number>;
    body?: Buffer;
    chunked?: boolean;
  }): Promise<{ status: number; body: string } | { error: string }> {
    return new Promise((resolveAnswer) => {
      const req = request(
        `${server.url}${options.path}`,
        { method: options.method ?? 'GET', headers: options.headers ?? {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolveAnswer({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (error: NodeJS.ErrnoException) =>
            resolveAnswer({ error: error.code ?? error.message }),
          );
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        resolveAnswer({ error: error.code ?? error.message }),
      );
      if (options.body && options.chunked) {
        // Without a Content-Length: the size is only known while reading.
        const body = options.body;
        let at = 0;
        const pump = () => {
          while (at < body.length) {
            const next = body.subarray(at, at + 256 * 1024);
            at += next.length;
            if (!req.write(next)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      } else req.end(options.body);
    });
  }

  it('gives every oversized request its 413 answer, never a reset', async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES + 512 * 1024, 'x');
    const answers = [];
    for (let i = 0; i < 20; i++) {
      answers.push(
        await rawRequest({
          method: 'POST',
          path: '/api/upload',
          headers: {
            'content-type': 'application/json',
            ...(i % 2 ? {} : { 'content-length': body.length }),
          },
          body,
          chunked: i % 2 === 1,
        }),
      );
    }
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 413 });
      expect(JSON.parse((answer as { body: string }).body).message).toMatch(/larger than/);
    }
  });

  it('refuses requests for a host name other than the loopback ones (DNS rebinding)', async () => {
    for (const host of ['evil.example', 'evil.example:8080', '127.0.0.1.nip.io', '10.0.0.5']) {
      for (const path of ['/api/listQueue', '/config.json', '/']) {
        const answer = await rawRequest({ path, headers: { host } });
        expect(answer).toMatchObject({ status: 421 });
        expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ error: 'HostNotAllowed' });
      }
    }
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'app.localhost']) {
      expect(await rawRequest({ path: '/config.json', headers: { host } })).toMatchObject({ status: 200 });
    }
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

  it('types each file, with the charset for text, and tells the browser not to sniff', async () => {
    const types = {
      '/': /^text\/html; ?charset=utf-8$/,
      '/Reports': /^text\/html; ?charset=utf-8$/,
      '/assets/app.js': /^text\/javascript; charset=utf-8$/,
      '/assets/app.css': /^text\/css; charset=utf-8$/,
      '/manifest.webmanifest': /^application\/manifest\+json$/,
    };
    for (const [path, type] of Object.entries(types)) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(type);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const script = await fetch(`${server.url}/assets/app.js`);
    expect(await script.text()).toBe('console.log("Receipt uploaded — analysing")');
  });

  it('has pages revalidated (ETag, 304) and only hashed assets cached for good', async () => {
    const page = await fetch(`${server.url}/Reports`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const etag = page.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.url}/Reports`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await fetch(`${server.url}/Reports`, { headers: { 'if-none-match': 'W/"other"' } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('<title>app</title>');
    expect((await fetch(`${server.url}/manifest.webmanifest`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/assets/app.js`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it('answers a byte range of a file with 206', async () => {
    const part = await fetch(`${server.url}/assets/app.css`, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-3/14');
    expect(await part.text()).toBe('body');
  });

  it('answers HEAD with the headers only, and other methods on pages with 405', async () => {
    const head = await rawRequest({ method: 'HEAD', path: '/assets/app.css' });
    expect(head).toEqual({ status: 200, body: '' });
    const post = await fetch(`${server.url}/Reports`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('lists no folder: a folder path is answered with the app', async () => {
    for (const path of ['/assets', '/assets/']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).toContain('<title>app</title>');
      expect(text).not.toContain('app.js');
    }
  });

  it('serves a build made while it runs', async () => {
    const path = `/assets/late-${Date.now()}.js`;
    expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    await writeFile(join(webDir, path), 'console.log(2)');
    const answer = await fetch(`${server.url}${path}`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('console.log(2)');
  });

  it('answers 400 for a path that is not valid URL encoding', async () => {
    const answer = await rawRequest({ path: '/%E0%A4%A' });
    expect(answer).toMatchObject({ status: 400 });
    expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ error: 'BadPath' });
  });

  it('shows a notice page, not an error, until the web app is built', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'receipts-web-empty-'));
    const bare = await startLocalServer({
      port: 0,
      webDir: empty,
      webConfig: {},
      logger: silentLogger,
      handlers,
    });
    try {
      const page = await fetch(`${bare.url}/Reports`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/not built yet.*npm run build:web/s);
      expect((await fetch(`${bare.url}/assets/app.js`)).status).toBe(404);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('says which port is taken when it cannot listen', async () => {
    await expect(
      startLocalServer({ port: server.port, webDir: null, webConfig: {}, logger: silentLogger, handlers }),
    ).rejects.toThrow(new RegExp(`Port ${server.port} on 127.0.0.1 is already in use.*set PORT`));
  });

  it('never serves a file outside the web folder', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd.txt']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(await answer.text()).not.toMatch(/root:/);
    }
  });
});
