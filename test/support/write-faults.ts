import {
  ConflictError,
  NotFoundError,
  repositories,
  StoreError,
  TABLES,
  appDataAt,
  deleteItem,
  deleteReceiptData,
  getAppData,
  imageKey,
  listAllEntities,
  markReviewed,
  mergeMerchants,
  moveReceipt,
  receiptIdFor,
  recordReceiptWrites,
  reportTotalsReady,
  saveItem,
  silentLogger,
  type ReportsCache,
  createReportCache,
  updateMerchant,
  updateReceipt,
  userKeyPrefix,
  WRITE_INTENT_LEASE_MS,
  type AppData,
  type BlobStore,
  type Identity,
  type TableStore,
} from '@receipts/core';
import { isDeepStrictEqual } from 'node:util';
import { MemoryBlobStore, identity } from '../../packages/core/test/support/fakes';
import {
  SCENARIO_CATALOG,
  appDataFromAllRows,
  incrementalTotals,
  pendingChanges,
  recomputedTotals,
} from '../../packages/core/test/support/totals-scenario';
import { seedReceipts, type SeedReceipt } from './report-seed';

/** The error a store call fails with when a fault is injected into it. */
export class InjectedFault extends StoreError {}

/**
 * A port (TableStore, BlobStore) whose `failAt`-th call (1-based, counted over every method) fails:
 * before it reaches the store (`after: false`), or once the store has done it (`after: true`: the
 * answer was lost, as with a timeout). `failAt` 0 never fails, which counts a use case's calls.
 */
export interface FaultCounter {
  calls: number;
  failAt: number;
  after: boolean;
  failed: boolean;
  /** The method of each call made, in order. */
  methods: string[];
}

export const faultCounter = (failAt = 0, after = false): FaultCounter => ({
  calls: 0,
  failAt,
  after,
  failed: false,
  methods: [],
});

/** Methods of the ports that change what is stored (a fault after one of them is worth a run). */
export const WRITE_METHODS = new Set([
  'createEntity',
  'updateEntity',
  'upsertEntity',
  'deleteEntity',
  'submitTransaction',
  'put',
  'delete',
]);

export function failingAt<T extends object>(target: T, counter: FaultCounter): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const n = ++counter.calls;
        counter.methods.push(String(property));
        const fail = n === counter.failAt;
        if (fail && !counter.after) {
          counter.failed = true;
          throw new InjectedFault(`fault injected before call ${n} (${String(property)})`);
        }
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(object, args);
        if (fail) {
          counter.failed = true;
          throw new InjectedFault(`fault injected after call ${n} (${String(property)})`);
        }
        return result;
      };
    },
  });
}

/** Three receipts of two merchants, with items of catalogue brands, images stored. */
const SEED: SeedReceipt[] = [
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
  await recordReceiptWrites(store, userId, []); // totals ready, and empty
  await seedReceipts(store, userId, SEED, 1);
  await recordReceiptWrites(
    store,
    userId,
    SEED.map((r) => r.fileName),
  );
  for (const r of SEED)
    await blobs.put(imageKey(userId, r.fileName), new Uint8Array([1, 2, 3]), 'image/jpeg');
  const clock = Date.parse('2024-06-01T12:00:00Z');
  const world = { store, blobs, userId, who: identity(userId), now: () => new Date(clock) };
  await getAppData({ store, blobs, logger: silentLogger, reportCache: createReportCache() }, world.who, {
    userId,
  }); // cached
  return world;
}

/** What one run of a write use case needs: the ports (maybe failing) and the input read before. */
type Run = (deps: EditPorts, world: FaultWorld, input: AppData) => Promise<unknown>;
type EditPorts = {
  store: TableStore;
  blobs: BlobStore;
  logger: typeof silentLogger;
  reportCache: ReportsCache;
  now: () => Date;
  brandCatalog: typeof SCENARIO_CATALOG;
};

