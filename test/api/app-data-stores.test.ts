import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  REQUIRED_TABLES,
  TABLES,
  deleteReceiptData,
  getAppData,
  listAllEntities,
  processScan,
  silentLogger,
  uploadReceipt,
  type ScanWorkerDeps,
  type TableStore,
} from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { LocalBlobStore } from '@receipts/blob-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite } from '../../lambdas/src/local/azurite';
import { startDynalite } from '../../lambdas/src/local/dynalite';
import {
  FakeAnalyzer,
  RecordingQueue,
  dataUrlOf,
  fakeReceiptImage,
  identity,
  type FakeReceipt,
} from '../../packages/core/test/support/fakes';

/**
 * The store-level part of getAppData (table layout, key-range reads, one transaction per receipt,
 * merchant re-use, delete) against both real table stores: Azurite and dynalite.
 */
const backends: { name: string; start: () => Promise<{ store: TableStore; stop: () => Promise<void> }> }[] = [
  {
    name: 'Azure Tables (Azurite)',
    start: async () => {
      const location = await mkdtemp(join(tmpdir(), 'receipts-azurite-'));
      const azurite = await startAzurite({ location, silent: true });
      return {
        store: AzureTableStore.fromConnectionString(azurite.connectionString),
        stop: async () => {
          await azurite.stop();
          await rm(location, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'DynamoDB (dynalite)',
    start: async () => {
      const dynalite = await startDynalite();
      const client = new DynamoDBClient({
        endpoint: dynalite.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await createStoreTable(client, 'receipts');
      return {
        store: new DynamoTableStore({ client, tableName: 'receipts' }),
        stop: async () => {
          client.destroy();
          await dynalite.stop();
        },
      };
    },
  },
];

const shop = (over: Partial<FakeReceipt> = {}): FakeReceipt => ({
  merchant: 'Delhaize Ixelles',
  postal: '1050',
  date: '2024-02-10',
  total: 7.5,
  tax: 0.42,
  items: [
    { description: 'COCA-COLA ZERO', price: 2.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
    { description: "KELLOGG'S CORN FLAKES", price: 5, brand: "Kellogg's", owner: 'WK Kellogg Co' },
  ],
  ...over,
});

describe.each(backends)('report data on $name', ({ start }) => {
  let store: TableStore;
  let stop: () => Promise<void>;
  let blobDir: string;
  let deps: { store: TableStore; blobs: LocalBlobStore; queue: RecordingQueue; logger: typeof silentLogger };
  let worker: ScanWorkerDeps;

  // Two users whose ids share a prefix: one's key range must not reach the other's rows.
  const ann = identity('ann');
  const annex = identity('ann-x');

  beforeAll(async () => {
    ({ store, stop } = await start());
    for (const table of REQUIRED_TABLES) await store.createTable(table);
    blobDir = await mkdtemp(join(tmpdir(), 'receipts-blobs-'));
    const blobs = new LocalBlobStore({ root: blobDir });
    deps = { store, blobs, queue: new RecordingQueue(), logger: silentLogger };
    worker = { ...deps, analyzer: new FakeAnalyzer(), maxAttempts: 3 };
  });
  afterAll(async () => {
    await stop?.();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  async function scan(who: typeof ann, fileName: string, receipt: FakeReceipt) {
    await uploadReceipt(deps, who, {
      userId: who.uid,
      fileName,
      imgSrc: dataUrlOf(fakeReceiptImage(receipt)),
    });
    const job = deps.queue.jobs.shift()!.job;
    return processScan(worker, job);
  }

  it("builds each user's reports from that user's rows only", async () => {
    expect((await scan(ann, '1-receipt.jpg', shop())).outcome).toBe('analysed');
    expect(
      (
        await scan(
          ann,
          '2-receipt.jpg',
          shop({ merchant: 'DELHAIZE  ixelles', date: '2024-03-01', total: 2.5, items: [shop().items[0]!] }),
        )
      ).outcome,
    ).toBe('analysed');
    expect((await scan(annex, '1-receipt.jpg', shop({ merchant: 'Aldi', postal: null }))).outcome).toBe(
      'analysed',
    );

    const data = await getAppData(deps, ann, { userId: 'ann' });
    expect(data.reportReceipts.map((r) => r.receipt_id).sort()).toEqual([
      'ann~1-receipt.jpg',
      'ann~2-receipt.jpg',
    ]);
    expect(data.reportProductItems).toHaveLength(3);
    expect(data.reportProductItems.every((i) => i.user_id === 'ann')).toBe(true);
    expect(data.reportMerchants).toHaveLength(1);
    expect(data.reportMerchants[0]).toMatchObject({
      name: 'Delhaize Ixelles',
      merchant_total_amount: 10,
      merchant_first_visit: '2024-02-10',
      merchant_last_visit: '2024-03-01',
    });
    expect(data.brands.map((b) => [b.name, b.purchases, b.total])).toEqual([
      ['Coca-Cola', 2, 5],
      ["Kellogg's", 1, 5],
    ]);
    expect(data.corporations.map((c) => c.name)).toEqual(['The Coca-Cola Company', 'WK Kellogg Co']);

    const other = await getAppData(deps, annex, { userId: 'ann-x' });
    expect(other.reportReceipts.map((r) => r.receipt_id)).toEqual(['ann-x~1-receipt.jpg']);
    expect(other.reportMerchants.map((m) => m.name)).toEqual(['Aldi']);
  });

  it('writes once when the same job is delivered again', async () => {
    const before = await listAllEntities(store, TABLES.items, { partitionKeyPrefix: 'ann~' });
    await expect(processScan(worker, { userId: 'ann', fileName: '1-receipt.jpg' })).resolves.toEqual({
      outcome: 'skipped',
    });
    expect(await listAllEntities(store, TABLES.items, { partitionKeyPrefix: 'ann~' })).toHaveLength(
      before.length,
    );
  });

  it('deletes a receipt with its rows; the merchant goes with the last one', async () => {
    await deleteReceiptData(deps, ann, {
      userId: 'ann',
      receiptId: 'ann~1-receipt.jpg',
      blobName: '1-receipt.jpg',
    });
    let data = await getAppData(deps, ann, { userId: 'ann' });
    expect(data.reportReceipts.map((r) => r.receipt_id)).toEqual(['ann~2-receipt.jpg']);
    expect(data.brands.map((b) => [b.name, b.purchases, b.total])).toEqual([['Coca-Cola', 1, 2.5]]);
    expect(await listAllEntities(store, TABLES.taxes, { partitionKey: 'ann~1-receipt.jpg' })).toEqual([]);

    await deleteReceiptData(deps, ann, { userId: 'ann', receiptId: 'ann~2-receipt.jpg' });
    data = await getAppData(deps, ann, { userId: 'ann' });
    expect(data).toMatchObject({
      reportReceipts: [],
      reportMerchants: [],
      brands: [],
      reportProductItems: [],
    });
    expect(await listAllEntities(store, TABLES.merchants, { partitionKey: 'ann' })).toEqual([]);
    expect(await listAllEntities(store, TABLES.items, { partitionKeyPrefix: 'ann~' })).toEqual([]);
    expect(await deps.blobs.list('ann/')).toEqual([]);
    // The other user's data is untouched.
    expect((await getAppData(deps, annex, { userId: 'ann-x' })).reportReceipts).toHaveLength(1);
  });
});
