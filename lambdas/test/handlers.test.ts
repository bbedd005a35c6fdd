import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '@receipts/core/contract/routes';
import { ServiceUnavailableError, StoreError, TransactionError } from '@receipts/core';
import { LOST_RACE_MESSAGE } from '../src/http/errors';
import {
  EXPORT_TOO_LARGE_MESSAGE,
  handler as exportCsv,
  streamHandler as exportStream,
} from '../src/handlers/export-csv';
import { DOWNLOAD_TOO_LARGE_MESSAGE, handler as downloadMyData } from '../src/handlers/download-my-data';
import { handler as deleteCorrectionRule } from '../src/handlers/delete-correction-rule';
import { handler as getAppData } from '../src/handlers/get-app-data';
import { handler as listCorrectionRules } from '../src/handlers/list-correction-rules';
import { handler as listQueue } from '../src/handlers/list-queue';
import { handler as logEvent } from '../src/handlers/log-event';
import { handler as login } from '../src/handlers/login-user';
import { handler as storageListTables } from '../src/handlers/storage-list-tables';
import { handler as upload } from '../src/handlers/upload-receipt';
import { bufferedResult, jsonText } from '../src/http/responses';
import { dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { generatedReceipts, seedReceipts } from '../../test/support/report-seed';
import { apiEvent, bodyOf, memoryServices } from './support';

let services: Awaited<ReturnType<typeof memoryServices>>;

beforeEach(async () => {
  services = await memoryServices();
});

const image = dataUrlOf(fakeReceiptImage({ merchant: 'Shop', date: '2024-01-01', total: 1, items: [] }));

describe('route handlers', () => {
  it('deployed, refuses requests that did not come through CloudFront (no or wrong origin header)', async () => {
    services.originSecret = 'origin-secret-from-deploy';
    const call = (headers: Record<string, string>) =>
      Promise.all([
        listQueue.serve(
          services,
          apiEvent('GET', '/api/listQueue', { token: 'token-alice', query: { userId: 'alice' }, headers }),
        ),
        logEvent.serve(services, apiEvent('POST', '/api/log', { body: { event: 'opened' }, headers })),
      ]);
    for (const headers of [
      {} as Record<string, string>,
      { 'x-origin-verify': 'guess' },
      { 'x-origin-verify': 'origin-secret-from-deploy!' },
    ]) {
      for (const result of await call(headers)) {
        expect(result.statusCode).toBe(403);
        expect(bodyOf(result)).toMatchObject({
          error: 'NotThroughSite',
          message: expect.stringMatching(/site/),
        });
      }
    }
    const through = await call({ 'x-origin-verify': 'origin-secret-from-deploy' });
    expect(through.map((r) => r.statusCode)).toEqual([200, 200]);
  });

  it('answers 401 with a message when the token is missing or not valid', async () => {
    for (const token of [undefined, 'forged']) {
      const result = await listQueue.serve(
        services,
        apiEvent('GET', '/api/listQueue', { token, query: { userId: 'alice' } }),
      );
      expect(result.statusCode).toBe(401);
      expect(bodyOf(result)).toEqual({
        error: expect.any(String),
        message: expect.stringMatching(/Sign in/),
      });
    }
    const malformed = await listQueue.serve(
      services,
      apiEvent('GET', '/api/listQueue', {
        headers: { authorization: 'Basic abc' },
        query: { userId: 'alice' },
      }),
    );
    expect(malformed.statusCode).toBe(401);
  });

  it("answers 403 when the userId is not the token's", async () => {
    const result = await listQueue.serve(
      services,
      apiEvent('GET', '/api/listQueue', { token: 'token-bob', query: { userId: 'alice' } }),
    );
    expect(result.statusCode).toBe(403);
    expect(bodyOf(result).message).toMatch(/own data/);
  });

  it('answers 400 naming the field when the input is wrong', async () => {
    const result = await listQueue.serve(
      services,
      apiEvent('GET', '/api/listQueue', { token: 'token-alice', query: {} }),
    );
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({
      error: 'InvalidRequest',
      message: 'Invalid query: userId is required.',
    });
    const notJson = await login.serve(
      services,
      apiEvent('POST', '/api/login', { token: 'token-alice', rawBody: 'user_id=alice' }),
    );
    expect(notJson.statusCode).toBe(400);
    expect(bodyOf(notJson).message).toMatch(/must be JSON/);
  });

  it('answers the correction rule routes per user, with 400, 403 and 404 in words', async () => {
    const list = await listCorrectionRules.serve(
      services,
      apiEvent('GET', '/api/listCorrectionRules', { token: 'token-alice', query: { userId: 'alice' } }),
    );
    expect(list.statusCode).toBe(200);
    expect(bodyOf(list)).toEqual({ rules: [], limit: 2000 });
    const remove = (token: string, query: Record<string, string>) =>
      deleteCorrectionRule.serve(services, apiEvent('DELETE', '/api/deleteCorrectionRule', { token, query }));
    const malformed = await remove('token-alice', { userId: 'alice', ruleId: 'item~../other' });
    expect(malformed.statusCode).toBe(400);
    expect(bodyOf(malformed).message).toMatch(/ruleId is not the id of a correction rule/);
    const other = await remove('token-bob', { userId: 'alice', ruleId: 'merchant~tesco' });
    expect(other.statusCode).toBe(403);
    const missing = await remove('token-alice', { userId: 'alice', ruleId: 'merchant~tesco' });
    expect(missing.statusCode).toBe(404);
    expect(bodyOf(missing).message).toMatch(/reload the list of your rules/);
  });

  it('takes an upload with 202, queues it, and lists it', async () => {
    const result = await upload.serve(
      services,
      apiEvent('POST', '/api/upload', {
        token: 'token-alice',
        body: { userId: 'alice', fileName: '1-receipt.jpg', imgSrc: image },
      }),
    );
    expect(result.statusCode).toBe(202);
    expect(bodyOf(result)).toEqual({ fileName: '1-receipt.jpg', status: 'false' });
    expect(services.queue.jobs).toHaveLength(1);
    const queue = await listQueue.serve(
      services,
      apiEvent('GET', '/api/listQueue', { token: 'token-alice', query: { userId: 'alice' } }),
    );
    expect(JSON.parse(queue.body!)).toEqual([
      expect.objectContaining({ fileName: '1-receipt.jpg', status: 'false' }),
    ]);
  });

  it('refuses a body over the limit with 413 and stores nothing', async () => {
    const result = await upload.serve(
      services,
      apiEvent('POST', '/api/upload', {
        token: 'token-alice',
        rawBody: `{"imgSrc":"${'A'.repeat(MAX_BODY_BYTES)}"}`,
      }),
    );
    expect(result.statusCode).toBe(413);
    expect(bodyOf(result).message).toMatch(/largest accepted/);
    expect(services.queue.jobs).toHaveLength(0);
  });

  it('answers 500 without internals, and 503 when a service is down', async () => {
    services.store.failNext = {
      method: 'getEntity',
      error: new Error('socket hang up at store.ts:12'),
      times: 1,
    };
    const crash = await getAppData.serve(
      services,
      apiEvent('GET', '/api/getAppData', { token: 'token-alice', query: { userId: 'alice' } }),
    );
    expect(crash.statusCode).toBe(500);
    expect(bodyOf(crash)).toEqual({
      error: 'InternalError',
      message: expect.stringContaining('request req-1'),
    });
    expect(crash.body).not.toMatch(/socket|store\.ts/);

    services.store.failNext = { method: 'getEntity', error: new StoreError('Azure said 500'), times: 1 };
    const down = await getAppData.serve(
      services,
      apiEvent('GET', '/api/getAppData', { token: 'token-alice', query: { userId: 'alice' } }),
    );
    expect(down.statusCode).toBe(503);
    expect(bodyOf(down).error).toBe('ServiceUnavailable');
    expect(down.body).not.toMatch(/Azure said/);
  });

  it('answers 409 in plain words when a write lost a race, and 503 with its own words when a service is down', async () => {
    const read = () =>
      getAppData.serve(
        services,
        apiEvent('GET', '/api/getAppData', { token: 'token-alice', query: { userId: 'alice' } }),
      );
    services.store.failNext = {
      method: 'getEntity',
      error: new TransactionError('The specified entity already exists.', {
        code: 'EntityAlreadyExists',
        status: 409,
      }),
      times: 1,
    };
    const race = await read();
    expect(race.statusCode).toBe(409);
    expect(bodyOf(race)).toEqual({ error: 'EntityAlreadyExists', message: LOST_RACE_MESSAGE });

    services.store.failNext = {
      method: 'getEntity',
      error: new TransactionError('Stale etag', { code: 'UpdateConditionNotSatisfied', status: 412 }),
      times: 1,
    };
    expect((await read()).statusCode).toBe(409);

    // A transaction refused for another reason is the store failing, not a race.
    services.store.failNext = {
      method: 'getEntity',
      error: new TransactionError('Throttled', { code: 'ThrottlingError', status: 400 }),
      times: 1,
    };
    expect((await read()).statusCode).toBe(503);

    services.store.failNext = {
      method: 'getEntity',
      error: new ServiceUnavailableError('Sign-ins cannot be checked right now. Try again in a moment.', {
        code: 'IdentityUnavailable',
      }),
      times: 1,
    };
    const down = await read();
    expect(down.statusCode).toBe(503);
    expect(bodyOf(down)).toEqual({
      error: 'ServiceUnavailable',
      message: 'Sign-ins cannot be checked right now. Try again in a moment.',
    });
  });

  it('answers getAppData for a new user with empty reports', async () => {
    const result = await getAppData.serve(
      services,
      apiEvent('GET', '/api/getAppData', { token: 'token-alice', query: { userId: 'alice' } }),
    );
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({
      version: '0',
      reportMerchants: [],
      corporations: [],
      brands: [],
      reportReceipts: [],
      reportProductItems: [],
    });
  });

  it('lets only a verified admin e-mail use the storage tester', async () => {
    expect(
      (
        await storageListTables.serve(
          services,
          apiEvent('GET', '/api/storage/tables', { token: 'token-alice' }),
        )
      ).statusCode,
    ).toBe(403);
    const unverified = await storageListTables.serve(
      services,
      apiEvent('GET', '/api/storage/tables', { token: 'token-admin-unverified' }),
    );
    expect(unverified.statusCode).toBe(403);
    const admin = await storageListTables.serve(
      services,
      apiEvent('GET', '/api/storage/tables', { token: 'token-admin' }),
    );
    expect(admin.statusCode).toBe(200);
    expect(bodyOf(admin).tables).toContain('Receipts');
  });

  it('logs client events without a token', async () => {
    const result = await logEvent.serve(
      services,
      apiEvent('POST', '/api/log', { body: { event: 'Video permissions denied' } }),
    );
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ logged: true });
    const missing = await logEvent.serve(services, apiEvent('POST', '/api/log', { body: {} }));
    expect(bodyOf(missing)).toEqual({
      error: 'InvalidRequest',
      message: 'Invalid request body: event is required.',
    });
    const wrongType = await logEvent.serve(services, apiEvent('POST', '/api/log', { body: { event: 5 } }));
    expect(bodyOf(wrongType).message).toBe('Invalid request body: event must be a string.');
  });
});

