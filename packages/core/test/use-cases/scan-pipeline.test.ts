import { describe, expect, it } from 'vitest';
import {
  AnalyzerError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  StoreError,
  TABLES,
  deleteReceiptData,
  getAppData,
  getImage,
  listQueue,
  receiptIdFor,
  registerFcmToken,
  resumeScans,
  retryScan,
  SCAN_CLAIM_LEASE_MS,
  uploadReceipt,
  ScanRepository,
  repositories,
  itemIdFor,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity, type FakeReceipt } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');

const lidl: FakeReceipt = {
  merchant: 'LIDL Brussel',
  postal: '1000',
  date: '2024-04-02',
  total: 6.3,
  tax: 0.36,
  items: [
    { description: 'COCA-COLA 1.5L', price: 2.1, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
    { description: 'HEINZ KETCHUP', price: 4.2, brand: 'Heinz', owner: 'Kraft Heinz' },
  ],
};

const sampleEntry = {
  userId: 'alice',
  fileName: 'x.jpg',
  status: 'false' as const,
  reason: null,
  attempts: 0,
  uploaded_at: '2024-05-01T00:00:00.000Z',
  updated_at: '2024-05-01T00:00:00.000Z',
  content_type: 'image/jpeg',
};

async function upload(
  world: Awaited<ReturnType<typeof createWorld>>,
  who = alice,
  fileName = '1714560000000-receipt.jpg',
  receipt = lidl,
) {
  return uploadReceipt(world.deps, who, {
    userId: who.uid,
    fileName,
    // A photo per file name: the same bytes under another name would be refused as a duplicate.
    imgSrc: dataUrlOf(fakeReceiptImage({ photo: fileName, ...receipt })),
  });
}

describe('upload and the scan worker', () => {
  it('queues an upload with status "false" and answers before any analysis', async () => {
    const world = await createWorld();
    await expect(upload(world)).resolves.toEqual({ fileName: '1714560000000-receipt.jpg', status: 'false' });
    expect(world.analyzer.calls).toBe(0);
    expect(world.queue.jobs.map((j) => j.job)).toEqual([
      { userId: 'alice', fileName: '1714560000000-receipt.jpg' },
    ]);
    const queue = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(queue).toEqual([
      expect.objectContaining({ fileName: '1714560000000-receipt.jpg', status: 'false', attempts: 0 }),
    ]);
    // Polled every 2 s: the entry names the image instead of carrying it.
    expect(queue[0]!.image).toBe('/api/getImage?userId=alice&blobName=1714560000000-receipt.jpg');
    expect(
      await getImage(world.deps, alice, { userId: 'alice', blobName: '1714560000000-receipt.jpg' }),
    ).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('writes receipt, merchant, items, taxes, dictionaries and analysis JSON, then empties the queue and notifies', async () => {
    const world = await createWorld();
    await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken: 'device-1' });
    await upload(world);
    const [result] = await world.drain();
    const receiptId = receiptIdFor('alice', '1714560000000-receipt.jpg');
    expect(result).toEqual({ outcome: 'analysed', receiptId });
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toEqual([]);

    const data = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(data.reportReceipts).toEqual([
      expect.objectContaining({
        receipt_id: receiptId,
        merchant_name: 'LIDL Brussel',
        total_amount: 6.3,
        currency_code: 'EUR',
        transaction_date: '2024-04-02',
        document_url: 'blob://alice/1714560000000-receipt.jpg',
      }),
    ]);
    expect(data.reportMerchants[0]).toMatchObject({ name: 'LIDL Brussel', merchant_total_amount: 6.3 });
    expect(data.reportProductItems.map((i) => [i.description, i.brand, i.merchant_name])).toEqual([
      ['COCA-COLA 1.5L', 'Coca-Cola', 'LIDL Brussel'],
      ['HEINZ KETCHUP', 'Heinz', 'LIDL Brussel'],
    ]);
    expect(data.brands.map((b) => [b.name, b.purchases, b.total])).toEqual([
      ['Heinz', 1, 4.2],
      ['Coca-Cola', 1, 2.1],
    ]);
    expect(data.corporations.map((c) => c.name)).toEqual(['Kraft Heinz', 'The Coca-Cola Company']);
    expect(world.store.dump(TABLES.taxes)).toEqual([
      expect.objectContaining({ partitionKey: receiptId, amount: 0.36 }),
    ]);
    expect(world.store.dump(TABLES.brands).map((b) => [b.name, b.owning_corporation])).toEqual(
      expect.arrayContaining([['Heinz', 'Kraft Heinz']]),
    );
    const analysis = world.blobs.objects.get('alice/1714560000000-receipt.jpg.analysis.json');
    expect(JSON.parse(new TextDecoder().decode(analysis!.bytes)).result.merchant.name).toBe('LIDL Brussel');
    expect(world.notifier.sent).toEqual([
      {
        tokens: ['device-1'],
        message: expect.objectContaining({ title: 'Receipt analysed', body: 'LIDL Brussel: 6.30 EUR' }),
      },
    ]);
  });

  it("writes a receipt's items in one transaction", async () => {
    const world = await createWorld();
    const tables: string[] = [];
    const submit = world.store.submitTransaction.bind(world.store);
    world.store.submitTransaction = async (table, actions) => {
      tables.push(table);
      return submit(table, actions);
    };
    await upload(world);
    await world.drain();
    // One for items, one for taxes (the user's report totals are written besides them).
    expect(tables.filter((t) => t === TABLES.items || t === TABLES.taxes).sort()).toEqual([
      TABLES.items,
      TABLES.taxes,
    ]);
  });

  it('writes a receipt of more than 100 lines completely', async () => {
    const world = await createWorld();
    const long: FakeReceipt = {
      ...lidl,
      items: Array.from({ length: 150 }, (_, i) => ({ description: `ITEM ${i}`, price: 1 })),
      total: 150,
    };
    await upload(world, alice, 'long.jpg', long);
    await world.drain();
    const data = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(data.reportProductItems.map((i) => i.description)).toEqual(long.items.map((i) => i.description));
  });

  it('replaces the rows an interrupted earlier attempt left, so nothing doubles', async () => {
    const world = await createWorld();
    const receiptId = receiptIdFor('alice', 'again.jpg');
    // An earlier attempt wrote 150 item rows and stopped before the receipt row.
    const leftover = Array.from({ length: 150 }, (_, i) => ({
      item_id: itemIdFor(receiptId, i),
      receipt_id: receiptId,
      description: `OLD ${i}`,
      unit_price: 1,
      quantity: 1,
      total_price: 1,
      currency_code: 'EUR',
      user_id: 'alice',
      brand: null,
      owning_corporation: null,
    }));
    await repositories(world.store).receipts.replaceItems(receiptId, leftover);
    await upload(world, alice, 'again.jpg');
    await world.drain();
    const rows = world.store.dump(TABLES.items).filter((r) => r.partitionKey === receiptId);
    expect(rows.map((r) => r.description)).toEqual(lidl.items.map((i) => i.description));
  });

  it('never serves the analysis JSON or the report cache as an image', async () => {
    const world = await createWorld();
    await upload(world);
    await world.drain();
    for (const blobName of ['1714560000000-receipt.jpg.analysis.json', 'app-data.json']) {
      await expect(getImage(world.deps, alice, { userId: 'alice', blobName })).rejects.toThrow(NotFoundError);
    }
    await expect(
      uploadReceipt(world.deps, alice, {
        userId: 'alice',
        fileName: 'x.jpg.analysis.json',
        imgSrc: dataUrlOf(fakeReceiptImage(lidl)),
      }),
    ).rejects.toThrow(/may not end with/);
  });

  it('writes once when a job is delivered twice', async () => {
    const world = await createWorld();
    await upload(world);
    const job = world.queue.jobs[0]!.job;
    await world.drain();
    const rowsAfterFirst = world.store.dump(TABLES.items).length;
    await expect(world.deliver(job)).resolves.toEqual({ outcome: 'skipped' });
    expect(world.analyzer.calls).toBe(1);
    expect(world.store.dump(TABLES.items)).toHaveLength(rowsAfterFirst);
    expect(world.store.dump(TABLES.receipts)).toHaveLength(1);
  });

  it('lets only one of two simultaneous deliveries analyse', async () => {
    const world = await createWorld();
    await upload(world);
    const job = world.queue.jobs.shift()!.job;
    const results = await Promise.all([world.deliver(job), world.deliver(job)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['analysed', 'skipped']);
    expect(world.analyzer.calls).toBe(1);
  });

  it('defers a job delivered again while another delivery analyses it, and never analyses it twice', async () => {
    const world = await createWorld();
    await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken: 'device-1' });
    await upload(world);
    const job = world.queue.jobs.shift()!.job;
    const analyzer = world.worker.analyzer;
    let duplicate: Awaited<ReturnType<typeof world.deliver>> | undefined;
    let analyses = 0;
    world.worker.analyzer = {
      name: 'fake',
      analyze: async (...args) => {
        // The queue hands out the same job again while the first delivery is analysing it.
        if (analyses++ === 0) duplicate = await world.deliver(job);
        return analyzer.analyze(...args);
      },
    };
    await expect(world.deliver(job)).resolves.toMatchObject({ outcome: 'analysed' });
    expect(duplicate).toEqual({ outcome: 'deferred' });
    expect(world.analyzer.calls).toBe(1);
    expect(world.notifier.sent).toHaveLength(1);
    // The user deletes the receipt; the deferred job, delivered again, must not bring it back.
    const receiptId = receiptIdFor('alice', job.fileName);
    await deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId });
    await expect(world.deliver(job)).resolves.toEqual({ outcome: 'skipped' });
    expect(world.store.dump(TABLES.receipts)).toHaveLength(0);
  });

  it('analyses a scan left "Analyzing" by a crashed attempt once its claim has expired', async () => {
    const world = await createWorld();
    await upload(world);
    const job = world.queue.jobs.shift()!.job;
    const repos = repositories(world.store);
    const found = (await repos.scans.getQueueEntry('alice', job.fileName))!;
    // What a run that died mid-analysis leaves behind.
    await repos.scans.saveQueueEntry({
      ...found.entry,
      status: 'Analyzing',
      attempts: 1,
      updated_at: world.deps.now().toISOString(),
    });
    await expect(world.deliver(job)).resolves.toEqual({ outcome: 'deferred' });
    expect(world.analyzer.calls).toBe(0);
    world.advance(SCAN_CLAIM_LEASE_MS + 1000);
    await expect(world.deliver(job)).resolves.toMatchObject({ outcome: 'analysed' });
    expect(world.store.dump(TABLES.receipts)).toHaveLength(1);
  });

  it('on start, releases the claims of a run that died and queues those scans for analysis at once', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg');
    await upload(world, alice, '2-receipt.jpg');
    world.queue.jobs.length = 0;
    const repos = repositories(world.store);
    const found = (await repos.scans.getQueueEntry('alice', '1-receipt.jpg'))!;
    await repos.scans.saveQueueEntry({
      ...found.entry,
      status: 'Analyzing',
      attempts: 1,
      updated_at: world.deps.now().toISOString(),
    });
    await expect(resumeScans(world.deps)).resolves.toBe(2);
    const results = await world.drain();
    expect(results.map((r) => r.outcome)).toEqual(['analysed', 'analysed']);
    expect(world.store.dump(TABLES.receipts)).toHaveLength(2);
    expect(world.store.dump(TABLES.scanQueue)).toHaveLength(0);
  });

  it('re-uses a merchant seen again and keeps merchants apart per user', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg');
    await upload(world, alice, '2-receipt.jpg', {
      ...lidl,
      merchant: 'Lidl  brussel',
      date: '2024-04-09',
      total: 2.1,
    });
    await upload(world, bob, '1-receipt.jpg');
    await world.drain();
    const merchants = world.store.dump(TABLES.merchants);
    expect(merchants.filter((m) => m.partitionKey === 'alice')).toHaveLength(1);
    expect(merchants.filter((m) => m.partitionKey === 'bob')).toHaveLength(1);
    const data = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(data.reportMerchants).toHaveLength(1);
    expect(data.reportMerchants[0]).toMatchObject({
      merchant_total_amount: 8.4,
      merchant_first_visit: '2024-04-02',
      merchant_last_visit: '2024-04-09',
    });
    expect(new Set(data.reportReceipts.map((r) => r.merchant_id)).size).toBe(1);
  });

  it('retries a failed attempt with backoff and marks the scan Failed with the reason after the last', async () => {
    const world = await createWorld();
    world.analyzer.failures = [
      new AnalyzerError('The OCR engine timed out.'),
      new AnalyzerError('The OCR engine timed out.'),
      new AnalyzerError('The OCR engine timed out.'),
    ];
    await upload(world);
    const results = await world.drain();
    expect(results.map((r) => r.outcome)).toEqual(['retrying', 'retrying', 'failed']);
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed', attempts: 3, reason: 'The OCR engine timed out.' });
    expect(world.store.dump(TABLES.receipts)).toHaveLength(0);
  });

  it("shows the user a fixed reason for a storage failure, never the store's message", async () => {
    const world = await createWorld();
    world.worker.maxAttempts = 1;
    await upload(world);
    world.blobs.get = async () => {
      throw new StoreError(
        'GetObject s3://receipts-images-123456789012/alice/x.jpg at https://s3.eu-west-1.amazonaws.com failed',
      );
    };
    await world.drain();
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed' });
    expect(entry!.reason).toBe('The receipt could not be saved because a storage service was unavailable.');
    expect(entry!.reason).not.toMatch(/s3|amazonaws|alice\//);
  });

  it('queues retries with growing delays', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new StoreError('busy'), new StoreError('busy')];
    await upload(world);
    const delays: (number | undefined)[] = [];
    while (world.queue.jobs.length > 0) {
      const next = world.queue.jobs.shift()!;
      delays.push(next.delaySeconds);
      await world.deliver(next.job);
    }
    expect(delays).toEqual([undefined, 10, 20]);
    expect(world.store.dump(TABLES.receipts)).toHaveLength(1);
  });

  it('fails at once, without retrying, when the image cannot be read at all', async () => {
    const world = await createWorld();
    await uploadReceipt(world.deps, alice, {
      userId: 'alice',
      fileName: 'x.jpg',
      imgSrc: dataUrlOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x01])),
    });
    const results = await world.drain();
    expect(results.map((r) => r.outcome)).toEqual(['failed']);
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed', reason: 'No text could be read from the image.' });
  });

  it('analyses a failed scan again on retryScan, and only then', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world);
    await world.drain();
    await expect(
      retryScan(world.deps, bob, { userId: 'alice', fileName: '1714560000000-receipt.jpg' }),
    ).rejects.toThrow(ForbiddenError);
    await expect(retryScan(world.deps, alice, { userId: 'alice', fileName: 'nope.jpg' })).rejects.toThrow(
      NotFoundError,
    );
    await retryScan(world.deps, alice, { userId: 'alice', fileName: '1714560000000-receipt.jpg' });
    await expect(
      retryScan(world.deps, alice, { userId: 'alice', fileName: '1714560000000-receipt.jpg' }),
    ).rejects.toThrow(ConflictError);
    expect(await world.drain()).toEqual([expect.objectContaining({ outcome: 'analysed' })]);
  });

  it('queues a scan once when two retries arrive together, and tells the other caller why', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world);
    await world.drain();
    const input = { userId: 'alice', fileName: '1714560000000-receipt.jpg' };
    const results = await Promise.allSettled([
      retryScan(world.deps, alice, input),
      retryScan(world.deps, alice, input),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(ConflictError);
    expect(refused?.reason).toMatchObject({
      code: 'AlreadyQueued',
      message: '"1714560000000-receipt.jpg" is already queued or being analysed.',
    });
    expect(world.queue.jobs).toHaveLength(1);
  });

  it('removes push tokens the push service reports invalid', async () => {
    const world = await createWorld();
    await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken: 'old' });
    await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken: 'new' });
    world.notifier.invalid.add('old');
    await upload(world);
    await world.drain();
    expect(world.notifier.sent[0]!.tokens).toEqual(['old', 'new']);
    const row = world.store
      .dump(TABLES.users)
      .find((u) => u.partitionKey === 'alice' && u.rowKey === 'alice')!;
    expect(JSON.parse(String(row.fcm_tokens))).toEqual(['new']);
  });

  it('keeps the push token list small enough for one table property (32K characters)', async () => {
    const world = await createWorld();
    const tokens = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(4096, 'x'));
    for (const fcmToken of tokens) await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken });
    const row = world.store
      .dump(TABLES.users)
      .find((u) => u.partitionKey === 'alice' && u.rowKey === 'alice')!;
    expect(String(row.fcm_tokens).length).toBeLessThanOrEqual(32 * 1024);
    const kept = JSON.parse(String(row.fcm_tokens)) as string[];
    // The newest devices are the ones kept.
    expect(kept).toEqual(tokens.slice(-kept.length));
    expect(kept.length).toBeGreaterThanOrEqual(7);
  });

  it('refuses an upload over a receipt already analysed, and for another user', async () => {
    const world = await createWorld();
    await upload(world);
    await world.drain();
    await expect(upload(world)).rejects.toThrow(/already been analysed/);
    await expect(
      uploadReceipt(world.deps, bob, {
        userId: 'alice',
        fileName: 'y.jpg',
        imgSrc: dataUrlOf(fakeReceiptImage(lidl)),
      }),
    ).rejects.toThrow(ForbiddenError);
    expect(world.blobs.objects.has('alice/y.jpg')).toBe(false);
  });

  it('refuses an upload over a queued scan and keeps its image, job and entry', async () => {
    const world = await createWorld();
    await upload(world);
    const image = world.blobs.objects.get('alice/1714560000000-receipt.jpg');
    await expect(
      upload(world, alice, '1714560000000-receipt.jpg', { ...lidl, merchant: 'ALDI Gent' }),
    ).rejects.toMatchObject({ code: 'AlreadyQueued' });
    expect(world.blobs.objects.get('alice/1714560000000-receipt.jpg')).toBe(image);
    expect(world.queue.jobs).toHaveLength(1);
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'false', attempts: 0 });
  });

  it('never writes the image of an upload that lost the race for the queue entry', async () => {
    const world = await createWorld();
    const repos = repositories(world.store);
    const create = repos.scans.createQueueEntry.bind(repos.scans);
    // Another upload of the name inserts its entry between this upload's checks and its insert.
    const racing = await upload(world, alice, 'other.jpg');
    expect(racing.status).toBe('false');
    const getQueueEntry = ScanRepository.prototype.getQueueEntry;
    ScanRepository.prototype.getQueueEntry = async function (userId, fileName) {
      const found = await getQueueEntry.call(this, userId, fileName);
      if (fileName === 'raced.jpg' && !found) await create({ ...sampleEntry, fileName: 'raced.jpg' });
      return found;
    };
    try {
      await expect(upload(world, alice, 'raced.jpg')).rejects.toMatchObject({ code: 'UploadedTwice' });
    } finally {
      ScanRepository.prototype.getQueueEntry = getQueueEntry;
    }
    expect(world.blobs.objects.has('alice/raced.jpg')).toBe(false);
    expect(world.queue.jobs.map((j) => j.job.fileName)).toEqual(['other.jpg']);
  });

  it('keeps the upload and marks it Failed (retryable) when the queue is down', async () => {
    const world = await createWorld();
    world.queue.enqueue = async () => {
      throw new Error('queue offline');
    };
    await expect(upload(world)).rejects.toThrow(/could not be queued/);
    expect(world.blobs.objects.has('alice/1714560000000-receipt.jpg')).toBe(true);
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed' });
  });

  it('leaves a retried scan Failed (retryable), not queued with no job, when the queue is down', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world);
    await world.drain();
    world.queue.enqueue = async () => {
      throw new Error('queue offline');
    };
    const input = { userId: 'alice', fileName: '1714560000000-receipt.jpg' };
    const refused = retryScan(world.deps, alice, input);
    await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refused).rejects.toMatchObject({ code: 'QueueUnavailable' });
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/Retry it/) });
  });
});

