/**
 * What an Azurite point read costs against the size of its partition (`npm run bench:azurite-partition`),
 * printed figures. Azurite (LokiJS) finds a row by the binary index of its PartitionKey and then
 * checks the RowKey of every row of that partition, so a point read grows with the partition, not
 * the table. One user grown to each of PROBE_SIZES receipts (default "1000,10000", one item each):
 * p50 of 100 point reads of a receipt (the user's Receipts partition, spec §7), of an item (the
 * receipt's own partition of the Items table) and of the user's data version (the Users row, beside
 * as many image index rows as receipts, as each upload writes one). Azurite is started by the same
 * launcher as `npm start` (dev/src/azurite.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REQUIRED_TABLES,
  repositories,
  TABLES,
  itemIdFor,
  receiptIdFor,
  type TransactionAction,
} from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { startAzurite } from '../dev/src/azurite';
import { generatedReceipts, seedReceipts } from '../test/support/report-seed';

const SIZES = (process.env.PROBE_SIZES ?? '1000,10000').split(',').map(Number);
const READS = 100;
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(fn: (i: number) => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t = performance.now();
    await fn(i);
    runs.push(performance.now() - t);
  }
  return p50(runs);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-az-partition-'));
  const azurite = await startAzurite({ location: dir, silent: true });
  const store = AzureTableStore.fromConnectionString(azurite.connectionString);
  const repos = repositories(store);
  try {
    for (const table of REQUIRED_TABLES) await store.createTable(table);
    const uid = 'benchPartition';
    const all = generatedReceipts(uid, Math.max(...SIZES), 1);
    await repos.users.bumpDataVersion(uid, new Date(), { files: [] });
    let count = 0;
    console.log('partition rows  receipt read p50  item read p50  data version read p50  load average');
    for (const size of SIZES) {
      await seedReceipts(store, uid, all.slice(count, size), 8);
      // Image index rows in the user's Users partition, as many as the receipts.
      for (let at = count; at < size; at += 100) {
        const actions: TransactionAction[] = [];
        for (let i = at; i < Math.min(size, at + 100); i++) {
          actions.push([
            'create',
            {
              partitionKey: uid,
              rowKey: `~image~${String(i).padStart(8, '0')}`,
              file_name: all[i]!.fileName,
            },
          ]);
        }
        await store.submitTransaction(TABLES.users, actions);
      }
      count = size;
      // Past Azurite's save of the database (5 s after a change), which stalls every request.
      await new Promise((resolve) => setTimeout(resolve, 7000));
      const receiptId = (i: number) => receiptIdFor(uid, all[(i * 37) % size]!.fileName);
      const receipt = await timed((i) => store.getEntity(TABLES.receipts, uid, receiptId(i)));
      const item = await timed((i) =>
        store.getEntity(TABLES.items, receiptId(i), itemIdFor(receiptId(i), 0)),
      );
      const version = await timed(() => repos.users.getDataState(uid));
      const ms = (n: number) => `${n.toFixed(2)} ms`.padEnd(17);
      console.log(
        `${String(size).padEnd(16)}${ms(receipt)}${ms(item)}${ms(version)}     ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
      );
    }
  } finally {
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
