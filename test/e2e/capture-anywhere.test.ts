import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import type { LocalStack } from '../../dev/src/stack';
import { SAMPLE_RECEIPTS, anotherCopy, sampleReceiptJpeg } from '../support/receipt-images';
import { screenshot, watchConsole } from './support/browser';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * Capture anywhere, in headless Chromium against the local stack (Azurite, the Auth emulator, the
 * API and the OCR worker) on a phone-sized window: the installed app's service worker, a photo
 * picked with no connection that waits on the device (also after the tab is closed and opened again)
 * and is uploaded and analysed when the connection returns, and two receipts picked at once.
 */

const PERSON = { name: 'Olive Offline', email: 'olive@example.com', password: 'offline-password-3' };
/** PENDING_RETRY_MS of web/src/features/camera/components/pending-upload-sender.tsx. */
const PENDING_RETRY_MS = 30_000;
const OFFLINE = SAMPLE_RECEIPTS[0]!; // US grocery, USD
const FIRST = SAMPLE_RECEIPTS[1]!; // UK corner shop, GBP
const SECOND = SAMPLE_RECEIPTS[2]!; // Malaysian shop, MYR

let dir: string;
let app: SignedInPage;
let stack: LocalStack;
let context: BrowserContext;
let page: Page;
/** What each opened tab logged as errors. */
const logs: string[][] = [];
let files: { offline: string; first: string; second: string; dropped: string; hanging: string };

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'detached', timeout });
const header = () => page.getByRole('banner');
const go = (route: string) => page.goto(new URL(route, stack.url).href);
const receiptLink = (merchant: string) =>
  page
    .getByRole('table', { name: 'Receipts' })
    .getByRole('link', { name: new RegExp(`^Open receipt from ${merchant}`) });

/** Waits until the receipts table lists `count` receipts from `merchant`. */
async function receiptCount(merchant: string, count: number): Promise<void> {
  await visible(receiptLink(merchant).nth(count - 1));
  expect(await receiptLink(merchant).count()).toBe(count);
}

/** A new tab of the same browser profile (service worker, IndexedDB) that reports its errors. */
async function openPage(): Promise<Page> {
  const opened = await context.newPage();
  logs.push(watchConsole(opened));
  return opened;
}