describe('delete and report consistency', () => {
  it('removes receipt, items, taxes, image and analysis; the merchant goes with its last receipt', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg');
    await upload(world, alice, '2-receipt.jpg', {
      ...lidl,
      items: [{ description: 'COLA', price: 2.1, brand: 'Coca-Cola' }],
      total: 2.1,
    });
    await world.drain();
    const before = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(before.brands.find((b) => b.name === 'Coca-Cola')).toMatchObject({ purchases: 2, total: 4.2 });

    await deleteReceiptData(world.deps, alice, {
      userId: 'alice',
      receiptId: 'alice~1-receipt.jpg',
      blobName: '1-receipt.jpg',
    });
    const middle = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(middle.version).not.toBe(before.version);
    expect(middle.reportReceipts.map((r) => r.receipt_id)).toEqual(['alice~2-receipt.jpg']);
    expect(middle.brands.map((b) => [b.name, b.purchases, b.total])).toEqual([['Coca-Cola', 1, 2.1]]);
    expect(middle.reportMerchants).toHaveLength(1);

    await deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId: 'alice~2-receipt.jpg' });
    const after = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(after).toMatchObject({
      reportReceipts: [],
      reportMerchants: [],
      brands: [],
      reportProductItems: [],
      corporations: [],
    });
    for (const table of [TABLES.receipts, TABLES.items, TABLES.taxes, TABLES.merchants, TABLES.scanQueue]) {
      expect(world.store.dump(table)).toEqual([]);
    }
    expect([...world.blobs.objects.keys()].filter((k) => k.startsWith('alice/'))).toEqual([]);
  });

  it("refuses another user's receipt, a mismatched blobName and an unknown receipt", async () => {
    const world = await createWorld();
    await upload(world);
    await world.drain();
    const receiptId = 'alice~1714560000000-receipt.jpg';
    await expect(deleteReceiptData(world.deps, bob, { userId: 'bob', receiptId })).rejects.toThrow(
      ForbiddenError,
    );
    await expect(deleteReceiptData(world.deps, bob, { userId: 'alice', receiptId })).rejects.toThrow(
      ForbiddenError,
    );
    await expect(
      deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId, blobName: 'other.jpg' }),
    ).rejects.toThrow(/blobName does not match/);
    await expect(
      deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId: 'alice~missing.jpg' }),
    ).rejects.toThrow(NotFoundError);
    expect(world.store.dump(TABLES.receipts)).toHaveLength(1);
  });

  it('discards a failed scan that never became a receipt', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world);
    await world.drain();
    await deleteReceiptData(world.deps, alice, {
      userId: 'alice',
      receiptId: 'alice~1714560000000-receipt.jpg',
    });
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toEqual([]);
    expect([...world.blobs.objects.keys()].filter((k) => k.startsWith('alice/'))).toEqual([]);
  });
});

