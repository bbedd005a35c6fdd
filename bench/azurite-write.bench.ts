/**
 * Where a write's totals update spends its time on Azurite (`npm run bench:azurite-write`), printed
 * figures: one user grown to each of PROBE_SIZES receipts (default "1000,10000") of 10 branded items,
 * beside PROBE_OTHER_USERS users (default 1) of 1,000; per size, point reads for 12 s on an idle
 * emulator and for 7 s after one write (LokiJS saves the whole database 5 s after it changed and
 * serves nothing meanwhile), then 15 edited totals and 15 new receipts, each update timed per store
 * call (in completion order), with the client's CPU time and the emulator's (from /proc, in 10 ms
 * ticks: Linux only). The writers hand over the keys of the items they wrote, as the scan worker and
 * the edit routes do; PROBE_NO_KEYS=1 leaves them out (the update lists the items partition).
 * Azurite is started by the same launcher as `npm start` (dev/src/azurite.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REQUIRED_TABLES,
  repositories,
  invalidateReportTotals,
  itemIdFor,
  receiptIdFor,
  recordReceiptWrites,
  type TableStore,
} from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { startAzurite } from '../dev/src/azurite';
import { generatedReceipts, seedReceipts } from '../test/support/report-seed';

const SIZES = (process.env.PROBE_SIZES ?? '1000,10000').split(',').map(Number);
const OTHER = Number(process.env.PROBE_OTHER_USERS ?? 1);
const SAMPLES = 15;
const pct = (v: number[], p: number) =>
  [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))]!;

function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // ms (USER_HZ 100)
}

type Call = { method: string; n: number; ms: number; at: number };
function traced(store: TableStore, log: Call[]): TableStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const t = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const n = Array.isArray(args[1]) ? args[1].length : 1;
          log.push({ method: String(property), n, ms: performance.now() - t, at: t });
        }
      };
    },
  });
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'probe-az-'));
  const azurite = await startAzurite({ location: dir, silent: true });
  const pid = Number(
    execFileSync('pgrep', ['-f', '--', `--location ${dir}`])
      .toString()
      .trim()
      .split('\n')[0],
  );
  const store = AzureTableStore.fromConnectionString(azurite.connectionString);
  try {
    for (const t of REQUIRED_TABLES) await store.createTable(t);
    for (let u = 0; u < OTHER; u++)
      await seedReceipts(store, `other${u}`, generatedReceipts(`o${u}`, 1000, 10), 8);
    const uid = 'probeMain';
    const largest = Math.max(...SIZES);
    const all = generatedReceipts(uid, largest + 100, 10);
    let count = 0;
    let extra = largest;
    const repos = repositories(store);
    for (const size of SIZES) {
      await seedReceipts(store, uid, all.slice(count, size), 8);
      count = size;
      await invalidateReportTotals(store, uid);
      await recordReceiptWrites(store, uid, []);
      await new Promise((r) => setTimeout(r, 6000));
      const files = await readdir(dir);
      let bytes = 0;
      for (const f of files) bytes += (await stat(join(dir, f)).catch(() => ({ size: 0 }))).size;
      console.log(
        `\n## ${size} receipts (+${OTHER} others); azurite dir ${(bytes / 1e6).toFixed(1)} MB: ${files.join(', ')}`,
      );

      // Point reads for 12 s: the emulator's periodic save shows as stalls.
      const lat: number[] = [];
      const end = performance.now() + 12_000;
      while (performance.now() < end) {
        const t = performance.now();
        await store.getEntity('Totals', 'nobody~summary', 'ready');
        lat.push(performance.now() - t);
      }
      console.log(
        `idle point reads: n=${lat.length} p50=${pct(lat, 50).toFixed(2)} p99=${pct(lat, 99).toFixed(1)} max=${Math.max(...lat).toFixed(0)} ms; over 50 ms: ${lat.filter((x) => x > 50).length}`,
      );

      // After one write the database is dirty: LokiJS saves all of it within 5 s (autosave), while
      // every request waits.
      {
        const one = (await repos.receipts.listReceipts(uid))[0]!;
        await repos.receipts.saveReceipt(one);
        const after: number[] = [];
        const stop = performance.now() + 7_000;
        while (performance.now() < stop) {
          const t = performance.now();
          await store.getEntity('Totals', 'nobody~summary', 'ready');
          after.push(performance.now() - t);
        }
        console.log(
          `point reads for 7 s after one write: n=${after.length} p50=${pct(after, 50).toFixed(2)} max=${Math.max(...after).toFixed(0)} ms; over 50 ms: ${after
            .filter((x) => x > 50)
            .map((x) => x.toFixed(0))
            .join(' ')}`,
        );
      }
      const receipts = (await repos.receipts.listReceipts(uid)).slice(0, SAMPLES);
      for (const kind of ['edit', 'new'] as const) {
        const totals: number[] = [];
        const clientCpu: number[] = [];
        const serverCpu: number[] = [];
        const perCall = new Map<string, number[]>();
        for (let i = 0; i < SAMPLES; i++) {
          let file: string;
          let ids: string[];
          if (kind === 'edit') {
            const r = receipts[i]!;
            ids = (await repos.receipts.listItemsOfReceipt(r.receipt_id)).map((item) => item.item_id);
            await repos.receipts.saveReceipt({ ...r, total_amount: (r.total_amount ?? 0) + 1 + i });
            file = r.file_name;
          } else {
            const r = all[extra++]!;
            await seedReceipts(store, uid, [r], 1);
            file = r.fileName;
            ids = r.items.map((_, j) => itemIdFor(receiptIdFor(uid, r.fileName), j));
          }
          const written = process.env.PROBE_NO_KEYS ? undefined : new Map([[file, ids]]);
          const log: Call[] = [];
          const c0 = process.cpuUsage();
          const s0 = cpuOf(pid);
          const t = performance.now();
          await recordReceiptWrites(traced(store, log), uid, [file], new Date(), written);
          totals.push(performance.now() - t);
          const c = process.cpuUsage(c0);
          clientCpu.push((c.user + c.system) / 1000);
          serverCpu.push(cpuOf(pid) - s0);
          log.forEach((call, j) => {
            const key = `${String(j).padStart(2)} ${call.method}(${call.n})`;
            perCall.set(key, [...(perCall.get(key) ?? []), call.ms]);
          });
        }
        console.log(
          `${kind}: p50 ${pct(totals, 50).toFixed(1)} ms (min ${Math.min(...totals).toFixed(1)}, max ${Math.max(...totals).toFixed(0)}); client CPU p50 ${pct(clientCpu, 50).toFixed(1)} ms; emulator CPU p50 ${pct(serverCpu, 50).toFixed(0)} ms (10 ms ticks)`,
        );
        console.log('   samples: ' + totals.map((x) => x.toFixed(0)).join(' '));
        for (const [key, v] of perCall)
          console.log(
            `   ${key.padEnd(28)} p50 ${pct(v, 50).toFixed(1)} ms  max ${Math.max(...v).toFixed(0)}`,
          );
      }
    }
  } finally {
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
