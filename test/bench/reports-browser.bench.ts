/**
 * Reports in the browser (`npm run bench:reports:browser`), printed figures: headless Chromium
 * against the local stack (`npm start`'s stack: Azurite, the Auth emulator, the API, the built web
 * app), one signed-in user with BENCH_SIZES receipts (default "1000,10000"; the same store grows from
 * one size to the next) of BENCH_ITEMS_PER_RECEIPT items (default 10). Prints, per size, the time
 * from navigation to /Reports to its first receipt row being visible: the first visit after an edit
 * (the server rebuilds the user's report data from the rows), the first after a scan (the worker
 * rebuilt the report data; the server reads it and rebuilds its index) and later visits (p50 and
 * p90 of BENCH_VISITS, default 10, each a fresh page load), then the growth from the smallest size
 * to the largest.
 * STORAGE_BACKEND=dynamodb runs it on dynalite instead. Data is seeded through the repository.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiptRepository, clearReportIndexes, refreshAppDataCache } from '@receipts/core';
import { startLocalStack } from '../../dev/src/stack';
import { launchChromium } from '../e2e/support/browser';
import { generatedReceipts, seedReceipts } from '../support/report-seed';

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
const VISITS = envInt('BENCH_VISITS', 10);
const BACKEND = process.env.STORAGE_BACKEND === 'dynamodb' ? 'dynamodb' : 'azure';
const PERSON = { email: 'bench-reports@example.com', password: 'bench-password-1', name: 'Bench' };

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-reports-browser-'));
  const stack = await startLocalStack({
    port: 0,
    dataDir: join(dir, 'data'),
    storageBackend: BACKEND,
    buildWeb: true,
    quiet: true,
    logLevel: 'error',
  });
  const cameraFile = join(dir, 'camera.jpg');
  await writeFile(cameraFile, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
  const browser = await launchChromium(cameraFile);
  try {
    const session = await stack.signUp(PERSON.email, PERSON.password, PERSON.name);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const url = (route: string) => new URL(route, stack.url).href;
    await page.goto(url('/Login'));
    await page.getByRole('button', { name: 'Login with email' }).click();
    const form = page.getByRole('form', { name: 'Sign in with email' });
    await form.getByLabel('Email').fill(PERSON.email);
    await form.getByLabel('Password').fill(PERSON.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    const firstRow = () =>
      page
        .getByRole('table', { name: 'Receipts', exact: true })
        .locator('tbody tr')
        // A receipt's row links to the receipt; the "Loading…" row shown while the page waits does not.
        .filter({ has: page.locator('a') })
        .first()
        .waitFor({ state: 'visible', timeout: 120_000 });
    const visit = async (): Promise<number> => {
      // From a blank page: no request of a previous screen is still running on the server.
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(url('/Reports'));
      await firstRow();
      return performance.now() - started;
    };

    console.log(
      `\n## /Reports first receipt row in Chromium, ${BACKEND === 'azure' ? 'Azure Tables (Azurite)' : 'DynamoDB (dynalite)'}, ${SIZES.join(' and ')} receipts × ${ITEMS} items`,
    );
    const all = generatedReceipts('browser', SIZES.at(-1) ?? 0, ITEMS);
    const bySize = new Map<number, { afterWrite: number; afterScan: number; p50: number; p90: number }>();
    let seeded = 0;
    for (const size of SIZES) {
      // No page is open while the data changes: none of its requests rebuilds the report early.
      await page.goto('about:blank');
      const t = performance.now();
      await seedReceipts(stack.services.store, session.localId, all.slice(seeded, size), 8);
      seeded = size;
      // As after an edit: the data version moved and the report data is rebuilt by the next read.
      clearReportIndexes();
      const afterWrite = await visit();
      // As after a scan: the worker rebuilt the report data before the scan showed as done.
      await page.goto('about:blank');
      await new ReceiptRepository(stack.services.store).bumpDataVersion(session.localId, new Date());
      await refreshAppDataCache(stack.services, session.localId);
      clearReportIndexes();
      const afterScan = await visit();
      const visits: number[] = [];
      for (let i = 0; i < VISITS; i++) visits.push(await visit());
      const figures = { afterWrite, afterScan, p50: percentile(visits, 50), p90: percentile(visits, 90) };
      bySize.set(size, figures);
      console.log(`\n### ${size} receipts (seeded in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
      const line = (label: string, value: string) => console.log(`${label.padEnd(44)} ${value}`);
      line('first visit after an edit (rebuilds the data)', `${afterWrite.toFixed(0)} ms`);
      line('first visit after a scan (worker rebuilt it)', `${afterScan.toFixed(0)} ms`);
      line(`first receipt row p50 (${VISITS} visits)`, `${figures.p50.toFixed(0)} ms`);
      line('first receipt row p90', `${figures.p90.toFixed(0)} ms`);
      line('target: p50 ≤ 1000 ms', figures.p50 <= 1000 ? 'met' : 'NOT met');
    }
    if (SIZES.length > 1) {
      const first = bySize.get(SIZES[0]!)!;
      const last = bySize.get(SIZES.at(-1)!)!;
      const growth = (a: number, b: number) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(0)} %`;
      console.log(`\n### growth from ${SIZES[0]} to ${SIZES.at(-1)} receipts`);
      console.log(`${'first receipt row p50'.padEnd(44)} ${growth(first.p50, last.p50)}`);
      console.log(`${'first visit after an edit'.padEnd(44)} ${growth(first.afterWrite, last.afterWrite)}`);
      console.log(`${'first visit after a scan'.padEnd(44)} ${growth(first.afterScan, last.afterScan)}`);
    }
    await context.close();
  } finally {
    await browser.close();
    await stack.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
