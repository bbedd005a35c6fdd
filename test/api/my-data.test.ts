import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_TABLES, listAllEntities } from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { FakeAnalyzer, fakeReceiptImage, type FakeReceipt } from '../../packages/core/test/support/fakes';
import { jpegDataUrl, type ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

const backends = STORE_BACKENDS;

const receipt = (merchant: string, total: number, description: string): FakeReceipt => ({
  merchant,
  postal: '1000',
  date: '2024-03-05',
  total,
  tax: 0.5,
  items: [{ description, price: total }],
});

/**
 * "My data" through HTTP against the local stack on both table stores: GET /api/downloadMyData
 * answers a ZIP of the caller's own data only, and POST /api/deleteAccount removes every row and blob
 * of the caller and the Firebase account, leaving other users' data as it was.
 */
describe.each(backends)('my data on $name', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;
  const images = {
    alice1: fakeReceiptImage(receipt('Colruyt Ixelles', 12.4, 'ALICE APPLES')),
    alice2: fakeReceiptImage(receipt('Delhaize', 3.1, 'ALICE BREAD')),
    bob1: fakeReceiptImage(receipt('Aldi Forest', 8, 'BOB BEER')),
  };

  /** The download as the browser gets it: the raw bytes, with the caller's token. */
  async function download(client: ApiClient, query: Record<string, string>) {
    const url = new URL('/api/downloadMyData', client.baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const response = await fetch(url, {
      headers: client.token ? { authorization: `Bearer ${client.token}` } : {},
    });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  const deleteAccount = (client: ApiClient, body: unknown) =>
    client.call<ErrorAnswer & { deleted?: boolean }>('POST', '/api/deleteAccount', { body });

  /** Every row of every table whose keys or properties mention the text. */
  async function rowsMentioning(text: string): Promise<string[]> {
    const found: string[] = [];
    for (const table of REQUIRED_TABLES) {
      for (const row of await listAllEntities(env.stack.services.store, table)) {
        const { etag: _etag, timestamp: _timestamp, ...rest } = row as Record<string, unknown>;
        if (JSON.stringify(rest).includes(text)) found.push(`${table}: ${row.partitionKey} / ${row.rowKey}`);
      }
    }
    return found;
  }
  const blobsMentioning = async (text: string) =>
    (await env.stack.services.blobs.list('')).filter((key) => key.includes(text));

  beforeAll(async () => {
    env = await startTestStack({ storageBackend, analyzer: new FakeAnalyzer(), enricher: null });
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
    ]);
    for (const [client, name] of [
      [alice, 'Alice'],
      [bob, 'Bob'],
    ] as const) {
      const email = `${name.toLowerCase()}@example.com`;
      const login = await client.call('POST', '/api/login', {
        body: { user_id: client.userId, user_email: email, user_name: name },
      });
      expect(login.status).toBe(200);
      const token = await client.call('POST', '/api/registerFCMToken', {
        body: { userId: client.userId, fcmToken: `${name}-phone-token` },
      });
      expect(token.status).toBe(200);
    }
    expect((await alice.upload('1709600000001-receipt.jpg', jpegDataUrl(images.alice1))).status).toBe(202);
    expect((await alice.upload('1709600000002-receipt.jpg', jpegDataUrl(images.alice2))).status).toBe(202);
    expect((await bob.upload('1709600000001-receipt.jpg', jpegDataUrl(images.bob1))).status).toBe(202);
    expect(await alice.waitForQueue()).toEqual([]);
    expect(await bob.waitForQueue()).toEqual([]);
    // Builds both users' cached report data, which lives in the blob store too.
    expect((await alice.getAppData()).status).toBe(200);
    expect((await bob.getAppData()).status).toBe(200);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("downloads a ZIP of the caller's receipts, items, merchants, taxes and images, and nothing of Bob's", async () => {
    const { response, bytes } = await download(alice, { userId: alice.userId });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="receipt-tracker-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(bytes);
    const text = (path: string) => new TextDecoder().decode(files[path]);
    for (const kind of ['receipts', 'items', 'merchants', 'taxes']) {
      expect(files, kind).toHaveProperty([`${kind}.json`]);
      expect(files, kind).toHaveProperty([`${kind}.csv`]);
    }
    const receipts = JSON.parse(text('receipts.json')) as { receipt_id: string; merchant_name: string }[];
    expect(receipts.map((r) => r.merchant_name).sort()).toEqual(['Colruyt Ixelles', 'Delhaize']);
    const items = JSON.parse(text('items.json')) as { description: string }[];
    expect(items.map((i) => i.description).sort()).toEqual(['ALICE APPLES', 'ALICE BREAD']);
    expect(JSON.parse(text('merchants.json'))).toHaveLength(2);
    expect(JSON.parse(text('taxes.json'))).toHaveLength(2);
    expect(text('receipts.csv')).toMatch(/Colruyt Ixelles,.*,EUR,12\.40,0\.50,/);
    expect(text('items.csv')).toContain('ALICE BREAD');
    expect(text('merchants.csv')).toContain('Delhaize');
    expect(text('taxes.csv')).toContain('VAT,21,0.50,EUR');
    expect(files['images/1709600000001-receipt.jpg']).toEqual(images.alice1);
    expect(files['images/1709600000002-receipt.jpg']).toEqual(images.alice2);
    expect(files).toHaveProperty(['analysis/1709600000001-receipt.jpg.analysis.json']);
    expect(JSON.parse(text('account.json'))).toMatchObject({ user_email: 'alice@example.com' });
    for (const [path, content] of Object.entries(files)) {
      const body = new TextDecoder().decode(content);
      expect(body, path).not.toContain(bob.userId);
      expect(body, path).not.toMatch(/BOB BEER|Aldi|bob@example/);
    }

    // Without images: the same data files, no images.
    const slim = unzipSync((await download(alice, { userId: alice.userId, images: 'false' })).bytes);
    expect(Object.keys(slim).some((p) => p.startsWith('images/'))).toBe(false);
    expect(slim).toHaveProperty(['receipts.csv']);
  });

  it("refuses another user's data, a bad query and no token", async () => {
    const foreign = await download(bob, { userId: alice.userId });
    expect(foreign.response.status).toBe(403);
    const bad = await download(alice, { userId: alice.userId, images: 'maybe' });
    expect(bad.response.status).toBe(400);
    expect(new TextDecoder().decode(bad.bytes)).toContain("images must be 'true' or 'false'.");
    expect((await download(alice.withToken(null), { userId: alice.userId })).response.status).toBe(401);
  });

  it('refuses to delete without the typed confirmation, or for another user, and deletes nothing', async () => {
    const wrong = await deleteAccount(alice, { userId: alice.userId, confirmation: 'delete' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/type DELETE \(in capital letters\)/);
    const missing = await deleteAccount(alice, { userId: alice.userId });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/confirmation is required/);
    expect((await deleteAccount(bob, { userId: alice.userId, confirmation: 'DELETE' })).status).toBe(403);
    expect(
      (await deleteAccount(alice.withToken(null), { userId: alice.userId, confirmation: 'DELETE' })).status,
    ).toBe(401);
    expect((await alice.getAppData()).body.reportReceipts).toHaveLength(2);
  });

  it('deletes every row and blob of the account and the Firebase account; Bob keeps all of his', async () => {
    const bobRows = await rowsMentioning(bob.userId);
    const bobBlobs = await blobsMentioning(bob.userId);
    expect(await rowsMentioning(alice.userId)).not.toEqual([]);
    expect(await blobsMentioning(alice.userId)).toEqual(
      expect.arrayContaining([
        `${alice.userId}/1709600000001-receipt.jpg`,
        `${alice.userId}/1709600000001-receipt.jpg.analysis.json`,
        `cache/${alice.userId}/app-data.json`,
      ]),
    );

    const answer = await deleteAccount(alice, { userId: alice.userId, confirmation: 'DELETE' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ deleted: true });

    expect(await rowsMentioning(alice.userId)).toEqual([]);
    expect(await rowsMentioning('alice@example.com')).toEqual([]);
    expect(await rowsMentioning('ALICE')).toEqual([]);
    expect(await blobsMentioning(alice.userId)).toEqual([]);
    expect(await rowsMentioning(bob.userId)).toEqual(bobRows);
    expect(await blobsMentioning(bob.userId)).toEqual(bobBlobs);
    expect((await bob.getAppData()).body.reportReceipts).toHaveLength(1);

    // The token no longer works, and the account cannot sign in: it is gone from Firebase Auth.
    const after = await alice.listQueue();
    expect(after.status).toBe(401);
    expect((after.body as unknown as ErrorAnswer).message).toMatch(/does not exist/);
    await expect(env.stack.signIn('alice@example.com', 'correct-horse-battery')).rejects.toThrow(
      /password is wrong/,
    );
    // Had the account stayed, its e-mail address could not be signed up again (EMAIL_EXISTS).
    const fresh = await env.stack.signUp('alice@example.com', 'another-horse-battery', 'Alice');
    expect(fresh.localId).not.toBe(alice.userId);
    const bobStill = await env.stack.signIn('bob@example.com', 'correct-horse-battery');
    expect(bobStill.localId).toBe(bob.userId);
  });
});
