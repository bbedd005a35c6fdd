import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES, listAllEntities, type Analyzer, type AppData } from '@receipts/core';
import type { LoginAnswer } from '@receipts/core/contract/requests';
import { DictionaryEnricher } from '@receipts/enricher-brands';
import { FakeAnalyzer, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { SAMPLE_RECEIPTS, anotherCopy, sampleReceiptJpeg } from '../support/receipt-images';
import { jpegDataUrl, type ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

/**
 * The whole pipeline through HTTP against the real local stack (Azurite, Auth emulator, OCR):
 * upload, queue, analysis, reports, image, delete.
 */
describe('upload → analysis → reports → delete', () => {
  const enricher = new DictionaryEnricher();
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  const fileNames = SAMPLE_RECEIPTS.map((_, i) => `${1710000000000 + i}-receipt.jpg`);

  beforeAll(async () => {
    env = await startTestStack();
    alice = await signUpClient(env.stack, 'alice@example.com', 'Alice');
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('records the signed-in user on login', async () => {
    const answer = await alice.call<LoginAnswer>('POST', '/api/login', {
      body: { user_id: alice.userId, user_email: 'alice@example.com', user_name: 'Alice' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ user_id: alice.userId, user_email: 'alice@example.com' });
  });

  it('accepts uploads at once with status "false" and lists them with an image URL, not the image', async () => {
    for (const [i, fileName] of fileNames.entries()) {
      const answer = await alice.upload(fileName, jpegDataUrl(await sampleReceiptJpeg(i)));
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ fileName, status: 'false' });
    }
    const queue = await alice.listQueue();
    expect(queue.status).toBe(200);
    // The worker may have finished the first already; the rest are still listed.
    expect(queue.body.length).toBeGreaterThanOrEqual(1);
    for (const entry of queue.body) {
      expect(fileNames).toContain(entry.fileName);
      expect(['false', 'Analyzing']).toContain(entry.status);
      expect(entry.image).toBe(`/api/getImage?userId=${alice.userId}&blobName=${entry.fileName}`);
    }
  });

  it('analyses every upload into receipts, merchants and items that match the printed receipts', async () => {
    expect(await alice.waitForQueue()).toEqual([]);
    const { status, body } = await alice.getAppData();
    expect(status).toBe(200);
    expect(body.reportReceipts).toHaveLength(SAMPLE_RECEIPTS.length);
    for (const [i, sample] of SAMPLE_RECEIPTS.entries()) {
      const receipt = body.reportReceipts.find((r) => r.document_url.endsWith(`/${fileNames[i]}`));
      expect(receipt, sample.name).toBeDefined();
      expect(receipt).toMatchObject({
        merchant_name: sample.truth.merchant.name,
        transaction_date: sample.truth.receipt.transaction_date,
        total_amount: sample.truth.receipt.total_amount,
        currency_code: sample.truth.receipt.currency_code,
        user_id: alice.userId,
      });
      const items = body.reportProductItems.filter((item) => item.receipt_id === receipt!.receipt_id);
      expect(items.map((item) => [item.description, item.total_price])).toEqual(
        sample.truth.items.map((item) => [item.description, item.total_price]),
      );
      // Each item carries the brand the shipped dictionary gives its description.
      expect(items.map((item) => item.brand)).toEqual(
        sample.truth.items.map((item) => enricher.brandFor(item.description)?.brand ?? null),
      );
      for (const item of items) {
        expect(item.merchant_name).toBe(sample.truth.merchant.name);
        expect(item.receipt_transaction_date).toBe(sample.truth.receipt.transaction_date);
      }
      const merchant = body.reportMerchants.find((m) => m.merchant_id === receipt!.merchant_id);
      expect(merchant).toMatchObject({
        name: sample.truth.merchant.name,
        merchant_total_amount: sample.truth.receipt.total_amount,
        merchant_first_visit: sample.truth.receipt.transaction_date,
        merchant_last_visit: sample.truth.receipt.transaction_date,
      });
    }
    expectBrandsMatchItems(body);
    // Heinz was bought in dollars and in pounds: kept apart, never added together.
    const heinz = body.brands.find((b) => b.name === 'Heinz');
    expect(heinz).toMatchObject({
      purchases: 2,
      owning_corporation: enricher.brandFor('HEINZ KETCHUP')?.owning_corporation,
      totals_by_currency: { GBP: 3.3, USD: 3.49 },
    });
    const owners = new Set(body.brands.map((b) => b.owning_corporation).filter(Boolean));
    expect(new Set(body.corporations.map((c) => c.name))).toEqual(owners);
  });

  it('re-uses the merchant when the same shop is scanned again', async () => {
    const again = `${1720000000000}-receipt.jpg`;
    // Another photo of the same receipt (the very same bytes would be refused as a duplicate).
    const copy = await anotherCopy(await sampleReceiptJpeg(0));
    expect((await alice.upload(again, jpegDataUrl(copy))).status).toBe(202);
    expect(await alice.waitForQueue()).toEqual([]);
    const { body } = await alice.getAppData();
    expect(body.reportReceipts).toHaveLength(SAMPLE_RECEIPTS.length + 1);
    expect(body.reportMerchants).toHaveLength(SAMPLE_RECEIPTS.length);
    const truth = SAMPLE_RECEIPTS[0]!.truth;
    const merchant = body.reportMerchants.find((m) => m.name === truth.merchant.name)!;
    expect(merchant.merchant_total_amount).toBeCloseTo(2 * truth.receipt.total_amount, 2);
    expectBrandsMatchItems(body);
    fileNames.push(again);
  });

  it('serves the stored image as a data URL', async () => {
    const answer = await alice.getImage(fileNames[1]!);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(jpegDataUrl(await sampleReceiptJpeg(1)));
  });

  it('compresses large report answers for clients that accept gzip', async () => {
    const answer = await alice.call<AppData>('GET', '/api/getAppData', {
      query: { userId: alice.userId },
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.reportReceipts).toHaveLength(fileNames.length);
  });

  it('deletes each receipt with everything that belongs to it, leaving nothing behind', async () => {
    const before = (await alice.getAppData()).body;
    for (const receipt of before.reportReceipts) {
      const blobName = receipt.document_url.split('/').pop()!;
      const answer = await alice.deleteReceipt(receipt.receipt_id, blobName);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ deleted: true, receiptId: receipt.receipt_id });
      const after = (await alice.getAppData()).body;
      expect(after.reportReceipts.map((r) => r.receipt_id)).not.toContain(receipt.receipt_id);
      expect(after.reportProductItems.some((i) => i.receipt_id === receipt.receipt_id)).toBe(false);
      expectBrandsMatchItems(after);
    }
    const empty = (await alice.getAppData()).body;
    expect(empty).toMatchObject({
      reportReceipts: [],
      reportMerchants: [],
      reportProductItems: [],
      brands: [],
      corporations: [],
    });
    const { store, blobs } = env.stack.services;
    const uid = alice.userId;
    expect(await listAllEntities(store, TABLES.receipts, { partitionKey: uid })).toEqual([]);
    expect(await listAllEntities(store, TABLES.merchants, { partitionKey: uid })).toEqual([]);
    expect(await listAllEntities(store, TABLES.items, { partitionKeyPrefix: `${uid}~` })).toEqual([]);
    expect(await listAllEntities(store, TABLES.taxes, { partitionKeyPrefix: `${uid}~` })).toEqual([]);
    expect(await listAllEntities(store, TABLES.scanQueue, { partitionKey: uid })).toEqual([]);
    expect(await blobs.list(`${uid}/`)).toEqual([]);
    const gone = await alice.getImage(fileNames[0]!);
    expect(gone.status).toBe(404);
  });

  it('shows a scan that cannot be read as Failed with the reason, analyses it again on retryScan, and discards it on delete', async () => {
    const fileName = '1740000000000-receipt.jpg';
    // JPEG magic bytes pass the upload check; the image itself is unreadable.
    const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    expect((await alice.upload(fileName, jpegDataUrl(broken))).status).toBe(202);
    const [failed] = await alice.waitForQueue();
    expect(failed).toMatchObject({ fileName, status: 'Failed', attempts: 1 });
    expect(failed!.reason).toMatch(/could not be read/);

    const retry = await alice.call('POST', '/api/retryScan', { body: { userId: alice.userId, fileName } });
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ fileName, status: 'false' });
    const [again] = await alice.waitForQueue();
    expect(again).toMatchObject({ fileName, status: 'Failed', attempts: 1 });

    const gone = await alice.deleteReceipt(`${alice.userId}~${fileName}`, fileName);
    expect(gone.status).toBe(200);
    expect((await alice.listQueue()).body).toEqual([]);
    expect(await env.stack.services.blobs.list(`${alice.userId}/`)).toEqual([]);
    const nothing = await alice.call('POST', '/api/retryScan', { body: { userId: alice.userId, fileName } });
    expect(nothing.status).toBe(404);
  });
});

