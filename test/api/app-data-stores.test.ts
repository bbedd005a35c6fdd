import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TABLES,
  deleteReceiptData,
  getAppData,
  listAllEntities,
  processScan,
  registerFcmToken,
  repositories,
  silentLogger,
  type ReportsCache,
  createReportCache,
  unregisterFcmToken,
  uploadReceipt,
  type ScanWorkerDeps,
  type TableStore,
} from '@receipts/core';
import { LocalBlobStore } from '@receipts/blob-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeAnalyzer,
  RecordingNotifier,
  RecordingQueue,
  dataUrlOf,
  fakeReceiptImage,
  identity,
  type FakeReceipt,
} from '../../packages/core/test/support/fakes';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * The store-level part of getAppData (table layout, key-range reads, one transaction per receipt,
 * merchant re-use, delete) against both real table stores: Azurite and dynalite.
 */
const backends = STORE_BACKENDS;

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
  let deps: {
    store: TableStore;
    blobs: LocalBlobStore;
    queue: RecordingQueue;
    logger: typeof silentLogger;
    reportCache: ReportsCache;
  };
  let worker: ScanWorkerDeps;

  // Two users whose ids share a prefix: one's key range must not reach the other's rows.
  const ann = identity('ann');
  const annex = identity('ann-x');

  beforeAll(async () => {
    ({ store, stop } = await start());
    blobDir = await mkdtemp(join(tmpdir(), 'receipts-blobs-'));
    const blobs = new LocalBlobStore({ root: blobDir });
    deps = {
      store,
      blobs,
      queue: new RecordingQueue(),
      logger: silentLogger,
      reportCache: createReportCache(),
    };
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

  /** A worker whose analyzer waits at a gate the test opens. */
  function gatedWorker(over: Partial<ScanWorkerDeps> = {}) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const inner = new FakeAnalyzer();
    const gated: ScanWorkerDeps = {
      ...worker,
      ...over,
      analyzer: {
        name: 'gated',
        analyze: async (image) => {
          entered();
          await gate;
          return inner.analyze(image);
        },
      },
    };
    return { gated, started, open };
  }

  // A delete that finds the claim past its lease goes ahead instead of answering 409; the worker
  // may still be running (slow, not dead), and must then write nothing back.
  const later = () => ({ ...deps, now: () => new Date(Date.now() + 60 * 60_000) });

  const upload = (who: typeof ann, fileName: string, receipt: FakeReceipt) =>
    uploadReceipt(deps, who, { userId: who.uid, fileName, imgSrc: dataUrlOf(fakeReceiptImage(receipt)) });

  it("accepts one of two uploads of one name at once and keeps that upload's image", async () => {
    const who = identity('racer');
    const receipts = [shop({ total: 1 }), shop({ total: 2 })];
    const answers = await Promise.allSettled(receipts.map((r) => upload(who, 'same.jpg', r)));
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = answers.find((a) => a.status === 'rejected')!;
    expect(refused.reason).toMatchObject({ name: 'ConflictError' });
    const kept = receipts[answers.findIndex((a) => a.status === 'fulfilled')]!;
    const image = await deps.blobs.get('racer/same.jpg');
    expect(Buffer.from(image!.bytes).equals(Buffer.from(fakeReceiptImage(kept)))).toBe(true);
    deps.queue.jobs.length = 0;
  });

  it('never brings back a scan deleted while it was analysed', async () => {
    const who = identity('deleter');
    await upload(who, 'gone.jpg', shop());
    const job = deps.queue.jobs.shift()!.job;
    const { gated, started, open } = gatedWorker();
    const running = processScan(gated, job);
    await started;
    await deleteReceiptData(later(), who, { userId: who.uid, receiptId: 'deleter~gone.jpg' });
    open();
    expect((await running).outcome).toBe('skipped');
    expect(await deps.blobs.list('deleter/')).toEqual([]);
    expect(await listAllEntities(store, TABLES.scanQueue, { partitionKey: who.uid })).toEqual([]);
    expect(await listAllEntities(store, TABLES.receipts, { partitionKey: who.uid })).toEqual([]);
  });

  it('takes back what a scan wrote when it was deleted during the writes', async () => {
    const who = identity('midwrite');
    await upload(who, 'half.jpg', shop());
    const job = deps.queue.jobs.shift()!.job;
    const blobs = Object.create(deps.blobs) as LocalBlobStore;
    let deleted = false;
    blobs.put = async (key, bytes, type) => {
      await deps.blobs.put(key, bytes, type);
      if (key.endsWith('.analysis.json') && !deleted) {
        deleted = true;
        await deleteReceiptData(later(), who, { userId: who.uid, receiptId: 'midwrite~half.jpg' });
      }
    };
    expect((await processScan({ ...worker, blobs }, job)).outcome).toBe('skipped');
    expect(deleted).toBe(true);
    expect(await listAllEntities(store, TABLES.receipts, { partitionKey: who.uid })).toEqual([]);
    expect(await listAllEntities(store, TABLES.items, { partitionKeyPrefix: 'midwrite~' })).toEqual([]);
    expect(await listAllEntities(store, TABLES.merchants, { partitionKey: who.uid })).toEqual([]);
    expect(await deps.blobs.list('midwrite/')).toEqual([]);
  });

  it('makes one merchant of two scans of a new shop at once, with what each one read', async () => {
    const who = identity('twoscans');
    deps.queue.jobs.length = 0;
    await upload(who, 'a.jpg', shop({ phone: '02 640 00 00' }));
    await upload(who, 'b.jpg', shop({ city: 'Ixelles' }));
    const jobs = deps.queue.jobs.splice(0).map((j) => j.job);
    const { gated, started, open } = gatedWorker();
    const runs = jobs.map((job) => processScan(gated, job));
    await started;
    open();
    expect((await Promise.all(runs)).map((r) => r.outcome)).toEqual(['analysed', 'analysed']);
    const data = await getAppData(deps, who, { userId: who.uid });
    expect(data.reportMerchants).toHaveLength(1);
    expect(data.reportMerchants[0]).toMatchObject({ phone_number: '02 640 00 00', city: 'Ixelles' });
    expect(new Set(data.reportReceipts.map((r) => r.merchant_id))).toEqual(
      new Set([data.reportMerchants[0]!.merchant_id]),
    );
  });

  it('keeps the merchant when its last receipt is deleted while another scan of it is written', async () => {
    const who = identity('lastone');
    expect((await scan(who, 'first.jpg', shop())).outcome).toBe('analysed');
    await upload(who, 'second.jpg', shop({ total: 3 }));
    const job = deps.queue.jobs.shift()!.job;
    const blobs = Object.create(deps.blobs) as LocalBlobStore;
    blobs.put = async (key, bytes, type) => {
      // The second scan has written its merchant, not yet its receipt.
      if (key.endsWith('.analysis.json'))
        await deleteReceiptData(deps, who, { userId: who.uid, receiptId: 'lastone~first.jpg' });
      await deps.blobs.put(key, bytes, type);
    };
    expect((await processScan({ ...worker, blobs }, job)).outcome).toBe('analysed');
    const receipts = await listAllEntities(store, TABLES.receipts, { partitionKey: who.uid });
    expect(receipts.map((r) => r.rowKey)).toEqual(['lastone~second.jpg']);
    const merchants = await listAllEntities(store, TABLES.merchants, { partitionKey: who.uid });
    expect(merchants.map((m) => m.rowKey)).toEqual([receipts[0]!.merchant_id]);
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

  it('moves a push token to the user who registers it last, and notifies only that user', async () => {
    const repos = repositories(store);
    await registerFcmToken(deps, ann, { userId: 'ann', fcmToken: 'shared-device' });
    await registerFcmToken(deps, ann, { userId: 'ann', fcmToken: 'ann-phone' });
    await registerFcmToken(deps, annex, { userId: 'ann-x', fcmToken: 'shared-device' });

    expect((await repos.users.getUser('ann'))?.fcm_tokens).toEqual(['ann-phone']);
    expect((await repos.users.getUser('ann-x'))?.fcm_tokens).toEqual(['shared-device']);
    // Registering it again is harmless, and the latest registration wins back and forth.
    await registerFcmToken(deps, annex, { userId: 'ann-x', fcmToken: 'shared-device' });
    await registerFcmToken(deps, ann, { userId: 'ann', fcmToken: 'shared-device' });
    expect((await repos.users.getUser('ann'))?.fcm_tokens).toEqual(['ann-phone', 'shared-device']);
    expect((await repos.users.getUser('ann-x'))?.fcm_tokens).toEqual([]);

    const notifier = new RecordingNotifier();
    await uploadReceipt(deps, annex, {
      userId: 'ann-x',
      fileName: '9-receipt.jpg',
      imgSrc: dataUrlOf(fakeReceiptImage(shop({ merchant: 'Push Shop' }))),
    });
    expect((await processScan({ ...worker, notifier }, deps.queue.jobs.shift()!.job)).outcome).toBe(
      'analysed',
    );
    // ann-x's receipt is never announced on the device that is ann's now.
    expect(notifier.sent).toEqual([]);
  });

  it('sends only to the owner when racing registrations left a token in two lists', async () => {
    const repos = repositories(store);
    await Promise.all([
      registerFcmToken(deps, ann, { userId: 'ann', fcmToken: 'raced-device' }),
      registerFcmToken(deps, annex, { userId: 'ann-x', fcmToken: 'raced-device' }),
    ]);
    // A crash between the owner row and the lists would leave the same: the token in both lists.
    await repos.users.addFcmToken('ann', 'raced-device');
    await repos.users.addFcmToken('ann-x', 'raced-device');

    const [annTokens, annexTokens] = [
      await repos.users.pushTokensOf('ann'),
      await repos.users.pushTokensOf('ann-x'),
    ];
    expect([...annTokens, ...annexTokens].filter((t) => t === 'raced-device')).toHaveLength(1);
    // The list of the user who lost it is cleaned up as well.
    const loser = annTokens.includes('raced-device') ? 'ann-x' : 'ann';
    expect((await repos.users.getUser(loser))?.fcm_tokens).not.toContain('raced-device');
  });

  it("unregisters a device's token on sign-out, leaving another user's registration of it alone", async () => {
    const repos = repositories(store);
    await registerFcmToken(deps, ann, { userId: 'ann', fcmToken: 'laptop' });
    await unregisterFcmToken(deps, ann, { userId: 'ann', fcmToken: 'laptop' });
    await unregisterFcmToken(deps, ann, { userId: 'ann', fcmToken: 'laptop' }); // twice is harmless
    expect((await repos.users.getUser('ann'))?.fcm_tokens).not.toContain('laptop');
    expect(await repos.users.pushTokensOf('ann')).not.toContain('laptop');

    // Bob signs in on ann's old laptop: ann signing out elsewhere with a stale copy changes nothing.
    await registerFcmToken(deps, annex, { userId: 'ann-x', fcmToken: 'laptop' });
    await unregisterFcmToken(deps, ann, { userId: 'ann', fcmToken: 'laptop' });
    expect(await repos.users.pushTokensOf('ann-x')).toContain('laptop');
    await expect(unregisterFcmToken(deps, ann, { userId: 'ann-x', fcmToken: 'laptop' })).rejects.toThrow(
      /your own data/,
    );
  });
});
