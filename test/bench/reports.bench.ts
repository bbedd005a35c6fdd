/**
 * Report query benchmark (`npm run bench:reports`), printed figures: first-page p50 of each report
 * table, search p50 and bytes per page, for a user with BENCH_RECEIPTS receipts (default 1,000; set
 * 10000 for the large case) of BENCH_ITEMS_PER_RECEIPT items (default 10) beside BENCH_OTHER_USERS
 * other users (default 20, of 100 receipts each unless BENCH_OTHER_RECEIPTS), on Azurite and dynalite.
 * "cold" is the first request after a write (the index is rebuilt from the cached report data);
 * "warm" is every later one. Data is seeded through the repository, not OCR.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  REPORT_TABLES,
  REQUIRED_TABLES,
  ReceiptRepository,
  clearReportIndexes,
  getAppDataJson,
  queryReport,
  reportQuery,
  silentLogger,
  type TableStore,
} from '@receipts/core';
import { LocalBlobStore } from '@receipts/blob-local';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { startAzurite } from '../../lambdas/src/local/azurite';
import { startDynalite } from '../../lambdas/src/local/dynalite';
import { generatedReceipts, seedReceipts } from '../support/report-seed';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const RECEIPTS = envInt('BENCH_RECEIPTS', 1000);
const ITEMS = envInt('BENCH_ITEMS_PER_RECEIPT', 10);
const OTHER_USERS = envInt('BENCH_OTHER_USERS', 20);
const OTHER_RECEIPTS = envInt('BENCH_OTHER_RECEIPTS', 100);
const SAMPLES = 15;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

async function bench(name: string, store: TableStore, blobDir: string): Promise<void> {
  console.log(
    `\n## ${name}: ${RECEIPTS} receipts × ${ITEMS} items, beside ${OTHER_USERS} users of ${OTHER_RECEIPTS}`,
  );
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const deps = { store, blobs: new LocalBlobStore({ root: blobDir }), logger: silentLogger };
  const uid = 'benchReportsMain';
  const identity = { uid, email: null, name: null };
  const t = performance.now();
  await seedReceipts(store, uid, generatedReceipts(uid, RECEIPTS, ITEMS), 8);
  for (let u = 0; u < OTHER_USERS; u++) {
    await seedReceipts(store, `benchReportsOther${u}`, generatedReceipts(`o${u}`, OTHER_RECEIPTS, ITEMS), 8);
  }
  console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // As after a scan: the worker has refreshed the cached report data.
  await getAppDataJson(deps, identity, { userId: uid });

  const ask = (query: Record<string, string>) =>
    queryReport(deps, identity, reportQuery.parse({ userId: uid, pageSize: '25', ...query }));
  const repo = new ReceiptRepository(store);
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    clearReportIndexes();
    cold.push((await time(() => ask({ table: 'receipts' })))[0]);
  }
  console.log(
    `first page after a write (index rebuilt from the cached report): p50 ${ms(percentile(cold, 50))}`,
  );
  for (const table of REPORT_TABLES) {
    const runs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const [elapsed, page] = await time(() => ask({ table }));
      runs.push(elapsed);
      bytes = Buffer.byteLength(JSON.stringify(page));
    }
    console.log(
      `${table.padEnd(13)} first page p50 ${ms(percentile(runs, 50))}, p90 ${ms(percentile(runs, 90))}, ${(bytes / 1024).toFixed(1)} KB per page of 25`,
    );
  }
  const searches: number[] = [];
  const words = ['heinz', 'shop 7', 'product 3', 'nescafe', 'colgate product', 'zzz'];
  for (let i = 0; i < SAMPLES; i++) {
    searches.push((await time(() => ask({ table: 'receipts', q: words[i % words.length]! })))[0]);
  }
  console.log(
    `search (receipts by merchant, item or brand) p50 ${ms(percentile(searches, 50))}, p90 ${ms(percentile(searches, 90))}`,
  );
  await repo.bumpDataVersion(uid, new Date());
}

async function main(): Promise<void> {
  const azDir = await mkdtemp(join(tmpdir(), 'bench-reports-az-'));
  const azurite = await startAzurite({ location: azDir, silent: true });
  try {
    await bench(
      'Azure Tables (Azurite)',
      AzureTableStore.fromConnectionString(azurite.connectionString),
      join(azDir, 'blobs'),
    );
  } finally {
    await azurite.stop();
    await rm(azDir, { recursive: true, force: true });
  }
  const dynalite = await startDynalite();
  const client = new DynamoDBClient({
    endpoint: dynalite.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const blobDir = await mkdtemp(join(tmpdir(), 'bench-reports-dy-'));
  try {
    await createStoreTable(client, 'receipts');
    await bench('DynamoDB (dynalite)', new DynamoTableStore({ client, tableName: 'receipts' }), blobDir);
  } finally {
    client.destroy();
    await dynalite.stop();
    await rm(blobDir, { recursive: true, force: true });
  }
}

await main();