const receiptOf = (data: AppData, fileName: string) => {
  const found = data.reportReceipts.find((r) => r.receipt_id.endsWith(`~${fileName}`));
  if (!found) throw new Error(`no receipt ${fileName} in the report`);
  return found;
};
const merchantOf = (data: AppData, name: string) => {
  const found = data.reportMerchants.find((m) => m.name === name);
  if (!found) throw new Error(`no merchant ${name} in the report`);
  return found;
};
const edit = (world: FaultWorld, data: AppData, fileName: string) => {
  const r = receiptOf(data, fileName);
  return { userId: world.userId, receiptId: r.receipt_id, etag: r.etag ?? '' };
};
const [A, B, C] = SEED.map((r) => r.fileName) as [string, string, string];

/** Every write use case of a person's receipts and merchants, with an input a person could send. */
export const WRITE_USE_CASES: { name: string; run: Run }[] = [
  {
    name: 'updateReceipt (total and a new merchant)',
    run: (deps, w, data) =>
      updateReceipt(deps, w.who, {
        ...edit(w, data, A),
        changes: { total_amount: 9.99, merchant_name: 'Corner Shop' },
      }),
  },
  {
    name: 'updateReceipt (currency)',
    run: (deps, w, data) =>
      updateReceipt(deps, w.who, { ...edit(w, data, B), changes: { currency_code: 'USD' } }),
  },
  {
    name: 'saveItem (new item, new brand)',
    run: (deps, w, data) =>
      saveItem(deps, w.who, {
        ...edit(w, data, A),
        item: { description: 'KETCHUP', quantity: 1, unit_price: 3, total_price: 3, brand: 'Fresh Brand' },
      }),
  },
  {
    name: 'saveItem (edit an item)',
    run: (deps, w, data) => {
      const receiptId = receiptIdFor(w.userId, A);
      const item = data.reportProductItems.find((i) => i.receipt_id === receiptId)!;
      return saveItem(deps, w.who, {
        ...edit(w, data, A),
        itemId: item.item_id,
        item: { description: 'HEINZ BEANS', quantity: 2, unit_price: 1.5, total_price: 3, brand: 'Heinz' },
      });
    },
  },
  {
    name: 'deleteItem',
    run: (deps, w, data) => {
      const receiptId = receiptIdFor(w.userId, A);
      const item = data.reportProductItems.find((i) => i.receipt_id === receiptId)!;
      return deleteItem(deps, w.who, { ...edit(w, data, A), itemId: item.item_id });
    },
  },
  { name: 'markReviewed', run: (deps, w, data) => markReviewed(deps, w.who, edit(w, data, C)) },
  {
    name: 'moveReceipt',
    run: (deps, w, data) =>
      moveReceipt(deps, w.who, { ...edit(w, data, C), merchantId: merchantOf(data, 'Shop One').merchant_id }),
  },
  {
    name: 'updateMerchant',
    run: (deps, w, data) => {
      const m = merchantOf(data, 'Shop Two');
      return updateMerchant(deps, w.who, {
        userId: w.userId,
        merchantId: m.merchant_id,
        etag: m.etag ?? '',
        changes: { name: 'Shop Two Renamed', city: 'Ghent' },
      });
    },
  },
  {
    name: 'mergeMerchants',
    run: (deps, w, data) => {
      const kept = merchantOf(data, 'Shop Two');
      const duplicate = merchantOf(data, 'Shop One');
      return mergeMerchants(deps, w.who, {
        userId: w.userId,
        merchantId: kept.merchant_id,
        etag: kept.etag ?? '',
        duplicateId: duplicate.merchant_id,
        duplicateEtag: duplicate.etag ?? '',
      });
    },
  },
  {
    name: 'deleteReceiptData',
    run: (deps, w, data) =>
      deleteReceiptData(deps, w.who, { userId: w.userId, receiptId: receiptOf(data, C).receipt_id }),
  },
];

/** The report as the person's page loads it. */
export const readReport = (world: FaultWorld): Promise<AppData> =>
  getAppData(
    { store: world.store, blobs: world.blobs, logger: silentLogger, reportCache: createReportCache() },
    world.who,
    {
      userId: world.userId,
    },
  );

