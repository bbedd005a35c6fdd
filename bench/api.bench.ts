/**
 * API benchmarks (`npm run bench:api`), printed figures:
 *  1. getAppData for a user with 1,000 receipts and 10,000 items, on Azurite and on dynalite, alone
 *     and with 20 other users of that size in the store (target p50 ≤ 300 ms; within 25 %);
 *  2. upload of a 1 MB image (target p50 ≤ 50 ms; analysis excluded);
 *  3. 50 receipts queued at once, analysed by the local OCR worker: none lost, receipts per minute.
 * Data is seeded through the repository, not through OCR. Sizes can be lowered with BENCH_RECEIPTS,
 * BENCH_ITEMS_PER_RECEIPT, BENCH_OTHER_USERS, BENCH_SCANS; BENCH_ONLY=appdata|upload|scans runs one part.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  REQUIRED_TABLES,
  repositories,
  TABLES,
  itemToRow,
  getAppDataJson,
  itemIdFor,
  merchantIdFor,
  receiptIdFor,
  silentLogger,
  uploadReceipt,
  type Identity,
  type ItemRow,
  type ScanJob,
  type TableStore,
  type TransactionAction,
} from '@receipts/core';
import { LocalBlobStore } from '@receipts/blob-local';
import { createJsonLogger } from '@receipts/logger-json';
import { MemoryScanQueue } from '@receipts/queue-memory';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { apiEvent } from '../lambdas/test/support';
import sharp from 'sharp';
import { loadConfig } from '../lambdas/src/config';
import { createServices, type Services } from '../lambdas/src/composition';
import { handler as getAppDataHandler } from '../lambdas/src/handlers/get-app-data';
import { handler as uploadHandler } from '../lambdas/src/handlers/upload-receipt';
import { startAzurite } from '../dev/src/azurite';
import { startDynalite } from '../dev/src/dynalite';
import { createScanWorker } from '../lambdas/src/worker';
import { SAMPLE_RECEIPTS, renderReceipt } from '../test/support/receipt-images';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const RECEIPTS = envInt('BENCH_RECEIPTS', 1000);
const ITEMS_PER_RECEIPT = envInt('BENCH_ITEMS_PER_RECEIPT', 10);
const OTHER_USERS = envInt('BENCH_OTHER_USERS', 20);
const SCANS = envInt('BENCH_SCANS', 50);
const ONLY = process.env.BENCH_ONLY;
const SAMPLES = 15;

const say = (line: string) => console.log(line);
const ms = (n: number) => `${n.toFixed(1)} ms`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
function summary(values: number[]): string {
  return `p50 ${ms(percentile(values, 50))}, p90 ${ms(percentile(values, 90))}, min ${ms(Math.min(...values))} (n=${values.length})`;
}

/** An identity verifier for the benchmark only: the token is the uid (no emulator in the loop). */
const benchIdentity = {
  verify: async (token: string): Promise<Identity> => ({ uid: token, email: null, name: null }),
  deleteAccount: async () => {},
};

async function withConcurrency<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const BRANDS: [string, string][] = [
  ['Coca-Cola', 'The Coca-Cola Company'],
  ['Heinz', 'Kraft Heinz'],
  ['Dove', 'Unilever'],
  ['Nescafé', 'Nestlé'],
  ['Milo', 'Nestlé'],
  ['Colgate', 'Colgate-Palmolive'],
  ['Cadbury', 'Mondelez International'],
  ["Kellogg's", 'WK Kellogg Co'],
];

