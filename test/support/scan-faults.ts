import {
  AnalyzerError,
  repositories,
  SCAN_CLAIM_LEASE_MS,
  TABLES,
  deleteAccount,
  listAllEntities,
  processScan,
  reanalyseReceipt,
  receiptIdFor,
  removeScan,
  retryScan,
  uploadReceipt,
  userKeyPrefix,
} from '@receipts/core';
import { FakeAnalyzer, dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import {
  edit,
  problemsAfter,
  readReport,
  type EditPorts,
  type FaultWorld,
  type WriteUseCase,
} from './fault-world';

/*
 * The fault sweep's uploads and scans (see write-faults.ts): the upload, the scan worker's write of
 * an analysis (new, and analysed again), analysing again, retrying and removing a failed scan, and
 * deleting the account.
 */

const NEW_FILE = '1700000000009-new.jpg';
const NEW_IMAGE = fakeReceiptImage({
  merchant: 'Shop One',
  date: '2024-05-05',
  total: 4.5,
  items: [
    { description: 'HEINZ BEANS', price: 1.5, brand: 'Heinz', owner: 'Kraft Heinz' },
    { description: 'TEA', price: 3 },
  ],
  photo: 'fault-sweep',
});

const upload = (deps: EditPorts, w: FaultWorld) =>
  uploadReceipt(deps, w.who, { userId: w.userId, fileName: NEW_FILE, imgSrc: dataUrlOf(NEW_IMAGE) });
const job = (w: FaultWorld) => ({ userId: w.userId, fileName: NEW_FILE });
/** The worker again once the claim of a delivery that stopped has expired (a redelivery). */
const later = (deps: EditPorts): EditPorts => {
  const at = deps.now().getTime() + SCAN_CLAIM_LEASE_MS + 1000;
  return { ...deps, now: () => new Date(at) };
};

/** Uploaded and analysed: the new receipt exists. */
async function uploadedAndAnalysed(deps: EditPorts, w: FaultWorld): Promise<void> {
  await upload(deps, w);
  w.queue.jobs.length = 0;
  await processScan(deps, job(w));
}

/** Uploaded, and its analysis failed for good. */
async function uploadedAndFailed(deps: EditPorts, w: FaultWorld): Promise<void> {
  await upload(deps, w);
  w.queue.jobs.length = 0;
  const analyzer = new FakeAnalyzer();
  analyzer.failures.push(new AnalyzerError('No text could be read from the image.', { retryable: false }));
  await processScan({ ...deps, analyzer }, job(w));
}

/** The problems, and the new receipt missing (an upload accepted, or a scan retried, and lost). */
async function withNewReceipt(w: FaultWorld): Promise<string[]> {
  const problems = await problemsAfter(w);
  const receipt = await repositories(w.store).receipts.getReceipt(w.userId, receiptIdFor(w.userId, NEW_FILE));
  return receipt ? problems : [...problems, `the receipt of ${NEW_FILE} was lost`];
}

/** The problems, and the removed scan back. */
async function withoutNewReceipt(w: FaultWorld): Promise<string[]> {
  const problems = await problemsAfter(w);
  const receipt = await repositories(w.store).receipts.getReceipt(w.userId, receiptIdFor(w.userId, NEW_FILE));
  return receipt ? [...problems, `the removed scan ${NEW_FILE} came back`] : problems;
}

/** What is left of a deleted account: rows in any of its partitions, and blobs under its prefixes. */
async function accountLeft(w: FaultWorld): Promise<string[]> {
  const { store, blobs, userId } = w;
  const left: string[] = [];
  const byKey = [TABLES.users, TABLES.receipts, TABLES.merchants, TABLES.scanQueue];
  for (const table of byKey) {
    const rows = await listAllEntities(store, table, { partitionKey: userId });
    if (rows.length > 0) left.push(`${rows.length} ${table} rows`);
  }
  const byPrefix = [TABLES.items, TABLES.taxes, TABLES.totals, TABLES.totalsApplied, TABLES.users];
  for (const table of byPrefix) {
    const rows = await listAllEntities(store, table, { partitionKeyPrefix: userKeyPrefix(userId) });
    if (rows.length > 0) left.push(`${rows.length} ${table} rows in the user's other partitions`);
  }
  for (const prefix of [`${userId}/`, `cache/${userId}/`]) {
    const keys = await blobs.list(prefix);
    if (keys.length > 0) left.push(`blobs ${keys.join(', ')}`);
  }
  return left;
}

/** The uploads and scans of the sweep, each with an input a person (or the queue) could send. */
export const SCAN_USE_CASES: WriteUseCase[] = [
  { name: 'uploadReceipt', run: upload, problems: withNewReceipt },
  {
    name: 'processScan (a new receipt)',
    setup: async (deps, w) => {
      await upload(deps, w);
      w.queue.jobs.length = 0;
    },
    run: (deps, w) => processScan(deps, job(w)),
    retry: (deps, w) => processScan(later(deps), job(w)),
    problems: withNewReceipt,
  },
  {
    name: 'processScan (analysed again)',
    setup: async (deps, w) => {
      await uploadedAndAnalysed(deps, w);
      await reanalyseReceipt(deps, w.who, edit(w, await readReport(w), NEW_FILE));
      w.queue.jobs.length = 0;
    },
    run: (deps, w) => processScan(deps, job(w)),
    retry: (deps, w) => processScan(later(deps), job(w)),
    problems: withNewReceipt,
  },
  {
    name: 'reanalyseReceipt',
    setup: uploadedAndAnalysed,
    run: (deps, w, data) => reanalyseReceipt(deps, w.who, edit(w, data, NEW_FILE)),
    problems: withNewReceipt,
  },
  {
    name: 'retryScan',
    setup: uploadedAndFailed,
    run: (deps, w) => retryScan(deps, w.who, { userId: w.userId, fileName: NEW_FILE }),
    problems: withNewReceipt,
  },
  {
    name: 'removeScan',
    setup: uploadedAndFailed,
    run: (deps, w) => removeScan(deps, w.who, { userId: w.userId, fileName: NEW_FILE }),
    problems: withoutNewReceipt,
  },
  {
    name: 'deleteAccount (with an upload waiting)',
    setup: async (deps, w) => {
      await upload(deps, w);
    },
    run: (deps, w) => deleteAccount(deps, w.who, { userId: w.userId }),
    problems: accountLeft,
  },
];
