/**
 * Report query benchmark (`npm run bench:reports`), printed figures, on Azurite and dynalite: one user
 * beside BENCH_OTHER_USERS other users (default 20) of BENCH_OTHER_RECEIPTS receipts each (default
 * 1,000), all of BENCH_ITEMS_PER_RECEIPT items (default 10). The user is measured at each size of
 * BENCH_SIZES (default "1000,10000" receipts; the same store grows from one size to the next): a
 * write's incremental update of the report totals (p50), the report data built from all rows (after
 * a bulk import), the first page on a fresh process and after an edit (the report data patched with
 * the edited receipt) and the first search after it (the search dictionary made), the first page
 * p50 of each report table and search p50 (each beside the p50 of the data version's point read, timed
 * after each of its samples: the page's floor at the same moments), each the first time
 * a query is asked and asked again (and, for the receipts and items tables and search, the index's own
 * part of the first ask, without the store read), bytes per page, then the growth of each figure from the smallest
 * size to the largest. The merchants, brands and corporations tables are read from the report
 * totals. Data is seeded through the repository (items in one transaction per receipt, as the worker
 * writes them), not OCR and not HTTP; the totals are then built once from those rows, as at a user's
 * first write after totals exist. dynalite runs in a process of its own, as Azurite does
 * (BENCH_DYNALITE=inline: in the bench's own process, as before).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { REPORT_TABLES, reportQuery } from '@receipts/core/contract/reports';
import {
  REQUIRED_TABLES,
  repositories,
  getAppDataJson,
  invalidateReportTotals,
  itemIdFor,
  queryReport,
  queryReportIndex,
  receiptIdFor,
  recordReceiptWrites,
  partOf,
  reportIndexOf,
  reportPagesCacheKey,
  reportSharesCacheKey,
  silentLogger,
  createReportCache,
  type TableStore,
} from '@receipts/core';
import { LocalBlobStore } from '@receipts/blob-local';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { startAzurite } from '../dev/src/azurite';
import { superviseChild } from '../dev/src/child-process';
import { startDynalite } from '../dev/src/dynalite';
import { generatedReceipts, seedReceipts, type SeedReceipt } from '../test/support/report-seed';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const ITEMS = envInt('BENCH_ITEMS_PER_RECEIPT', 10);
const OTHER_USERS = envInt('BENCH_OTHER_USERS', 20);
const OTHER_RECEIPTS = envInt('BENCH_OTHER_RECEIPTS', 1000);
const SAMPLES = 15;
/** Only the named store ("azure" or "dynamo"); both when unset. */
const ONLY = process.env.BENCH_STORE;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (n: number) => `${n < 1 ? n.toFixed(3) : n.toFixed(1)} ms`;
const growth = (from: number, to: number) =>
  `${to >= from ? '+' : ''}${(((to - from) / from) * 100).toFixed(0)} %`;

/**
 * The store with every call counted (calls retried after an etag conflict count again), and the
 * service requests they make: a `getEntities` key is one request where the store has no batch read
 * (Azure Tables), its keys a BatchGetItem request per 100 on DynamoDB.
 */
function counted(
  store: TableStore,
  batchRead: boolean,
): { store: TableStore; calls: () => number; requests: () => number } {
  let calls = 0;
  let requests = 0;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        if (property === 'getEntities') {
          const keys = (args[1] as unknown[]).length;
          requests += batchRead ? Math.ceil(keys / 100) : keys;
        } else requests += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls: () => calls, requests: () => requests };
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

/** The figures of one size: name → [value, unit]. */
type Figures = Map<string, [number, 'ms' | 'KB' | 'calls']>;

