/**
 * Bytes the Receipt page downloads (`npm run bench:receipt-page`), printed figures: headless Chromium
 * against the local stack (`npm start`'s stack with the built web app), one signed-in user with
 * BENCH_RECEIPTS receipts (default 1,000) of BENCH_ITEMS_PER_RECEIPT items (default 10), seeded
 * through the repository. Opens one receipt from a fresh page load and counts every /api answer it
 * receives, as sent over the wire (compressed where the server compresses) and as JSON; then the
 * whole report data (GET /api/getAppData, which the page downloaded before it asked for
 * /api/receiptDetail) read the way the browser reads it, for the figure before. Static files (the
 * app's scripts and styles, the same before and after and cached by the browser) are counted apart.
 * STORAGE_BACKEND=dynamodb runs it on dynalite instead.
 */
import { get } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { receiptIdFor } from '@receipts/core';
import { startLocalStack } from '../dev/src/stack';
import { launchChromium, signInWithEmail } from '../test/e2e/support/browser';
import { generatedReceipts, seedReceipts } from '../test/support/report-seed';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const RECEIPTS = envInt('BENCH_RECEIPTS', 1000);
const ITEMS = envInt('BENCH_ITEMS_PER_RECEIPT', 10);
const BACKEND = process.env.STORAGE_BACKEND === 'dynamodb' ? 'dynamodb' : 'azure';
const PERSON = { email: 'bench-receipt-page@example.com', password: 'bench-password-1', name: 'Bench' };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Answer {
  path: string;
  wire: number;
  json: number;
}

/** One GET as the browser sends it (gzip accepted): the bytes on the wire and the decoded body. */
function fetchGzip(url: string, token: string): Promise<{ wire: number; json: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode} ${body.toString()}`));
        else resolve({ wire: raw.length, json: body.length });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-receipt-page-'));
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
    const uid = session.localId;
    const receipts = generatedReceipts('receipt-page', RECEIPTS, ITEMS);
    await seedReceipts(stack.services.store, uid, receipts, 8);
    const receiptId = receiptIdFor(uid, receipts[RECEIPTS >> 1]!.fileName);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const url = (route: string) => new URL(route, stack.url).href;
    await signInWithEmail(page, stack.url, PERSON);
    // Warm the server's report index as any earlier screen would, so the figures are bytes only.
    await page.goto(url(`/Receipt?receiptId=${encodeURIComponent(receiptId)}`));
    await page.getByRole('table', { name: 'Receipt Products' }).waitFor({ timeout: 120_000 });
    await page.goto('about:blank');

    const api: Answer[] = [];
    let staticWire = 0;
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      pending.push(
        (async () => {
          const path = new URL(response.url()).pathname;
          const sizes = await response.request().sizes();
          const body = (await response.body().catch(() => Buffer.alloc(0))).length;
          // Chromium reports no transfer size (-1) for a file answered from its cache.
          const wire = sizes.responseBodySize >= 0 ? sizes.responseBodySize : 0;
          if (path.startsWith('/api/')) api.push({ path, wire, json: body });
          else staticWire += wire;
        })(),
      );
    });
    await page.goto(url(`/Receipt?receiptId=${encodeURIComponent(receiptId)}`));
    await page
      .getByRole('table', { name: 'Receipt Products' })
      .locator('tbody tr a')
      .first()
      .waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);

    const appData = await fetchGzip(
      url(`/api/getAppData?userId=${encodeURIComponent(uid)}`),
      (await stack.signIn(PERSON.email, PERSON.password)).idToken,
    );
    const detail = api.filter((a) => a.path === '/api/receiptDetail');
    const sum = (answers: Answer[], key: 'wire' | 'json') => answers.reduce((s, a) => s + a[key], 0);
    const after = { wire: sum(api, 'wire'), json: sum(api, 'json') };
    const before = {
      wire: after.wire - sum(detail, 'wire') + appData.wire,
      json: after.json - sum(detail, 'json') + appData.json,
    };

    console.log(
      `\n## Bytes of the Receipt page, ${BACKEND === 'azure' ? 'Azure Tables (Azurite)' : 'DynamoDB (dynalite)'}, ${RECEIPTS} receipts × ${ITEMS} items, one receipt opened on a fresh page load`,
    );
    const line = (label: string, wire: number, json: number) =>
      console.log(`${label.padEnd(52)} ${kb(wire).padStart(10)} on the wire ${kb(json).padStart(10)} JSON`);
    for (const answer of api) line(`  ${answer.path}`, answer.wire, answer.json);
    line('/api answers of the page now', after.wire, after.json);
    line('GET /api/getAppData (what the page loaded before)', appData.wire, appData.json);
    line('/api answers of the page before', before.wire, before.json);
    console.log(
      `${'static files (scripts, styles; same before and after)'.padEnd(52)} ${kb(staticWire).padStart(10)}`,
    );
    const ratio = (a: number, b: number) => `${Math.round(a / Math.max(b, 1))}×`;
    console.log(
      `/api bytes before ÷ now: ${ratio(before.wire, after.wire)} on the wire, ${ratio(before.json, after.json)} as JSON`,
    );
    await context.close();
  } finally {
    await browser.close();
    await stack.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