describe('JSON answers', () => {
  it('gzips large answers for clients that accept it, and only for them', () => {
    const text = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i, name: 'row' })) });
    const accepted = jsonText(
      200,
      text,
      apiEvent('GET', '/x', { headers: { 'accept-encoding': 'gzip, br' } }),
    );
    expect(accepted.headers['content-encoding']).toBe('gzip');
    expect(accepted.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(accepted.body!, 'base64')).toString()).toBe(text);
    const plain = jsonText(200, text, apiEvent('GET', '/x'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(text);
  });
});

describe('the CSV export on Lambda', () => {
  const exportEvent = (headers: Record<string, string> = {}) =>
    apiEvent('GET', '/api/exportCsv', {
      token: 'token-alice',
      query: { userId: 'alice', table: 'items' },
      headers,
    });

  beforeEach(async () => {
    await seedReceipts(services.store, 'alice', generatedReceipts('alice', 300, 10));
  });

  it('answers the whole CSV in one piece, gzipped for a client that accepts it', async () => {
    const zipped = await exportCsv.serve(services, exportEvent({ 'accept-encoding': 'gzip, deflate' }));
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-disposition']).toMatch(/^attachment; filename="items-/);
    const text = gunzipSync(Buffer.from(zipped.body!, 'base64')).toString();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'item_id,receipt_id,date,merchant,description,brand,quantity,unit_price,total_price,currency',
    );
    expect(lines).toHaveLength(1 + 3000);
    // Compressed, the answer is a fraction of the text.
    expect(zipped.body!.length).toBeLessThan(text.length / 3);

    const plain = await exportCsv.serve(services, exportEvent());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(text);
  });

  it('stops making a text answer once it is over the limit, before the rest of it is made', async () => {
    let made = 0;
    async function* rows(): AsyncGenerator<string> {
      for (let i = 0; i < 10_000; i++) {
        made++;
        yield `${'x'.repeat(99)}\n`;
      }
    }
    const streamed = { statusCode: 200, headers: {}, bodyStream: rows() };
    const plain = await bufferedResult(streamed, {
      maxBytes: 100_000,
      tooLargeMessage: EXPORT_TOO_LARGE_MESSAGE,
    });
    expect(plain.statusCode).toBe(413);
    expect(bodyOf(plain)).toMatchObject({ error: 'AnswerTooLarge' });
    // 100 characters a row: the row past 100,000 characters is the last one made.
    expect(made).toBe(1001);

    made = 0;
    const gzipped = await bufferedResult(
      { statusCode: 200, headers: {}, bodyStream: rows() },
      { maxBytes: 10_000, event: exportEvent({ 'accept-encoding': 'gzip' }) },
    );
    expect(gzipped.statusCode).toBe(413);
    // With gzip, text up to 8 times the limit is taken before it is refused.
    expect(made).toBe(801);
  });

  it('answers 413 saying how to download in parts when the export is over the answer limit', async () => {
    const result = await bufferedResult(await exportStream.serve(services, exportEvent()), {
      maxBytes: 100_000,
      tooLargeMessage: EXPORT_TOO_LARGE_MESSAGE,
    });
    expect(result.statusCode).toBe(413);
    expect(bodyOf(result)).toEqual({
      error: 'AnswerTooLarge',
      message: expect.stringMatching(/date range \(From and To\).*in parts/),
    });
  });
});