async function measure(
  store: TableStore,
  blobDir: string,
  uid: string,
  added: SeedReceipt[],
  batchRead: boolean,
): Promise<Figures> {
  const figures: Figures = new Map();
  const deps = {
    store,
    blobs: new LocalBlobStore({ root: blobDir }),
    logger: silentLogger,
    reportCache: createReportCache(),
  };
  const identity = { uid, email: null, name: null };
  const repos = repositories(store);

  // How fast the emulator answers one point read at this size: the floor of every figure below.
  const reads: number[] = [];
  for (let i = 0; i < SAMPLES; i++) reads.push((await time(() => repos.users.getDataVersion(uid)))[0]);
  figures.set('store point read p50 (baseline)', [percentile(reads, 50), 'ms']);

  // A write's update of the report totals, as the worker and the edit routes run it after their
  // rows: an edited total (one receipt's difference), and a new receipt. The store calls each
  // makes are counted too: they must not grow with the user's receipts.
  const { store: countedStore, calls, requests } = counted(store, batchRead);
  const receipts = (await repos.receipts.listReceipts(uid)).slice(0, SAMPLES);
  const edits: number[] = [];
  let editCalls = 0;
  let editRequests = 0;
  for (const [i, receipt] of receipts.entries()) {
    // The edit route reads the receipt's items before it writes (its total check) and hands their
    // keys to the update, which reads them back by key.
    const items = await repos.receipts.listItemsOfReceipt(receipt.receipt_id);
    await repos.receipts.saveReceipt({ ...receipt, total_amount: (receipt.total_amount ?? 0) + 1 + i });
    const written = new Map([[receipt.file_name, items.map((item) => item.item_id)]]);
    const before = [calls(), requests()];
    edits.push(
      (await time(() => recordReceiptWrites(countedStore, uid, [receipt.file_name], new Date(), written)))[0],
    );
    editCalls = calls() - before[0]!;
    editRequests = requests() - before[1]!;
  }
  figures.set("a write's totals update p50 (edited total)", [percentile(edits, 50), 'ms']);
  figures.set("store calls of a write's totals update (edited total)", [editCalls, 'calls']);
  figures.set('service requests of that update (edited total)', [editRequests, 'calls']);
  const news: number[] = [];
  let newCalls = 0;
  let newRequests = 0;
  for (const receipt of added) {
    await seedReceipts(store, uid, [receipt], 1);
    // As the scan worker: the keys of the items it has just written.
    const receiptId = receiptIdFor(uid, receipt.fileName);
    const written = new Map([[receipt.fileName, receipt.items.map((_, i) => itemIdFor(receiptId, i))]]);
    const before = [calls(), requests()];
    news.push(
      (await time(() => recordReceiptWrites(countedStore, uid, [receipt.fileName], new Date(), written)))[0],
    );
    newCalls = calls() - before[0]!;
    newRequests = requests() - before[1]!;
  }
  figures.set("a write's totals update p50 (new receipt)", [percentile(news, 50), 'ms']);
  figures.set("store calls of a write's totals update (new receipt)", [newCalls, 'calls']);
  figures.set('service requests of that update (new receipt)', [newRequests, 'calls']);

  // After a bulk import (the rows above were written without a change log) the first read builds
  // the user's report data from all rows.
  // Its first receipts page comes from first pages made of the receipts and merchants alone.
  deps.reportCache.clear();
  const [importedPage] = await time(() =>
    queryReport(deps, identity, reportQuery.parse({ userId: uid, table: 'receipts', pageSize: '25' })),
  );
  figures.set('first receipts page after a bulk import (receipts only)', [importedPage, 'ms']);
  deps.reportCache.clear();
  const [rebuild] = await time(() => getAppDataJson(deps, identity, { userId: uid }));
  figures.set('report data build from all rows (after a bulk import)', [rebuild, 'ms']);

  const ask = (query: Record<string, string>) =>
    queryReport(deps, identity, reportQuery.parse({ userId: uid, pageSize: '25', ...query }));
  // A process that holds nothing of the user: the first page is read from the stored first pages
  // (one small blob), not from the whole cached report.
  const coldAsk = async (query: Record<string, string>) => {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      deps.reportCache.clear();
      runs.push((await time(() => ask(query)))[0]);
    }
    return percentile(runs, 50);
  };
  figures.set('cold first page, receipts (fresh process) p50', [await coldAsk({ table: 'receipts' }), 'ms']);
  figures.set('cold first page, items (fresh process) p50', [await coldAsk({ table: 'items' }), 'ms']);
  figures.set("cold count of receipts to review (the header's, fresh process) p50", [
    await coldAsk({ table: 'receipts', review: 'needed', pageSize: '1' }),
    'ms',
  ]);
  figures.set('cold first page, receipts by total (fresh process) p50', [
    await coldAsk({ table: 'receipts', sort: 'total', dir: 'desc' }),
    'ms',
  ]);
  // A fresh process after an edit: the stored first pages patched with the edited receipt.
  const coldEdited: number[] = [];
  for (const [i, receipt] of receipts.entries()) {
    await repos.receipts.saveReceipt({ ...receipt, total_amount: (receipt.total_amount ?? 0) + 1.5 + i });
    await repos.users.bumpDataVersion(uid, new Date(), { files: [receipt.file_name] });
    deps.reportCache.clear();
    coldEdited.push((await time(() => ask({ table: 'receipts' })))[0]);
  }
  figures.set('cold first page after an edit (pages patched) p50', [percentile(coldEdited, 50), 'ms']);
  // What that patch reads and writes back: the first pages, and one part of the receipts' shares each.
  const sizeOf = async (key: string) => ((await deps.blobs.get(key))?.bytes.length ?? 0) / 1024;
  figures.set('first pages blob', [await sizeOf(reportPagesCacheKey(uid)), 'KB']);
  const edited = receiptIdFor(uid, receipts[0]!.file_name);
  figures.set("one part of the receipts' shares", [
    await sizeOf(reportSharesCacheKey(uid, partOf(edited))),
    'KB',
  ]);
  // The first read of another table or a later page on that process: the whole report is read.
  deps.reportCache.clear();
  await ask({ table: 'receipts' });
  const [wholeReport] = await time(() => ask({ table: 'receipts', q: 'heinz' }));
  figures.set('first search on a fresh process (whole report read)', [wholeReport, 'ms']);
  // An edit of one receipt, as the edit routes write it: the next read patches the report data.
  const patched: number[] = [];
  for (const [i, receipt] of receipts.entries()) {
    await repos.receipts.saveReceipt({ ...receipt, total_amount: (receipt.total_amount ?? 0) + 2 + i });
    await repos.users.bumpDataVersion(uid, new Date(), { files: [receipt.file_name] });
    patched.push((await time(() => ask({ table: 'receipts' })))[0]);
  }
  figures.set('first page after an edit (warm process, pages patched) p50', [percentile(patched, 50), 'ms']);
  // The first search after an edit: the index is made again at the first page, and its search
  // dictionary at its first search.
  const searchedAfter: number[] = [];
  for (const [i, receipt] of receipts.entries()) {
    await repos.receipts.saveReceipt({ ...receipt, total_amount: (receipt.total_amount ?? 0) + 3 + i });
    await repos.users.bumpDataVersion(uid, new Date(), { files: [receipt.file_name] });
    await ask({ table: 'receipts' });
    searchedAfter.push((await time(() => ask({ table: 'items', q: 'heinz' })))[0]);
  }
  figures.set('first search after an edit (dictionary made) p50', [percentile(searchedAfter, 50), 'ms']);
  // Each query is measured the first time it is asked (a bounded top-k over the rows under its
  // filter, which are then kept with the index), the second time (they are sorted once) and later
  // (the next page, or the table opened again, is cut from the sorted rows).
  const forget = async () => (await reportIndexOf(deps, uid)).results.clear();
  // Each sample is followed by the point read every page starts with (the user's data version), so
  // the page and its floor are measured at the same moments of the machine's load.
  const firstAndAgain = async (label: string, queries: Record<string, string>[]) => {
    const runs: [number[], number[], number[]] = [[], [], []];
    const floor: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const query = queries[i % queries.length]!;
      await forget();
      for (const run of runs) {
        const [elapsed, page] = await time(() => ask(query));
        run.push(elapsed);
        bytes = Math.max(bytes, Buffer.byteLength(JSON.stringify(page)));
      }
      floor.push((await time(() => repos.users.getDataVersion(uid)))[0]);
    }
    figures.set(`${label} p50`, [percentile(runs[0], 50), 'ms']);
    figures.set(`${label} p50, second time (sorts)`, [percentile(runs[1], 50), 'ms']);
    figures.set(`${label} p50, later`, [percentile(runs[2], 50), 'ms']);
    figures.set(`${label}: point read beside it p50`, [percentile(floor, 50), 'ms']);
    return bytes;
  };
  // The same first asks of the index alone, without the data version read before them: the part of
  // a page that is this process's own work.
  const inMemory = async (label: string, queries: Record<string, string>[]) => {
    const index = await reportIndexOf(deps, uid);
    const runs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      index.results.clear();
      const {
        userId: _userId,
        pageSize,
        ...query
      } = reportQuery.parse({
        userId: uid,
        pageSize: '25',
        ...queries[i % queries.length]!,
      });
      runs.push((await time(async () => queryReportIndex(index, { ...query, pageSize: pageSize ?? 25 })))[0]);
    }
    figures.set(`${label} p50, in memory`, [percentile(runs, 50), 'ms']);
  };
  for (const table of REPORT_TABLES) {
    const bytes = await firstAndAgain(`${table} first page`, [{ table }]);
    figures.set(`${table} bytes per page of 25`, [bytes / 1024, 'KB']);
  }
  await inMemory('receipts first page', [{ table: 'receipts' }]);
  await inMemory('items first page', [{ table: 'items' }]);
  const words = ['heinz', 'shop 7', 'product 3', 'nescafe', 'colgate product', 'zzz'];
  await firstAndAgain(
    'search (receipts by merchant, item or brand)',
    words.map((q) => ({ table: 'receipts', q })),
  );
  await inMemory(
    'search (receipts)',
    words.map((q) => ({ table: 'receipts', q })),
  );
  await firstAndAgain(
    'search (items)',
    words.map((q) => ({ table: 'items', q })),
  );
  await inMemory(
    'search (items)',
    words.map((q) => ({ table: 'items', q })),
  );
  return figures;
}