export const editPorts = (store: TableStore, blobs: BlobStore, now: () => Date): EditPorts => ({
  store,
  blobs,
  logger: silentLogger,
  reportCache: createReportCache(),
  now,
  brandCatalog: SCENARIO_CATALOG,
});

/** The answers a retry of a write that went through may get: it was done already. */
export const isDoneAlready = (error: unknown) =>
  error instanceof ConflictError || error instanceof NotFoundError;

/**
 * What a person finds after the failure and one retry, once the clock is past the write lease (a
 * read then finishes what stopped): every problem found, as sentences (none is the goal).
 */
export async function problemsAfter(world: FaultWorld): Promise<string[]> {
  const { store, blobs, userId, who } = world;
  const later = () => new Date(world.now().getTime() + WRITE_INTENT_LEASE_MS + 1000);
  const deps = { ...editPorts(store, blobs, later) };
  const problems: string[] = [];
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
  const files = new Set(receipts.map((r) => r.file_name));
  for (const key of await blobs.list(`${userId}/`)) {
    if (!files.has(key.slice(userId.length + 1).replace(/\.analysis\.json$/, '')))
      problems.push(`blob ${key} of no receipt`);
  }

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

/**
 * Runs `useCase` once without faults (counting its calls), then once per call failing (before it,
 * and for a write also after it), each on a fresh user, followed by the person's retry, and
 * answers what {@link problemsAfter} found per run (nothing is the goal).
 * @param concurrency - runs at once (each has its own user)
 */
export async function sweepFaults(
  store: TableStore,
  useCase: { name: string; run: Run },
  tag: string,
  concurrency = 1,
  sample?: number,
): Promise<{ calls: number; runs: number; found: string[] }> {
  const blobs0 = new MemoryBlobStore();
  const world0 = await seedFaultUser(store, blobs0, `${tag}-clean`);
  const counted = faultCounter();
  const before = await readReport(world0);
  await useCase.run(
    editPorts(failingAt(store, counted), failingAt(blobs0, counted), world0.now),
    world0,
    before,
  );
  const found = (await problemsAfter(world0)).map((p) => `without faults: ${p}`);
  const runs: { n: number; after: boolean }[] = [];
  for (let n = 1; n <= counted.calls; n++) {
    runs.push({ n, after: false });
    if (WRITE_METHODS.has(counted.methods[n - 1]!)) runs.push({ n, after: true });
  }
  if (sample !== undefined && runs.length > sample) {
    // Evenly spread over the calls, the first and the last included.
    const picked = new Set(
      Array.from({ length: sample }, (_, k) => Math.round((k * (runs.length - 1)) / (sample - 1))),
    );
    runs.splice(0, runs.length, ...runs.filter((_, i) => picked.has(i)));
  }
  let next = 0;
  const one = async ({ n, after }: { n: number; after: boolean }) => {
    const blobs = new MemoryBlobStore();
    const world = await seedFaultUser(store, blobs, `${tag}-${n}${after ? 'a' : 'b'}`);
    const data = await readReport(world);
    const counter = faultCounter(n, after);
    try {
      await useCase.run(
        editPorts(failingAt(store, counter), failingAt(blobs, counter), world.now),
        world,
        data,
      );
    } catch (error) {
      if (!counter.failed) throw error;
    }
    // The person tries again (an answer that it was done already is fine).
    try {
      await useCase.run(editPorts(store, blobs, world.now), world, data);
    } catch (error) {
      if (!isDoneAlready(error)) throw error;
    }
    const problems = await problemsAfter(world);
    const call = `call ${n} (${counted.methods[n - 1]}) failing ${after ? 'after' : 'before'}`;
    if (problems.length > 0) found.push(`${call}: ${problems.join('; ')}`);
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs.length) await one(runs[next++]!);
    }),
  );
  return { calls: counted.calls, runs: runs.length, found };
}
