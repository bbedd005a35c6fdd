/**
 * `npm run bench:store`: throughput of both TableStore adapters against their local emulators
 * (Azurite, dynalite), each started here on a free loopback port and stopped afterwards. The figures
 * describe the adapters plus emulators on this machine, not the cloud services.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { silentLogger, type TableStore } from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { createStoreTable, DynamoTableStore } from '@receipts/store-dynamo';
import { startAzurite } from '../dev/src/azurite';
import { startDynalite } from '../dev/src/dynalite';

const SEQUENTIAL_UPSERTS = 500;
const CONCURRENT_UPSERTS = 1000;
const CONCURRENCY = 16;
const POINT_READS = 1000;
const PARTITION_SIZE = 1000;
const LIST_RUNS = 5;

interface Result {
  adapter: string;
  upsertsSequential: number;
  upsertsConcurrent: number;
  readsSequential: number;
  readsConcurrent: number;
  listFirstMs: number;
  listMedianMs: number;
}

const receiptItem = (partitionKey: string, i: number) => ({
  partitionKey,
  rowKey: `item-${String(i).padStart(5, '0')}`,
  description: `Product ${i}`,
  unit_price: 1.25 + (i % 40),
  quantity: 1 + (i % 3),
  total_price: (1.25 + (i % 40)) * (1 + (i % 3)),
  currency_code: 'EUR',
  user_id: 'bench-user',
  brand: i % 5 === 0 ? null : `Brand ${i % 7}`,
  bought_at: new Date(Date.UTC(2024, 0, 1 + (i % 28))),
});

/** Runs `count` tasks with at most `limit` in flight. */
async function pool(count: number, limit: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

async function measure(adapter: string, store: TableStore): Promise<Result> {
  const table = `Bench${Date.now().toString(36)}`;
  await store.createTable(table);
  // A short warm-up so connection set-up is not counted.
  for (let i = 0; i < 20; i++) await store.upsertEntity(table, receiptItem('warm-up', i));

  const sequentialMs = await timed(async () => {
    for (let i = 0; i < SEQUENTIAL_UPSERTS; i++)
      await store.upsertEntity(table, receiptItem('sequential', i));
  });
  const concurrentMs = await timed(() =>
    pool(CONCURRENT_UPSERTS, CONCURRENCY, (i) => store.upsertEntity(table, receiptItem('partition', i))),
  );
  const readSequentialMs = await timed(async () => {
    for (let i = 0; i < SEQUENTIAL_UPSERTS; i++) {
      await store.getEntity(table, 'sequential', receiptItem('sequential', i).rowKey);
    }
  });
  const readConcurrentMs = await timed(() =>
    pool(POINT_READS, CONCURRENCY, (i) =>
      store.getEntity(table, 'partition', receiptItem('partition', i % PARTITION_SIZE).rowKey),
    ),
  );
  const listTimes: number[] = [];
  for (let run = 0; run < LIST_RUNS; run++) {
    listTimes.push(
      await timed(async () => {
        const page = await store.listEntities(table, { partitionKey: 'partition', pageSize: 1000 });
        if (page.items.length !== PARTITION_SIZE) {
          throw new Error(`${adapter} listed ${page.items.length} entities instead of ${PARTITION_SIZE}.`);
        }
      }),
    );
  }
  await store.deleteTable(table);
  const sorted = [...listTimes].sort((a, b) => a - b);
  return {
    adapter,
    upsertsSequential: perSecond(SEQUENTIAL_UPSERTS, sequentialMs),
    upsertsConcurrent: perSecond(CONCURRENT_UPSERTS, concurrentMs),
    readsSequential: perSecond(SEQUENTIAL_UPSERTS, readSequentialMs),
    readsConcurrent: perSecond(POINT_READS, readConcurrentMs),
    listFirstMs: Math.round(listTimes[0]!),
    listMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)]!),
  };
}

function printTable(results: Result[]): void {
  const header = [
    'adapter (emulator)',
    `upserts/s (${SEQUENTIAL_UPSERTS} seq)`,
    `upserts/s (${CONCURRENT_UPSERTS}, ${CONCURRENCY} at once)`,
    `reads/s (${SEQUENTIAL_UPSERTS} seq)`,
    `reads/s (${POINT_READS}, ${CONCURRENCY} at once)`,
    `list ${PARTITION_SIZE} (ms, first / median of ${LIST_RUNS})`,
  ];
  const rows = results.map((result) => [
    result.adapter,
    String(result.upsertsSequential),
    String(result.upsertsConcurrent),
    String(result.readsSequential),
    String(result.readsConcurrent),
    `${result.listFirstMs} / ${result.listMedianMs}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join(' | ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  console.log(
    `Table store benchmark: Node ${process.version}, ${cpus().length} CPU(s), emulators on 127.0.0.1\n`,
  );
  const results: Result[] = [];

  const location = await mkdtemp(join(tmpdir(), 'bench-azurite-'));
  const azurite = await startAzurite({ location, silent: true });
  try {
    const azure = AzureTableStore.fromConnectionString(azurite.connectionString, { logger: silentLogger });
    results.push(await measure('AzureTableStore (Azurite 3.35)', azure));
  } finally {
    await azurite.stop();
    await rm(location, { recursive: true, force: true });
  }

  const dynalite = await startDynalite();
  const client = new DynamoDBClient({
    endpoint: dynalite.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await createStoreTable(client, 'bench');
    const dynamo = new DynamoTableStore({ client, tableName: 'bench', logger: silentLogger });
    results.push(await measure('DynamoTableStore (dynalite, in memory)', dynamo));
  } finally {
    client.destroy();
    await dynalite.stop();
  }

  printTable(results);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