async function bench(name: string, store: TableStore, blobDir: string, batchRead: boolean): Promise<void> {
  console.log(
    `\n## ${name}: one user at ${SIZES.join(' and ')} receipts × ${ITEMS} items, beside ${OTHER_USERS} users of ${OTHER_RECEIPTS}`,
  );
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const uid = 'benchReportsMain';
  let t = performance.now();
  for (let u = 0; u < OTHER_USERS; u++) {
    await seedReceipts(store, `benchReportsOther${u}`, generatedReceipts(`o${u}`, OTHER_RECEIPTS, ITEMS), 8);
  }
  console.log(`other users seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // The receipts measured as new writes come after every size's receipts.
  const largest = SIZES.at(-1) ?? 0;
  const all = generatedReceipts(uid, largest + SAMPLES * SIZES.length, ITEMS);
  const bySize = new Map<number, Figures>();
  let next = 0;
  let count = 0;
  let extra = largest;
  for (const size of SIZES) {
    t = performance.now();
    await seedReceipts(store, uid, all.slice(next, next + Math.max(0, size - count)), 8);
    next += Math.max(0, size - count);
    count = Math.max(count, size) + SAMPLES;
    const seconds = ((performance.now() - t) / 1000).toFixed(1);
    // The rows were written past the totals: build them once, as a user's first write does.
    await invalidateReportTotals(store, uid);
    t = performance.now();
    await recordReceiptWrites(store, uid, []);
    const build = performance.now() - t;
    console.log(
      `\n### ${size} receipts (seeded up to it in ${seconds} s; report totals built from all rows in ${(build / 1000).toFixed(1)} s)`,
    );
    const added = all.slice(extra, extra + SAMPLES);
    extra += SAMPLES;
    const figures = await measure(store, blobDir, uid, added, batchRead);
    bySize.set(size, figures);
    for (const [label, [value, unit]] of figures) {
      const shown = unit === 'ms' ? ms(value) : unit === 'KB' ? `${value.toFixed(1)} KB` : `${value}`;
      console.log(`${label.padEnd(56)} ${shown}`);
    }
  }
  if (SIZES.length > 1) {
    const first = bySize.get(SIZES[0]!)!;
    const last = bySize.get(SIZES.at(-1)!)!;
    console.log(`\n### growth from ${SIZES[0]} to ${SIZES.at(-1)} receipts`);
    for (const [label, [value]] of last) {
      const before = first.get(label)![0];
      console.log(`${label.padEnd(56)} ${growth(before, value)}`);
    }
  }
}