/**
 * Receipts deleted 0–100 ms after their upload, while the scan worker has them (the delete answers
 * 409 and is repeated once the queue is done), on a stack whose analysis is the fake analyzer after
 * a pause of up to 100 ms rather than OCR: the race is between the delete and the worker's claim and
 * writes, which seconds of OCR per scan would only make longer.
 */
describe('a delete racing the scan worker', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let bob: ApiClient;

  beforeAll(async () => {
    const fake = new FakeAnalyzer();
    const analyzer: Analyzer = {
      name: fake.name,
      analyze: async (image) => {
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 101)));
        return fake.analyze(image);
      },
    };
    env = await startTestStack({ analyzer });
    bob = await signUpClient(env.stack, 'bob@example.com', 'Bob');
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('never brings back a receipt deleted right after its upload, whatever the worker was doing', async () => {
    const image = jpegDataUrl(
      fakeReceiptImage({
        merchant: 'Shop One',
        date: '2024-05-05',
        total: 4.5,
        items: [{ description: 'TEA', price: 4.5 }],
      }),
    );
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) {
      const fileName = `${1750000000000 + i}-receipt.jpg`;
      expect((await bob.upload(fileName, image)).status).toBe(202);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 101)));
      const receiptId = `${bob.userId}~${fileName}`;
      let deleted = await bob.deleteReceipt(receiptId, fileName);
      answers.push(deleted.status);
      // 409 while the worker holds the scan: delete again once it is done.
      if (deleted.status === 409) {
        await bob.waitForQueue();
        deleted = await bob.deleteReceipt(receiptId, fileName);
      }
      expect(deleted.status).toBe(200);
    }
    await bob.waitForQueue();
    // A worker that lost its claim may still be writing: wait until it has finished whatever it was doing.
    await env.stack.idle();
    expect((await bob.listQueue()).body).toEqual([]);
    expect((await bob.getAppData()).body.reportReceipts).toEqual([]);
    expect(
      await listAllEntities(env.stack.services.store, TABLES.receipts, { partitionKey: bob.userId }),
    ).toEqual([]);
    expect(await env.stack.services.blobs.list(`${bob.userId}/`)).toEqual([]);
    expect(answers.every((status) => status === 200 || status === 409)).toBe(true);
  }, 240_000);
});

/** Brand purchases and totals must be exactly what the items of the report add up to. */
function expectBrandsMatchItems(data: AppData): void {
  const expected = new Map<string, { purchases: number; total: number }>();
  for (const item of data.reportProductItems) {
    if (!item.brand) continue;
    const entry = expected.get(item.brand) ?? { purchases: 0, total: 0 };
    entry.purchases += 1;
    entry.total += item.total_price ?? 0;
    expected.set(item.brand, entry);
  }
  expect(data.brands.map((b) => b.name).sort()).toEqual([...expected.keys()].sort());
  for (const brand of data.brands) {
    const want = expected.get(brand.name)!;
    expect(brand.purchases).toBe(want.purchases);
    expect(
      brand.totals_by_currency
        ? Object.values(brand.totals_by_currency).reduce((a, b) => a + b, 0)
        : brand.total,
    ).toBeCloseTo(want.total, 2);
  }
}