/** Seeds one user with RECEIPTS receipts of ITEMS_PER_RECEIPT items each, through the repository. */
async function seedUser(store: TableStore, uid: string, concurrency: number): Promise<void> {
  const repos = repositories(store);
  const merchants = Array.from({ length: 40 }, (_, m) => {
    const name = `Shop ${m} of ${uid}`;
    return { name, id: merchantIdFor(name, `10${m}`) };
  });
  for (const [m, merchant] of merchants.entries()) {
    await repos.merchants.saveMerchant({
      merchant_id: merchant.id,
      name: merchant.name,
      phone_number: '+32 2 555 01 23',
      postal_code: `10${m}`,
      city: 'Brussels',
      street_address: `${m} Rue de la Loi`,
      user_id: uid,
      owning_corporation: null,
      name_key: merchant.name.toLowerCase(),
    });
  }
  const receipts = Array.from({ length: RECEIPTS }, (_, r) => r);
  await withConcurrency(receipts, concurrency, async (r) => {
    const fileName = `${1700000000000 + r}-receipt.jpg`;
    const receiptId = receiptIdFor(uid, fileName);
    const merchant = merchants[r % merchants.length]!;
    const items: ItemRow[] = Array.from({ length: ITEMS_PER_RECEIPT }, (_, i) => {
      const [brand, owner] = BRANDS[(r + i) % BRANDS.length]!;
      return {
        item_id: itemIdFor(receiptId, i),
        receipt_id: receiptId,
        description: `${brand.toUpperCase()} PRODUCT ${i}`,
        unit_price: 1.25 + i,
        quantity: 1,
        total_price: 1.25 + i,
        currency_code: 'EUR',
        user_id: uid,
        brand,
        product_type: null,
        product_identifier: null,
        vectors: null,
        owning_corporation: owner,
      };
    });
    // A new receipt's items in one transaction, as the worker writes them (without its check for
    // rows of an earlier attempt, which a fresh seed has none of).
    await store.submitTransaction(
      TABLES.items,
      items.map((item): TransactionAction => ['create', itemToRow(item)]),
    );
    const day = String(1 + (r % 28)).padStart(2, '0');
    const month = String(1 + (r % 12)).padStart(2, '0');
    await repos.receipts.saveReceipt({
      receipt_id: receiptId,
      doc_type: 'receipt',
      receipt_type: 'grocery',
      country_region: 'BE',
      merchant_id: merchant.id,
      merchant_name: merchant.name,
      total_amount: items.reduce((s, i) => s + (i.total_price ?? 0), 0),
      currency_code: 'EUR',
      total_tax: 1.5,
      transaction_date: `2024-${month}-${day}`,
      transaction_time: '12:34:56',
      user_id: uid,
      document_url: `blob://${uid}/${fileName}`,
      total_checks_out: true,
      file_name: fileName,
      analyzed_at: new Date().toISOString(),
    });
  });
  await repos.users.bumpDataVersion(uid, new Date());
}

async function measureAppData(
  services: Services,
  uid: string,
): Promise<{ cold: number[]; warm: number[]; bytes: number; gz: number }> {
  const repos = repositories(services.store);
  const cold: number[] = [];
  const warm: number[] = [];
  let bytes = 0;
  let gz = 0;
  for (let i = 0; i < SAMPLES; i++) {
    // A write of the user's data changes the version: the next read rebuilds the report.
    await repos.users.bumpDataVersion(uid, new Date());
    let t = performance.now();
    const first = await getAppDataHandler.serve(
      services,
      apiEvent('GET', '/api/getAppData', {
        token: uid,
        query: { userId: uid },
        headers: { 'accept-encoding': 'gzip' },
      }),
    );
    cold.push(performance.now() - t);
    t = performance.now();
    const second = await getAppDataHandler.serve(
      services,
      apiEvent('GET', '/api/getAppData', {
        token: uid,
        query: { userId: uid },
        headers: { 'accept-encoding': 'gzip' },
      }),
    );
    warm.push(performance.now() - t);
    if (first.statusCode !== 200 || second.statusCode !== 200)
      throw new Error(`getAppData answered ${first.statusCode}`);
    gz = Buffer.byteLength(second.body ?? '', 'base64');
  }
  const data = await getAppDataJson(services, { uid, email: null, name: null }, { userId: uid });
  bytes = Buffer.byteLength(data);
  const parsed = JSON.parse(data) as { reportReceipts: unknown[]; reportProductItems: unknown[] };
  if (
    parsed.reportReceipts.length !== RECEIPTS ||
    parsed.reportProductItems.length !== RECEIPTS * ITEMS_PER_RECEIPT
  ) {
    throw new Error(
      `getAppData returned ${parsed.reportReceipts.length} receipts, ${parsed.reportProductItems.length} items`,
    );
  }
  return { cold, warm, bytes, gz };
}