describe('getAppData', () => {
  it("serves a user's report from the cache the worker refreshed, and rebuilds it after a change", async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg');
    await world.drain();
    const listsAfterScan = world.store.calls.listEntities!;
    // The worker rebuilt the report data after the scan: the first read comes from the cache.
    const first = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(first.reportReceipts).toHaveLength(1);
    expect(world.store.calls.listEntities).toBe(listsAfterScan);
    expect(await getAppData(world.deps, alice, { userId: 'alice' })).toEqual(first);
    expect(world.store.calls.listEntities).toBe(listsAfterScan);

    // A change the worker did not refresh the cache for (it failed to) is still seen: the version moved.
    world.blobs.put = async () => {
      throw new Error('disk full');
    };
    await repositories(world.store).users.bumpDataVersion('alice', new Date());
    const rebuilt = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(rebuilt.version).not.toBe(first.version);
    expect(world.store.calls.listEntities).toBeGreaterThan(listsAfterScan);
  });

  it("answers only the caller's own data, and refuses another user's id", async () => {
    const world = await createWorld();
    await upload(world, alice);
    await world.drain();
    await expect(getAppData(world.deps, bob, { userId: 'alice' })).rejects.toThrow(ForbiddenError);
    const bobs = await getAppData(world.deps, bob, { userId: 'bob' });
    expect(bobs.reportReceipts).toEqual([]);
    expect(bobs.version).toBe('0');
    await expect(
      getImage(world.deps, bob, { userId: 'bob', blobName: '1714560000000-receipt.jpg' }),
    ).rejects.toThrow(NotFoundError);
  });
});
