import {
  repositories,
  TABLES,
  WRITE_INTENT_LEASE_MS,
  appDataAt,
  getAppData,
  imageKey,
  listAllEntities,
  markReviewed,
  processScan,
  recordReceiptWrites,
  reportTotalsReady,
  silentLogger,
  updateMerchant,
  userKeyPrefix,
  LOST_SCAN_MS,
  type AppData,
  type BlobStore,
  type Identity,
  type ReceiptRow,
  type ScanWorkerDeps,
  type ReportsCache,
  createReportCache,
  type TableStore,
} from '@receipts/core';
import { isDeepStrictEqual } from 'node:util';
import { FakeAnalyzer, RecordingQueue, identity } from '../../packages/core/test/support/fakes';
import {
  SCENARIO_CATALOG,
  appDataFromAllRows,
  incrementalTotals,
  pendingChanges,
  recomputedTotals,
} from '../../packages/core/test/support/totals-scenario';
import { seedReceipts, type SeedReceipt } from './report-seed';

/*
 * The world of the fault sweep (write-faults.ts): a seeded user, the ports a write use case gets,
 * and what a person finds afterwards.
 */

/** Three receipts of two merchants, with items of catalogue brands, images stored. */
export const SEED: SeedReceipt[] = [
  {
    fileName: '1700000000001-a.jpg',
    merchant: 'Shop One',
    date: '2024-03-01',
    items: [
      { description: 'HEINZ BEANS', price: 1.5, brand: 'Heinz', owner: 'Kraft Heinz' },
      { description: 'BREAD', price: 2 },
    ],
  },
  {
    fileName: '1700000000002-b.jpg',
    merchant: 'Shop One',
    date: '2024-03-02',
    items: [{ description: 'NESCAFE GOLD', price: 6.75, brand: 'Nescafé', owner: 'Nestlé' }],
  },
  {
    fileName: '1700000000003-c.jpg',
    merchant: 'Shop Two',
    date: '2024-04-10',
    currency: 'GBP',
    items: [{ description: 'MILK', price: 1.1 }],
  },
];

export interface FaultWorld {
  store: TableStore;
  blobs: BlobStore;
  /** The scan jobs sent, delivered by hand (see workOffScans). */
  queue: RecordingQueue;
  userId: string;
  who: Identity;
  now: () => Date;
}

/** Seeds a fresh user with {@link SEED}: rows, images, ready report totals and a cached report. */
export async function seedFaultUser(
  store: TableStore,
  blobs: BlobStore,
  userId: string,
): Promise<FaultWorld> {
  await seedReceipts(store, userId, SEED, 1);
  // The user's first write since totals exist: they are built from the rows, and ready.
  await recordReceiptWrites(
    store,
    userId,
    SEED.map((r) => r.fileName),
  );
  for (const r of SEED)
    await blobs.put(imageKey(userId, r.fileName), new Uint8Array([1, 2, 3]), 'image/jpeg');
  const clock = Date.parse('2024-06-01T12:00:00Z');
  const world = {
    store,
    blobs,
    queue: new RecordingQueue(),
    userId,
    who: identity(userId),
    now: () => new Date(clock),
  };
  await getAppData({ store, blobs, logger: silentLogger, reportCache: createReportCache() }, world.who, {
    userId,
  }); // cached
  return world;
}

/** The ports a write use case gets (maybe failing), for requests and for the scan worker. */
export type EditPorts = ScanWorkerDeps & {
  store: TableStore;
  blobs: BlobStore;
  queue: RecordingQueue;
  logger: typeof silentLogger;
  reportCache: ReportsCache;
  now: () => Date;
  brandCatalog: typeof SCENARIO_CATALOG;
  identity: { deleteAccount: (uid: string) => Promise<void> };
};

/** The report as the person's page loads it. */
export const readReport = (world: FaultWorld): Promise<AppData> =>
  getAppData(
    { store: world.store, blobs: world.blobs, logger: silentLogger, reportCache: createReportCache() },
    world.who,
    {
      userId: world.userId,
    },
  );