async function benchAppData(
  name: string,
  store: TableStore,
  blobDir: string,
  seedConcurrency: number,
): Promise<void> {
  say(`\n## getAppData on ${name}: ${RECEIPTS} receipts, ${RECEIPTS * ITEMS_PER_RECEIPT} items`);
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const services = await createServices(loadConfig({ STORAGE_BACKEND: 'dynamodb', SCAN_QUEUE: 'memory' }), {
    store,
    blobs: new LocalBlobStore({ root: blobDir }),
    queue: { enqueue: async () => {} },
    identity: benchIdentity,
    notifier: { send: async () => ({ invalidTokens: [] }) },
    logger: silentLogger,
  });
  const uid = 'benchUserMain';
  let t = performance.now();
  await seedUser(store, uid, seedConcurrency);
  say(`seeded the user in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const alone = await measureAppData(services, uid);
  say(`answer: ${(alone.bytes / 1e6).toFixed(2)} MB JSON, ${(alone.gz / 1e6).toFixed(2)} MB gzipped`);
  say(`alone     rebuild (no current cache; the worker does it after a write): ${summary(alone.cold)}`);
  say(`alone     request (cache current, as after the worker's refresh):  ${summary(alone.warm)}`);

  t = performance.now();
  for (let u = 0; u < OTHER_USERS; u++) {
    const started = performance.now();
    await seedUser(store, `benchUserOther${u}`, seedConcurrency);
    process.stdout.write(
      `  other user ${u + 1}/${OTHER_USERS} seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  say(`seeded ${OTHER_USERS} other users of that size in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const crowded = await measureAppData(services, uid);
  say(`crowded   rebuild (no current cache; the worker does it after a write): ${summary(crowded.cold)}`);
  say(`crowded   request (cache current, as after the worker's refresh):  ${summary(crowded.warm)}`);
  const ratio = (a: number[], b: number[]) => ((percentile(b, 50) / percentile(a, 50) - 1) * 100).toFixed(0);
  say(
    `with ${OTHER_USERS} other users: rebuild p50 ${ratio(alone.cold, crowded.cold)} %, request p50 ${ratio(alone.warm, crowded.warm)} % (target within 25 %)`,
  );
  say(
    `target p50 ≤ 300 ms: request ${percentile(crowded.warm, 50) <= 300 ? 'met' : 'NOT met'}, rebuild ${percentile(crowded.cold, 50) <= 300 ? 'met' : 'NOT met'}`,
  );
  await services.close();
}

async function benchUpload(store: TableStore, blobDir: string): Promise<void> {
  say('\n## upload of a 1 MB image (Azurite + local blob store; analysis excluded)');
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const queued: ScanJob[] = [];
  const services = await createServices(loadConfig({ STORAGE_BACKEND: 'dynamodb', SCAN_QUEUE: 'memory' }), {
    store,
    blobs: new LocalBlobStore({ root: blobDir }),
    queue: { enqueue: async (job) => void queued.push(job) },
    identity: benchIdentity,
    notifier: { send: async () => ({ invalidTokens: [] }) },
    logger: silentLogger,
  });
  // A photo-like JPEG of at least 1 MB (noise compresses badly, as the detail of a photo does).
  let side = 900;
  let jpeg: Buffer = Buffer.alloc(0);
  while (jpeg.length < 1_000_000) {
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (Math.imul(i, 2654435761) >>> 13) & 0xff;
    jpeg = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer();
    side += 150;
  }
  const imgSrc = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    // One user per upload: the same image twice from one user is refused as a duplicate (409).
    const uid = `benchUploader${i}`;
    const body = JSON.stringify({ userId: uid, fileName: `${1700000000000 + i}-receipt.jpg`, imgSrc });
    const t = performance.now();
    const answer = await uploadHandler.serve(
      services,
      apiEvent('POST', '/api/upload', { token: uid, rawBody: body }),
    );
    times.push(performance.now() - t);
    if (answer.statusCode !== 202) throw new Error(`upload answered ${answer.statusCode}: ${answer.body}`);
  }
  say(`image ${(jpeg.length / 1e6).toFixed(2)} MB, body ${(imgSrc.length / 1e6).toFixed(2)} MB`);
  say(
    `upload: ${summary(times.slice(5))} (first 5 are warm-up; target p50 ≤ 50 ms: ${percentile(times.slice(5), 50) <= 50 ? 'met' : 'NOT met'})`,
  );
  say(`jobs queued: ${queued.length}`);
  await services.close();
}

async function benchScans(store: TableStore, blobDir: string): Promise<void> {
  say(`\n## ${SCANS} receipts queued at once, analysed by the local OCR worker (Azurite)`);
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const ref: { worker?: Awaited<ReturnType<typeof createScanWorker>> } = {};
  const workers = 2;
  const queue = new MemoryScanQueue({
    concurrency: workers,
    handler: async (job) => void (await ref.worker!.process(job)),
  });
  const services = await createServices(
    loadConfig({
      STORAGE_BACKEND: 'dynamodb',
      SCAN_QUEUE: 'memory',
      ANALYZER: 'ocr',
      OCR_WORKERS: String(workers),
    }),
    {
      store,
      blobs: new LocalBlobStore({ root: blobDir }),
      queue,
      identity: benchIdentity,
      notifier: { send: async () => ({ invalidTokens: [] }) },
      logger: createJsonLogger('warn'),
    },
  );
  const worker = await createScanWorker(services);
  ref.worker = worker;
  const uid = 'benchScanner';
  const me: Identity = { uid, email: null, name: null };
  const t = performance.now();
  for (let i = 0; i < SCANS; i++) {
    // A slightly different angle each time: the same bytes twice would be refused as a duplicate.
    const image = await renderReceipt(SAMPLE_RECEIPTS[i % SAMPLE_RECEIPTS.length]!.spec, {
      format: 'jpeg',
      photo: i % 2 === 1,
      rotate: Math.floor(i / 2) * 0.05,
    });
    await uploadReceipt(services, me, {
      userId: uid,
      fileName: `${1700000000000 + i}-receipt.jpg`,
      imgSrc: `data:image/jpeg;base64,${Buffer.from(image).toString('base64')}`,
    });
  }
  await queue.drain();
  const seconds = (performance.now() - t) / 1000;
  const repos = repositories(store);
  const receipts = await repos.receipts.listReceipts(uid);
  const left = await repos.scans.listQueue(uid);
  say(
    `analysed ${receipts.length} of ${SCANS}; left in the queue: ${left.length} (${left.filter((e) => e.status === 'Failed').length} failed)`,
  );
  say(
    `${seconds.toFixed(1)} s in all: ${((receipts.length / seconds) * 60).toFixed(1)} receipts per minute with ${workers} OCR workers`,
  );
  if (receipts.length + left.length !== SCANS) say(`LOST: ${SCANS - receipts.length - left.length} scans`);
  await queue.close();
  await services.close();
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'receipts-bench-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    const azurite = await startAzurite({ location: join(root, 'azurite'), silent: true });
    stops.push(() => azurite.stop());
    const azure = AzureTableStore.fromConnectionString(azurite.connectionString, { logger: silentLogger });
    if (!ONLY || ONLY === 'upload') await benchUpload(azure, join(root, 'blobs-upload'));
    if (!ONLY || ONLY === 'scans') await benchScans(azure, join(root, 'blobs-scans'));
    if (!ONLY || ONLY === 'appdata') {
      await benchAppData('Azurite (Azure Tables)', azure, join(root, 'blobs-azure'), 16);
      const dynalite = await startDynalite();
      stops.push(() => dynalite.stop());
      const client = new DynamoDBClient({
        endpoint: dynalite.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await createStoreTable(client, 'receipts');
      await benchAppData(
        'dynalite (DynamoDB)',
        new DynamoTableStore({ client, tableName: 'receipts', logger: silentLogger }),
        join(root, 'blobs-dynamo'),
        16,
      );
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