/** The file names the service worker's caches hold (precache and runtime). */
async function cachedPaths(on: Page): Promise<string[]> {
  return on.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receipts-e2e-capture-'));
  files = {
    offline: join(dir, 'grocery.jpg'),
    first: join(dir, 'corner-shop.jpg'),
    second: join(dir, 'kedai.jpg'),
    dropped: join(dir, 'dropped-connection.jpg'),
    hanging: join(dir, 'slow-line.jpg'),
  };
  await writeFile(files.offline, await sampleReceiptJpeg(0));
  await writeFile(files.first, await sampleReceiptJpeg(1));
  await writeFile(files.second, await sampleReceiptJpeg(2));
  // The grocery receipt again, photographed twice more (other bytes, so not refused as duplicates).
  await writeFile(files.dropped, await anotherCopy(await sampleReceiptJpeg(0), 1));
  await writeFile(files.hanging, await anotherCopy(await sampleReceiptJpeg(0), 2));

  app = await openSignedInPage({
    name: 'capture',
    person: PERSON,
    stack: { analyzer: await OcrAnalyzer.create({ workers: 1 }) },
    signIn: false,
  });
  ({ stack, context, page } = app);
  logs.push(app.problems);
});

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('capture anywhere in a real browser', () => {
  it('installs: a manifest with a share target, and a service worker that controls the page', async () => {
    await app.signIn(page);

    const manifest = (await (await fetch(new URL('/manifest.webmanifest', stack.url))).json()) as {
      name: string;
      display: string;
      start_url: string;
      icons: { sizes: string }[];
      share_target: {
        action: string;
        method: string;
        enctype: string;
        params: { files: { accept: string[] }[] };
      };
    };
    expect(manifest).toMatchObject({ name: 'Receipt Tracker', display: 'standalone', start_url: '/' });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.share_target).toMatchObject({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
    });
    expect(manifest.share_target.params.files[0]!.accept).toEqual(['image/*', 'application/pdf']);

    // The worker installs (precaching the app) and takes over the open page.
    const script = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL ?? null;
    });
    expect(script).toBe(new URL('/sw.js', stack.url).href);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });

  it('keeps a photo picked offline, still waiting after the tab is closed, and analyses it once online', async () => {
    await context.setOffline(true);
    // With no connection, the page and the route's code come from the worker's precache.
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(files.offline);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL('**/ReceiptImages');
    const kept = page.getByRole('region', { name: 'On this device' });
    await visible(kept.getByText('Waiting for connection'));
    await visible(header().getByRole('link', { name: '1 receipt in progress' }));
    await screenshot(page, 'capture-offline-waiting');

    // Close the tab and open the app again, still offline: served by the worker, the photo still waits.
    await page.close();
    page = await openPage();
    await go('/ReceiptImages');
    await visible(page.getByRole('region', { name: 'On this device' }).getByText('Waiting for connection'));
    await screenshot(page, 'capture-offline-reopened');

    await context.setOffline(false);
    // Chromium's emulation leaves navigator.onLine true in a tab opened while offline, so that tab
    // gets no 'online' event; the sender's retry every PENDING_RETRY_MS (30 s) sends it then.
    await visible(
      page.getByRole('status').filter({ hasText: '1 receipt kept on this device uploaded' }),
      PENDING_RETRY_MS + 30_000,
    );
    await gone(page.getByRole('region', { name: 'On this device' }));
    expect(await page.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name)))).toContain(
      'receipt-tracker-offline',
    );
    // Analysed: the queue empties and the receipt is in the reports.
    await gone(header().getByRole('link', { name: /in progress|attention/ }), 120_000);
    await go('/Reports');
    await visible(receiptLink(OFFLINE.truth.merchant.name));
    await screenshot(page, 'capture-offline-analysed');
  });

  it('keeps a photo picked after the connection drops on a page opened online, and sends it when it returns', async () => {
    await go('/Camera?p=Upload');
    await visible(page.getByRole('button', { name: 'Choose receipt images' }));
    await context.setOffline(true);
    await page.getByLabel('Receipt image file').setInputFiles(files.dropped);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // Kept at once, under the name the person picked, and shown as waiting on the device.
    await page.waitForURL('**/ReceiptImages', { timeout: 15_000 });
    const kept = page.getByRole('region', { name: 'On this device' });
    await visible(kept.getByText('dropped-connection.jpg'));
    await visible(kept.getByText('Waiting for connection'));
    await screenshot(page, 'capture-dropped-kept');

    // Still kept after a reload (the worker serves the page with no connection).
    await page.reload();
    await visible(page.getByRole('region', { name: 'On this device' }).getByText('dropped-connection.jpg'));
    // Home while it is sent (the queue's thumbnail of an upload is not there until the upload ends).
    await go('/');

    await context.setOffline(false);
    await visible(
      page.getByRole('status').filter({ hasText: '1 receipt kept on this device uploaded' }),
      PENDING_RETRY_MS + 30_000,
    );
    await gone(page.getByRole('region', { name: 'On this device' }));
    await gone(header().getByRole('link', { name: /in progress|attention/ }), 120_000);
    await go('/Reports');
    await receiptCount(OFFLINE.truth.merchant.name, 2);
  });

  it('keeps a photo when the server does not answer within a few seconds, and sends it once it does', async () => {
    // A connection that hangs: each upload request waits 30 s for nothing, then the line drops.
    let hanging = true;
    await page.route('**/api/upload', async (route) => {
      if (!hanging) return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      await route.abort('internetdisconnected').catch(() => undefined);
    });
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(files.hanging);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // Kept within a few seconds, long before the request gives up.
    await page.waitForURL('**/ReceiptImages', { timeout: 20_000 });
    await visible(page.getByRole('region', { name: 'On this device' }).getByText('slow-line.jpg'));
    await screenshot(page, 'capture-hanging-kept');

    // The connection works again: the next try goes through.
    await go('/');
    hanging = false;
    await context.setOffline(true);
    await context.setOffline(false);
    await visible(
      page.getByRole('status').filter({ hasText: '1 receipt kept on this device uploaded' }),
      PENDING_RETRY_MS + 30_000,
    );
    await gone(header().getByRole('link', { name: /in progress|attention/ }), 120_000);
    await page.unroute('**/api/upload');
    await go('/Reports');
    await receiptCount(OFFLINE.truth.merchant.name, 3);
  });

  it('never caches an API answer in the service worker', async () => {
    const paths = await cachedPaths(page);
    expect(paths).toContain('/index.html');
    expect(paths).toContain('/config.json');
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual([]);
  });

  it('makes two scans of two receipts picked at once', async () => {
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles([files.first, files.second]);
    await page.waitForURL((url) => url.pathname === '/');
    await visible(header().getByRole('link', { name: /^[12] receipts? in progress$/ }));
    await gone(header().getByRole('link', { name: /in progress|attention/ }), 180_000);
    await go('/Reports');
    await visible(receiptLink(FIRST.truth.merchant.name));
    await visible(receiptLink(SECOND.truth.merchant.name));
    await screenshot(page, 'capture-two-at-once');
  });

  it('logged no errors in the browser beyond the requests refused while offline', () => {
    const unexpected = logs.flat().filter(
      (p) =>
        !/ERR_INTERNET_DISCONNECTED|Failed to fetch|network-request-failed|Could not reach/.test(p) &&
        // On a slow machine an upload may outlast the 8 s limit and be kept; its second try is
        // then told (409) that the server already has it, which counts as sent.
        !/status of 409 \(Conflict\) \(http:\/\/127\.0\.0\.1:\d+\/api\/upload\)/.test(p) &&
        // An upload writes its queue entry before its image: a thumbnail asked for in between is
        // answered 404 and asked for again a second later (useQueueThumbnail).
        !/status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/api\/getImage\?.*&preview=1\)/.test(p),
    );
    expect(unexpected).toEqual([]);
  });
});
