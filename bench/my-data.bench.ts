/**
 * "My data" benchmark (`npm run bench:mydata`), printed figures: one user of BENCH_RECEIPTS receipts
 * (default 1,000) of BENCH_ITEMS_PER_RECEIPT items (default 10) with BENCH_IMAGES stored images
 * (default 100) of BENCH_IMAGE_KB (default 1,024 KB, random so they do not compress), beside another
 * user of 100 receipts, on dynalite (BENCH_STORE=azure: Azurite) and the local blob store. It times
 * the data download (the ZIP consumed as the local server sends it, chunk by chunk) with the most
 * memory held in buffers meanwhile, and the account deletion. Data is seeded through the repository.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REQUIRED_TABLES,
  deleteAccount,
  downloadMyData,
  listAllEntities,
  silentLogger,
  createReportCache,
} from '@receipts/core';
import { LocalBlobStore } from '@receipts/blob-local';
import { zipStream } from '../lambdas/src/http/zip';
import { generatedReceipts, seedReceipts } from '../test/support/report-seed';
import { STORE_BACKENDS, type StartedStore } from '../test/support/store-backends';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const RECEIPTS = envInt('BENCH_RECEIPTS', 1000);
const ITEMS = envInt('BENCH_ITEMS_PER_RECEIPT', 10);
const IMAGES = envInt('BENCH_IMAGES', 100);
const IMAGE_BYTES = envInt('BENCH_IMAGE_KB', 1024) * 1024;
const STORE = process.env.BENCH_STORE === 'azure' ? 'azure' : 'dynamo';

const say = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

function startStore(): Promise<StartedStore> {
  const [azure, dynamo] = STORE_BACKENDS;
  return (STORE === 'azure' ? azure! : dynamo!).start();
}

async function main(): Promise<void> {
  const { store, stop } = await startStore();
  const blobDir = await mkdtemp(join(tmpdir(), 'receipts-bench-blobs-'));
  try {
    const blobs = new LocalBlobStore({ root: blobDir });
    const deps = { store, blobs, logger: silentLogger, reportCache: createReportCache() };
    const user = { uid: 'benchMyData', email: 'bench@example.com', name: 'Bench' };
    say(
      `store: ${STORE === 'azure' ? 'Azurite' : 'dynalite'}; ${RECEIPTS} receipts × ${ITEMS} items, ${IMAGES} images of ${mb(IMAGE_BYTES)}`,
    );
    let t = performance.now();
    await seedReceipts(store, user.uid, generatedReceipts('bench', RECEIPTS, ITEMS), 8);
    await seedReceipts(store, 'benchOther', generatedReceipts('other', 100, ITEMS), 8);
    for (let i = 0; i < IMAGES; i++) {
      await blobs.put(
        `${user.uid}/${1700000000000 + i}-receipt.jpg`,
        new Uint8Array(randomBytes(IMAGE_BYTES)),
        'image/jpeg',
      );
    }
    say(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // Download: consumed chunk by chunk, as the local server writes it out.
    global.gc?.();
    const baseline = process.memoryUsage();
    let peakBuffers = baseline.arrayBuffers;
    let peakRss = baseline.rss;
    let zipBytes = 0;
    t = performance.now();
    const data = await downloadMyData(deps, user, { userId: user.uid, images: true });
    const rowsRead = performance.now() - t;
    for await (const chunk of zipStream(data.files)) {
      zipBytes += chunk.length;
      const now = process.memoryUsage();
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
      peakRss = Math.max(peakRss, now.rss);
    }
    const downloadMs = performance.now() - t;
    say(
      `download: ${mb(zipBytes)} ZIP in ${(downloadMs / 1000).toFixed(2)} s (rows read and files made ready in ${rowsRead.toFixed(0)} ms); ` +
        `buffers peak +${mb(peakBuffers - baseline.arrayBuffers)}, RSS peak +${mb(peakRss - baseline.rss)} ` +
        `(images in it: ${mb(IMAGES * IMAGE_BYTES)})`,
    );

    // Delete.
    t = performance.now();
    const answer = await deleteAccount(
      { ...deps, identity: { deleteAccount: async () => undefined } },
      user,
      { userId: user.uid },
    );
    const deleteMs = performance.now() - t;
    let left = 0;
    for (const table of REQUIRED_TABLES) {
      left += (await listAllEntities(store, table)).filter((r) =>
        JSON.stringify(r).includes(user.uid),
      ).length;
    }
    const otherReceipts = (await listAllEntities(store, 'Receipts', { partitionKey: 'benchOther' })).length;
    say(
      `delete: ${answer.removed.rows} rows and ${answer.removed.blobs} blobs in ${(deleteMs / 1000).toFixed(1)} s; ` +
        `rows of the user left: ${left}; blobs left: ${(await blobs.list(`${user.uid}/`)).length}; ` +
        `the other user's receipts: ${otherReceipts}`,
    );
  } finally {
    await stop();
    await rm(blobDir, { recursive: true, force: true });
  }
}

await main();