describe('the data download on Lambda', () => {
  const downloadEvent = (query: Record<string, string> = {}) =>
    apiEvent('GET', '/api/downloadMyData', { token: 'token-alice', query: { userId: 'alice', ...query } });

  beforeEach(async () => {
    await seedReceipts(services.store, 'alice', generatedReceipts('alice', 20, 3));
  });

  it('answers the ZIP in one piece, base64-encoded, with the data files and the images', async () => {
    const bytes = new Uint8Array(randomBytes(50_000));
    await services.blobs.put('alice/1700000000000-receipt.jpg', bytes, 'image/jpeg');
    const result = await downloadMyData.serve(services, downloadEvent());
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('application/zip');
    expect(result.isBase64Encoded).toBe(true);
    const files = unzipSync(Buffer.from(result.body!, 'base64'));
    expect(files['images/1700000000000-receipt.jpg']).toEqual(bytes);
    expect(JSON.parse(new TextDecoder().decode(files['receipts.json']))).toHaveLength(20);
    expect(new TextDecoder().decode(files['items.csv']).split('\r\n')).toHaveLength(1 + 60 + 1);
  });

  it('answers 413 pointing to the download without images when the images are over the answer limit, and stops reading them', async () => {
    for (let i = 0; i < 6; i++) {
      await services.blobs.put(
        `alice/170000000000${i}-receipt.jpg`,
        new Uint8Array(randomBytes(2_000_000)),
        'image/jpeg',
      );
    }
    const get = services.blobs.get.bind(services.blobs);
    let reads = 0;
    services.blobs.get = (key: string) => {
      reads++;
      return get(key);
    };
    const result = await downloadMyData.serve(services, downloadEvent());
    expect(result.statusCode).toBe(413);
    expect(bodyOf(result)).toEqual({ error: 'AnswerTooLarge', message: DOWNLOAD_TOO_LARGE_MESSAGE });
    expect(reads).toBeLessThan(6);

    const slim = await downloadMyData.serve(services, downloadEvent({ images: 'false' }));
    expect(slim.statusCode).toBe(200);
    expect(Object.keys(unzipSync(Buffer.from(slim.body!, 'base64')))).not.toContain(
      'images/1700000000000-receipt.jpg',
    );
  });
});

