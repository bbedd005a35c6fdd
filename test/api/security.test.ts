import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_IMAGE_BYTES } from '@receipts/core/contract/routes';
import type { AppData, QueueEntry } from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { sampleReceiptJpeg } from '../support/receipt-images';
import { jpegDataUrl, type ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

const ADMIN_EMAIL = 'admin@example.com';

/** An unsigned JWT with the given claims (what a forger can make without Google's keys). */
function forgedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', kid: 'forged', typ: 'JWT' })}.${part(claims)}.${Buffer.from('not a signature').toString('base64url')}`;
}

/**
 * Who may do what, and what bad input gets, through HTTP against the real local stack. Every refusal
 * is a 4xx with `{ error, message }` and leaves the data as it was.
 */
describe('authorisation and bad input', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;
  let admin: ApiClient;
  const aliceFile = '1710000000000-receipt.jpg';
  let aliceReceiptId = '';
  let snapshot: { data: AppData; queue: QueueEntry[]; blobs: string[] };

  const takeSnapshot = async () => ({
    data: (await alice.getAppData()).body,
    queue: (await alice.listQueue()).body,
    blobs: (await env.stack.services.blobs.list('')).filter((k) => !k.startsWith('cache/')),
  });

  beforeAll(async () => {
    env = await startTestStack({ adminEmails: [ADMIN_EMAIL] });
    [alice, bob, admin] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
      signUpClient(env.stack, ADMIN_EMAIL, 'Admin'),
    ]);
    expect((await alice.upload(aliceFile, jpegDataUrl(await sampleReceiptJpeg(0)))).status).toBe(202);
    expect(await alice.waitForQueue()).toEqual([]);
    const data = (await alice.getAppData()).body;
    aliceReceiptId = data.reportReceipts[0]!.receipt_id;
    snapshot = await takeSnapshot();
  });
  afterAll(async () => {
    await env?.stop();
  });

  const expectError = (answer: { status: number; body: unknown }, status: number, message?: RegExp) => {
    expect(answer.status).toBe(status);
    const body = answer.body as ErrorAnswer;
    expect(typeof body.error).toBe('string');
    expect(typeof body.message).toBe('string');
    expect(body.message).not.toMatch(/\bat .*\.(ts|js):\d+/); // never a stack trace
    if (message) expect(body.message).toMatch(message);
  };

  const everyUserCall = (client: ApiClient, userId: string) => [
    () =>
      client.call('POST', '/api/login', {
        body: { user_id: userId, user_email: 'x@example.com', user_name: 'X' },
      }),
    () => client.call('POST', '/api/registerFCMToken', { body: { userId, fcmToken: 'token-1' } }),
    () => client.call('POST', '/api/unregisterFCMToken', { body: { userId, fcmToken: 'token-1' } }),
    () => client.listQueue(userId),
    () => client.getImage(aliceFile, userId),
    () => client.getAppData(userId),
    () => client.deleteReceipt(aliceReceiptId, aliceFile, userId),
    () => client.call('POST', '/api/retryScan', { body: { userId, fileName: aliceFile } }),
    () => client.upload('1710000000001-receipt.jpg', 'data:image/jpeg;base64,/9j/4AAQ', userId),
  ];

  it('answers 401 to every call without a token, and to forged or garbage tokens', async () => {
    const anonymous = alice.withToken(null);
    for (const call of everyUserCall(anonymous, alice.userId)) expectError(await call(), 401, /Sign in/);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: alice.userId, user_id: alice.userId, iat: now, auth_time: now, exp: now + 3600 };
    const tokens = [
      'not-a-token',
      'a.b.c',
      forgedToken({
        ...claims,
        aud: 'another-project',
        iss: 'https://securetoken.google.com/another-project',
      }),
      forgedToken({
        ...claims,
        aud: env.stack.projectId,
        iss: `https://securetoken.google.com/${env.stack.projectId}`,
        exp: now - 60,
      }),
    ];
    for (const token of tokens) {
      expectError(await alice.withToken(token).getAppData(), 401);
      expectError(
        await alice.withToken(token).upload('1710000000002-receipt.jpg', 'data:image/jpeg;base64,/9j/'),
        401,
      );
    }
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('refuses a token once its sign-ins are revoked or its account disabled, with a clear 401', async () => {
    // What the site owner does in the Firebase console or with firebase-admin, here on the emulator.
    const ownerApp = initializeApp({ projectId: env.stack.projectId }, 'security-test-owner');
    try {
      const owner = getAuth(ownerApp);
      const carol = await signUpClient(env.stack, 'carol@example.com', 'Carol');
      const dave = await signUpClient(env.stack, 'dave@example.com', 'Dave');
      expect((await carol.getAppData()).status).toBe(200);
      expect((await dave.getAppData()).status).toBe(200);

      // Revocation counts in whole seconds: sign-ins of the second it happens in stay valid.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await owner.revokeRefreshTokens(carol.userId);
      for (const call of everyUserCall(carol, carol.userId)) expectError(await call(), 401, /revoked/);
      // A new sign-in works again.
      const again = await env.stack.signIn('carol@example.com', 'correct-horse-battery');
      expect((await carol.withToken(again.idToken).getAppData()).status).toBe(200);

      await owner.updateUser(dave.userId, { disabled: true });
      for (const call of everyUserCall(dave, dave.userId)) expectError(await call(), 401, /disabled/);
      await expect(env.stack.signIn('dave@example.com', 'correct-horse-battery')).rejects.toThrow();
    } finally {
      await deleteApp(ownerApp);
    }
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it("answers 403 to user B on every call naming user A's id, and finds nothing of A's under B's id", async () => {
    for (const call of everyUserCall(bob, alice.userId))
      expectError(await call(), 403, /own data|another user/);
    expectError(await bob.deleteReceipt(aliceReceiptId, aliceFile), 403, /another user/);
    expectError(await bob.getImage(aliceFile), 404);
    expectError(
      await bob.call('POST', '/api/retryScan', { body: { userId: bob.userId, fileName: aliceFile } }),
      404,
    );
    const bobs = await bob.getAppData();
    expect(bobs.status).toBe(200);
    expect(bobs.body.reportReceipts).toEqual([]);
    expect((await bob.listQueue()).body).toEqual([]);
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('refuses malformed images with a clear 4xx and stores nothing', async () => {
    const upload = (imgSrc: string, fileName = '1710000000003-receipt.jpg') => alice.upload(fileName, imgSrc);
    expectError(await upload('hello'), 400, /data URL/);
    expectError(await upload('data:image/jpeg;base64,***'), 400, /base64/);
    expectError(
      await upload(`data:image/jpeg;base64,${Buffer.from('plain text, not a photo').toString('base64')}`),
      415,
      /not a JPEG, PNG, WebP or PDF/,
    );
    expectError(await upload(`data:image/gif;base64,R0lGODlhAQABAAAAACw=`), 415, /JPEG, PNG, WebP or PDF/);
    const png = jpegDataUrl(await sampleReceiptJpeg(0)).replace('image/jpeg', 'image/png');
    expectError(await upload(png), 415, /says image\/png but the content is image\/jpeg/);
    // An image over the limit inside a body under it: refused by size, with the limit named.
    const bigImage = new Uint8Array(MAX_IMAGE_BYTES + 1024);
    bigImage.set([0xff, 0xd8, 0xff, 0xe0]);
    expectError(await upload(jpegDataUrl(bigImage)), 413, /largest accepted is 4\.0 MB/);
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('refuses an oversized body with 413 before reading it', async () => {
    const body = JSON.stringify({
      userId: alice.userId,
      fileName: '1710000000004-receipt.jpg',
      imgSrc: 'x'.repeat(MAX_BODY_BYTES),
    });
    expectError(await alice.call('POST', '/api/upload', { rawBody: body }), 413, /larger than/);
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('refuses path traversal and odd characters in names and ids', async () => {
    for (const blobName of [
      '../x.jpg',
      '..',
      '.hidden.jpg',
      'a/b.jpg',
      'a\\b.jpg',
      `${aliceFile}/..`,
      '%2e%2e',
    ]) {
      expectError(await alice.getImage(blobName), 400, /plain file name/);
    }
    expectError(await alice.getImage(`../${bob.userId}/x.jpg`), 400);
    for (const fileName of ["it's.jpg", '../../etc/passwd', 'a b.jpg', '']) {
      expectError(await alice.upload(fileName, jpegDataUrl(await sampleReceiptJpeg(0))), 400);
    }
    expectError(await alice.getAppData("alice' or '1'='1"), 400, /userId may contain only/);
    for (const receiptId of [`${alice.userId}~x'.jpg`, "x' or ''='", `${alice.userId}~../x.jpg`]) {
      expectError(await alice.deleteReceipt(receiptId), 400, /receiptId/);
    }
    expectError(await alice.deleteReceipt(aliceReceiptId, 'other.jpg'), 400, /blobName does not match/);
    expectError(await alice.call('POST', '/api/registerFCMToken', { rawBody: '{not json' }), 400, /JSON/);
    expectError(
      await alice.call('POST', '/api/login', { body: { user_email: 'a@b.c' } }),
      400,
      /user_id is required/,
    );
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    expectError(await alice.call('GET', '/api/nothing'), 404);
    expectError(await alice.call('POST', '/api/getAppData'), 405);
  });

  it('takes client log events without a token', async () => {
    const answer = await alice.withToken(null).call('POST', '/api/log', {
      body: { event: 'Video permissions denied', properties: { device: 'test' } },
    });
    expect(answer.status).toBe(200);
    expectError(await alice.withToken(null).call('POST', '/api/log', { body: {} }), 400, /event is required/);
  });

  it('refuses deep, wide or long log properties with 400, never a 500', async () => {
    const anonymous = alice.withToken(null);
    const deep = `{"event":"x","properties":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}}`;
    expectError(await anonymous.call('POST', '/api/log', { rawBody: deep }), 400, /levels deep/);
    const deepArray = `{"event":"x","properties":{"a":${'['.repeat(6000)}${']'.repeat(6000)}}}`;
    expectError(await anonymous.call('POST', '/api/log', { rawBody: deepArray }), 400, /levels deep/);
    const nested = { a: { b: { c: { d: 1 } } } };
    expectError(
      await anonymous.call('POST', '/api/log', { body: { event: 'x', properties: nested } }),
      400,
      /at most 3 levels/,
    );
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i]));
    expectError(
      await anonymous.call('POST', '/api/log', { body: { event: 'x', properties: wide } }),
      400,
      /at most 50 keys/,
    );
    expectError(
      await anonymous.call('POST', '/api/log', {
        body: { event: 'x', properties: { text: 'y'.repeat(5000) } },
      }),
      400,
      /at most 4000 characters/,
    );
    const fine = { screen: 'Scan', camera: { facing: 'environment', sizes: [640, 480] } };
    expect(
      (await anonymous.call('POST', '/api/log', { body: { event: 'x', properties: fine } })).status,
    ).toBe(200);
  });

  it('refuses a deeply nested appData on upload at once, and stores nothing', async () => {
    const image = jpegDataUrl(await sampleReceiptJpeg(1));
    const depth = 2_000_000;
    const rawBody = `{"userId":"${alice.userId}","fileName":"1710000000009-receipt.jpg","imgSrc":"${image}","appData":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expectError(await alice.call('POST', '/api/upload', { rawBody }), 400, /levels deep/);
    expect(await takeSnapshot()).toEqual(snapshot);
  });

  it('lets only an admin list, create and delete test records, and only test records', async () => {
    for (const client of [alice, alice.withToken(null)]) {
      expect([401, 403]).toContain((await client.call('GET', '/api/storage/tables')).status);
      expect([401, 403]).toContain(
        (await client.call('POST', '/api/storage/records', { body: { table: 'Receipts' } })).status,
      );
    }
    expectError(
      await alice.call('GET', '/api/storage/records', { query: { table: 'Receipts' } }),
      403,
      /administrator/,
    );

    const tables = await admin.call<{ tables: string[] }>('GET', '/api/storage/tables');
    expect(tables.status).toBe(200);
    expect(tables.body.tables).toEqual(expect.arrayContaining(['Users', 'Receipts', 'Items', 'ScanQueue']));
    const created = await admin.call<{ partitionKey: string; rowKey: string }>(
      'POST',
      '/api/storage/records',
      {
        body: { table: 'Brands' },
      },
    );
    expect(created.status).toBe(201);
    const listed = await admin.call<{ records: { rowKey: string }[] }>('GET', '/api/storage/records', {
      query: { table: 'Brands' },
    });
    expect(listed.body.records.map((r) => r.rowKey)).toContain(created.body.rowKey);
    // Users' rows are never listed, even to an admin.
    const receipts = await admin.call<{ records: { partitionKey: string }[] }>(
      'GET',
      '/api/storage/records',
      {
        query: { table: 'Receipts' },
      },
    );
    expect(receipts.status).toBe(200);
    expect(receipts.body.records).toEqual([]);
    expectError(await admin.call('GET', '/api/storage/records', { query: { table: 'Nope' } }), 404);
    expectError(
      await admin.call('DELETE', '/api/storage/records', {
        query: { table: 'Receipts', partitionKey: alice.userId, rowKey: aliceReceiptId },
      }),
      403,
      /Only test records/,
    );
    const deleted = await admin.call('DELETE', '/api/storage/records', {
      query: { table: 'Brands', partitionKey: created.body.partitionKey, rowKey: created.body.rowKey },
    });
    expect(deleted.status).toBe(200);
    expect(await takeSnapshot()).toEqual(snapshot);
  });
});