export const editPorts = (
  world: FaultWorld,
  store: TableStore,
  blobs: BlobStore,
  now: () => Date,
): EditPorts => ({
  store,
  blobs,
  queue: world.queue,
  logger: silentLogger,
  reportCache: createReportCache(),
  now,
  brandCatalog: SCENARIO_CATALOG,
  analyzer: new FakeAnalyzer(),
  maxAttempts: 3,
  retryDelaySeconds: () => 1,
  identity: { deleteAccount: async () => undefined },
});

/** One run of a write use case: the ports (maybe failing) and the report read before. */
export type Run = (deps: EditPorts, world: FaultWorld, input: AppData) => Promise<unknown>;

/** A write use case of the fault sweep. */
export interface WriteUseCase {
  name: string;
  /** What there is before it runs, beyond the seeded receipts (an upload, a failed scan…). */
  setup?: (deps: EditPorts, world: FaultWorld) => Promise<void>;
  run: Run;
  /** The person's (or the queue's) second try, when it is not `run` again. */
  retry?: Run;
  /** What is wrong afterwards (default: problemsAfter). */
  problems?: (world: FaultWorld) => Promise<string[]>;
}

export const receiptOf = (data: AppData, fileName: string) => {
  const found = data.reportReceipts.find((r) => r.receipt_id.endsWith(`~${fileName}`));
  if (!found) throw new Error(`no receipt ${fileName} in the report`);
  return found;
};
export const merchantOf = (data: AppData, name: string) => {
  const found = data.reportMerchants.find((m) => m.name === name);
  if (!found) throw new Error(`no merchant ${name} in the report`);
  return found;
};
export const edit = (world: FaultWorld, data: AppData, fileName: string) => {
  const r = receiptOf(data, fileName);
  return { userId: world.userId, receiptId: r.receipt_id, etag: r.etag ?? '' };
};
/**
 * Delivers the scan jobs sent, after the claims' lease, then the scans of the user still waiting
 * (the sweeper queues again a scan left with no job, and the queue delivers again a job whose
 * attempt stopped): what the queue does in the background. (sweepScans itself reads every user's
 * entries, those of runs going on beside this one too, so it is not run here.)
 */
export async function workOffScans(world: FaultWorld): Promise<void> {
  const later = () => new Date(world.now().getTime() + LOST_SCAN_MS + 60_000);
  const worker = editPorts(world, world.store, world.blobs, later);
  while (world.queue.jobs.length > 0) {
    const { job } = world.queue.jobs.shift()!;
    if (job.userId === world.userId) await processScan(worker, job);
  }
  for (const entry of await repositories(world.store).scans.listQueue(world.userId)) {
    if (entry.status !== 'Failed')
      await processScan(worker, { userId: world.userId, fileName: entry.fileName });
  }
  world.queue.jobs.length = 0;
}

/**
 * Uploads and scans left half-way: a blob no receipt or queue entry holds, a scan not done, an
 * index row naming an upload that does not hold its image, a visit listing a receipt that is gone.
 */
async function uploadProblems(world: FaultWorld, receipts: ReceiptRow[]): Promise<string[]> {
  const { store, blobs, userId } = world;
  const problems: string[] = [];
  const repos = repositories(store);
  const queue = await repos.scans.listQueue(userId);
  const files = new Set(receipts.map((r) => r.file_name));
  for (const e of queue) problems.push(`scan ${e.fileName} left ${e.status}: ${e.reason ?? 'no reason'}`);
  for (const key of await blobs.list(`${userId}/`)) {
    const file = key.slice(userId.length + 1).replace(/\.analysis\.json$/, '');
    if (!files.has(file) && !queue.some((e) => e.fileName === file))
      problems.push(`blob ${key} of no receipt`);
  }
  for (const r of receipts) {
    if (!(await blobs.get(imageKey(userId, r.file_name))))
      problems.push(`receipt ${r.file_name} has no image`);
  }
  const userRows = await listAllEntities(store, TABLES.users, { partitionKey: userId });
  for (const row of userRows.filter((r) => r.rowKey.startsWith('~image~'))) {
    const sha = row.rowKey.slice('~image~'.length);
    const file = String(row.file_name);
    const holds =
      receipts.some((r) => r.file_name === file && (!r.image_sha256 || r.image_sha256 === sha)) ||
      queue.some((e) => e.fileName === file && (!e.image_sha256 || e.image_sha256 === sha));
    if (!holds) problems.push(`image index row of ${file} that holds no such image`);
  }
  const ids = new Set(receipts.map((r) => r.receipt_id));
  for (const row of userRows.filter((r) => r.rowKey.startsWith('~visit~'))) {
    const listed = JSON.parse(String(row.receipt_ids ?? '[]')) as string[];
    for (const id of listed) if (!ids.has(id)) problems.push(`visit row lists ${id}, which is gone`);
  }
  return problems;
}

