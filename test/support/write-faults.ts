import {
  ConflictError,
  NotFoundError,
  deleteItem,
  deleteReceiptData,
  markReviewed,
  mergeMerchants,
  moveReceipt,
  receiptIdFor,
  saveItem,
  updateMerchant,
  updateReceipt,
  type TableStore,
} from '@receipts/core';
import { MemoryBlobStore } from '../../packages/core/test/support/fakes';
import { WRITE_METHODS, failingAt, faultCounter } from './fault-ports';
import {
  SEED,
  editPorts,
  problemsAfter,
  readReport,
  seedFaultUser,
  edit,
  merchantOf,
  receiptOf,
  type FaultWorld,
  type WriteUseCase,
} from './fault-world';
import { SCAN_USE_CASES } from './scan-faults';

const [A, B, C] = SEED.map((r) => r.fileName) as [string, string, string];

/** Every edit of a person's receipts and merchants, with an input a person could send. */
const EDIT_USE_CASES: WriteUseCase[] = [
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

/** Every write use case: the edits, and the uploads and scans (see scan-faults.ts). */
export const WRITE_USE_CASES: WriteUseCase[] = [...EDIT_USE_CASES, ...SCAN_USE_CASES];

/** The answers a retry of a write that went through may get: it was done already. */
export const isDoneAlready = (error: unknown) =>
  error instanceof ConflictError || error instanceof NotFoundError;

/** One run of the sweep: its n-th call (1-based) failing, before it or after it (the answer lost). */
export interface FaultPoint {
  n: number;
  after: boolean;
}

/**
 * Every fault point of a use case whose calls were `methods`: each call failing before it, and each
 * write also after it.
 */
export function everyFaultPoint(methods: string[]): FaultPoint[] {
  return methods.flatMap((method, i) => [
    { n: i + 1, after: false },
    ...(WRITE_METHODS.has(method) ? [{ n: i + 1, after: true }] : []),
  ]);
}

/**
 * The fault points that leave a use case the most to put right, for the sweep on the real stores in
 * `npm test` (the in-memory sweep of packages/core fails every call on every run): the first write
 * done and its answer lost (something is stored, the rest is not), a write in the middle failing
 * before it (stopped half-way), and the last write done and its answer lost (all stored, the person
 * told it failed and trying again). A use case that writes nothing fails its first and last calls.
 */
export function keyFaultPoints(methods: string[]): FaultPoint[] {
  const writes = methods.flatMap((method, i) => (WRITE_METHODS.has(method) ? [i + 1] : []));
  const picked =
    writes.length === 0
      ? [
          { n: 1, after: false },
          { n: methods.length, after: false },
        ]
      : [
          { n: writes[0]!, after: true },
          { n: writes[Math.floor(writes.length / 2)]!, after: false },
          { n: writes.at(-1)!, after: true },
        ];
  return everyFaultPoint(methods).filter((p) => picked.some((q) => q.n === p.n && q.after === p.after));
}

/**
 * Runs `useCase` once without faults (counting its calls), then once per fault point (by default
 * every call failing before it, and every write also after it), each on a fresh user, followed by
 * the person's retry, and answers what {@link problemsAfter} found per run (nothing is the goal).
 * @param concurrency - runs at once (each has its own user)
 * @param points - the fault points to run, from the methods of the calls made without faults
 */
export async function sweepFaults(
  store: TableStore,
  useCase: WriteUseCase,
  tag: string,
  concurrency = 1,
  points: (methods: string[]) => FaultPoint[] = everyFaultPoint,
): Promise<{ calls: number; runs: number; found: string[] }> {
  const blobs0 = new MemoryBlobStore();
  const world0 = await prepared(store, blobs0, `${tag}-clean`, useCase);
  const counted = faultCounter();
  const before = await readReport(world0);
  await useCase.run(
    editPorts(world0, failingAt(store, counted), failingAt(blobs0, counted), world0.now),
    world0,
    before,
  );
  const check = useCase.problems ?? problemsAfter;
  const found = (await check(world0)).map((p) => `without faults: ${p}`);
  const runs = points(counted.methods);
  let next = 0;
  const one = async ({ n, after }: FaultPoint) => {
    const blobs = new MemoryBlobStore();
    const world = await prepared(store, blobs, `${tag}-${n}${after ? 'a' : 'b'}`, useCase);
    const data = await readReport(world);
    const counter = faultCounter(n, after);
    try {
      await useCase.run(
        editPorts(world, failingAt(store, counter), failingAt(blobs, counter), world.now),
        world,
        data,
      );
    } catch (error) {
      if (!counter.failed) throw error;
    }
    // The person tries again (an answer that it was done already is fine).
    try {
      await (useCase.retry ?? useCase.run)(editPorts(world, store, blobs, world.now), world, data);
    } catch (error) {
      if (!isDoneAlready(error)) throw error;
    }
    const problems = await check(world);
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

/** A seeded user with what the use case needs before it runs. */
async function prepared(
  store: TableStore,
  blobs: MemoryBlobStore,
  userId: string,
  useCase: WriteUseCase,
): Promise<FaultWorld> {
  const world = await seedFaultUser(store, blobs, userId);
  await useCase.setup?.(editPorts(world, store, blobs, world.now), world);
  return world;
}