describe('the data download on Lambda with an export store (S3)', () => {
  /** Keeps what is saved in memory, counting the chunks as they arrive. */
  class MemoryExportStore {
    readonly linkSeconds = 900;
    readonly saved = new Map<string, { bytes: Uint8Array; contentType: string }>();
    largestChunk = 0;
    async save(key: string, stream: AsyncIterable<Uint8Array>, contentType: string): Promise<void> {
      const chunks: Uint8Array[] = [];
      for await (const chunk of stream) {
        this.largestChunk = Math.max(this.largestChunk, chunk.byteLength);
        chunks.push(chunk);
      }
      this.saved.set(key, { bytes: new Uint8Array(Buffer.concat(chunks)), contentType });
    }
    async link(key: string, fileName: string): Promise<string> {
      return `https://exports.example/${key}?name=${encodeURIComponent(fileName)}`;
    }
  }

  it('answers a link to the saved ZIP instead of 413 when the images are over the answer limit', async () => {
    const exports = new MemoryExportStore();
    services.exports = exports;
    await seedReceipts(services.store, 'alice', generatedReceipts('alice', 5, 2));
    const images: Uint8Array[] = [];
    for (let i = 0; i < 6; i++) {
      const bytes = new Uint8Array(randomBytes(2_000_000));
      images.push(bytes);
      await services.blobs.put(`alice/170000000000${i}-receipt.jpg`, bytes, 'image/jpeg');
    }
    const before = Date.now();

    const result = await downloadMyData.serve(
      services,
      apiEvent('GET', '/api/downloadMyData', { token: 'token-alice', query: { userId: 'alice' } }),
    );

    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toMatch(/application\/json/);
    const answer = bodyOf(result) as { url: string; expiresAt: string };
    const [key, saved] = [...exports.saved.entries()][0]!;
    expect(exports.saved.size).toBe(1);
    expect(key).toMatch(/^exports\/alice\/[0-9T-]+Z\.zip$/);
    expect(saved.contentType).toBe('application/zip');
    expect(answer.url).toBe(
      `https://exports.example/${key}?name=receipt-tracker-data-${new Date().toISOString().slice(0, 10)}.zip`,
    );
    const expires = Date.parse(answer.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(900_000 - 1000);
    expect(expires).toBeLessThanOrEqual(900_000 + 60_000);
    const files = unzipSync(saved.bytes);
    for (let i = 0; i < 6; i++) {
      const stored = files[`images/170000000000${i}-receipt.jpg`];
      expect(stored && Buffer.from(stored).equals(images[i]!)).toBe(true);
    }
    expect(JSON.parse(new TextDecoder().decode(files['receipts.json']))).toHaveLength(5);
    // Written as it is made, not joined first.
    expect(exports.largestChunk).toBeLessThan(12_000_000);
  });

  it("refuses another user's download with 403 and saves nothing", async () => {
    const exports = new MemoryExportStore();
    services.exports = exports;
    const result = await downloadMyData.serve(
      services,
      apiEvent('GET', '/api/downloadMyData', { token: 'token-bob', query: { userId: 'alice' } }),
    );
    expect(result.statusCode).toBe(403);
    expect(exports.saved.size).toBe(0);
  });
});