/**
 * What a person finds after the failure and one retry, once the clock is past the write lease (a
 * read then finishes what stopped): every problem found, as sentences (none is the goal).
 */
export async function problemsAfter(world: FaultWorld): Promise<string[]> {
  const { store, blobs, userId, who } = world;
  const later = () => new Date(world.now().getTime() + WRITE_INTENT_LEASE_MS + 1000);
  const deps = editPorts(world, store, blobs, later);
  const problems: string[] = [];
  // What the queue and the sweeper do meanwhile: jobs delivered, lost scans queued again.
  await workOffScans(world);
  const served = await getAppData(deps, who, { userId });
  const repos = repositories(store);
  const state = await repos.users.getDataState(userId);
  if (state.intents.length > 0) problems.push(`${state.intents.length} write intents left`);
  const rebuilt = JSON.parse(JSON.stringify(await appDataFromAllRows(store, userId))) as AppData;
  if (!same(served, rebuilt)) problems.push('getAppData differs from a rebuild');
  const held = JSON.parse(JSON.stringify(await appDataAt(deps, userId, state))) as AppData;
  if (!same(held, rebuilt)) problems.push('the held report differs from a rebuild');
  if (await reportTotalsReady(store, userId)) {
    const [incremental, recomputed] = [
      await incrementalTotals(store, userId),
      await recomputedTotals(store, userId),
    ];
    if (!same(incremental, recomputed)) {
      problems.push(
        `totals differ from a rebuild: ${JSON.stringify(incremental)} ${JSON.stringify(recomputed)}`,
      );
    }
  }
  // Changes left pending on totals that are not ready are dropped by the rebuild at the next write.
  if ((await reportTotalsReady(store, userId)) && (await pendingChanges(store, userId)).length > 0) {
    problems.push('totals changes left pending');
  }

  // Orphans: rows and blobs of receipts that do not exist, merchants without receipts.
  const receipts = await repos.receipts.listReceipts(userId);
  const receiptIds = new Set(receipts.map((r) => r.receipt_id));
  for (const table of [TABLES.items, TABLES.taxes]) {
    const rows = await listAllEntities(store, table, { partitionKeyPrefix: userKeyPrefix(userId) });
    const orphans = rows.filter((r) => !receiptIds.has(r.partitionKey));
    if (orphans.length > 0) problems.push(`${orphans.length} ${table} rows of no receipt`);
  }
  for (const m of await repos.merchants.listMerchants(userId)) {
    if (!receipts.some((r) => r.merchant_id === m.merchant_id))
      problems.push(`merchant ${m.name} has no receipt`);
  }
  for (const r of receipts) {
    if (!(await repos.merchants.getMerchant(userId, r.merchant_id)))
      problems.push(`receipt ${r.file_name} has no merchant`);
  }
  problems.push(...(await uploadProblems(world, receipts)));

  // Editable: every receipt and merchant, with the etag the reports give.
  for (const r of served.reportReceipts) {
    try {
      await markReviewed(deps, who, { userId, receiptId: r.receipt_id, etag: r.etag ?? '' });
    } catch (error) {
      problems.push(`receipt ${r.receipt_id} not editable: ${String(error)}`);
    }
  }
  const after = await getAppData(deps, who, { userId });
  for (const m of after.reportMerchants) {
    try {
      await updateMerchant(deps, who, {
        userId,
        merchantId: m.merchant_id,
        etag: m.etag ?? '',
        changes: { phone_number: '+32 2 000 00 00' },
      });
    } catch (error) {
      problems.push(`merchant ${m.name} not editable: ${String(error)}`);
    }
  }
  return problems;
}

/** Equal as JSON values (properties in any order, undefined ones absent). */
const same = (a: unknown, b: unknown) =>
  isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