async function main(): Promise<void> {
  if (ONLY !== 'dynamo') await benchAzure();
  if (ONLY !== 'azure') await benchDynamo();
}

async function benchAzure(): Promise<void> {
  const azDir = await mkdtemp(join(tmpdir(), 'bench-reports-az-'));
  const azurite = await startAzurite({ location: azDir, silent: true });
  try {
    await bench(
      'Azure Tables (Azurite)',
      AzureTableStore.fromConnectionString(azurite.connectionString),
      join(azDir, 'blobs'),
      false,
    );
  } finally {
    await azurite.stop();
    await rm(azDir, { recursive: true, force: true });
  }
}

/**
 * dynalite in a process of its own (BENCH_DYNALITE=inline: in this one). DynamoDB is a service
 * apart from the app, and Azurite runs as a process of its own here too; in this process, the
 * database's rows (330,000 with the other users) would weigh on every garbage collection of the
 * process measured.
 */
async function startDynaliteApart(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (process.env.BENCH_DYNALITE === 'inline') return startDynalite();
  const script = join(dirname(fileURLToPath(import.meta.url)), 'soak/store-process.ts');
  // Supervised: killed should the bench end abruptly, and stopped even when it died of a signal.
  const child = superviseChild(
    spawn(process.execPath, ['--import', 'tsx', script, '0'], { stdio: ['ignore', 'pipe', 'pipe'] }),
    { keepLines: 40 },
  );
  const deadline = Date.now() + 60_000;
  let ready: RegExpExecArray | null = null;
  while (!(ready = /SOAK_READY (\S+)/.exec(child.output.join('\n')))) {
    if (child.exited() || Date.now() > deadline) {
      await child.kill();
      throw new Error(`dynalite did not start in a process of its own:\n${child.output.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { endpoint: ready[1]!, stop: () => child.stop('SIGTERM', 5_000) };
}

async function benchDynamo(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'bench-reports-dy-'));
  const dynalite = await startDynaliteApart();
  const client = new DynamoDBClient({
    endpoint: dynalite.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await createStoreTable(client, 'receipts');
    await bench(
      'DynamoDB (dynalite)',
      new DynamoTableStore({ client, tableName: 'receipts' }),
      blobDir,
      true,
    );
  } finally {
    client.destroy();
    await dynalite.stop();
    await rm(blobDir, { recursive: true, force: true });
  }
}

await main();
