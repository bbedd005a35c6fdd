import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { MAX_IMAGE_BYTES } from '@receipts/core/contract/routes';
import type { LocalStack } from '../../dev/src/stack';
import { SAMPLE_RECEIPTS, sampleReceiptJpeg } from '../support/receipt-images';
import { PHONE, WIDE, evenSidedJpeg, screenshot } from './support/browser';
import { GatedAnalyzer } from './support/gated-analyzer';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * The web app in headless Chromium against `npm start`'s stack (Azurite, the Firebase Auth emulator,
 * the API, the OCR worker and the built SPA at one URL): a person's whole journey, screen by screen,
 * on a phone-sized window unless a test needs the wide one. The camera is Chromium's fake device
 * showing a printed sample receipt; the picker uploads another.
 */

const ADMIN = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1' };
const PERSON = { name: 'Erin Example', email: 'erin@example.com', password: 'correct-horse-9' };
const CAMERA_RECEIPT = SAMPLE_RECEIPTS[0]!; // US grocery, USD
const PICKED_RECEIPT = SAMPLE_RECEIPTS[1]!; // UK corner shop, GBP

let dir: string;
let app: SignedInPage;
let stack: LocalStack;
let analyzer: GatedAnalyzer;
let page: Page;
let problems: string[];
let uploadFile: string;
let bigFile: string;
let cameraSize: { width: number; height: number };

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'detached', timeout });
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;
const header = () => page.getByRole('banner');
const headerLinks = () =>
  header()
    .getByRole('link')
    .evaluateAll((links) => links.map((l) => l.getAttribute('aria-label')));

async function go(route: string): Promise<void> {
  await page.goto(new URL(route, stack.url).href);
}

async function linkLabels(scope: Locator): Promise<string[]> {
  return Promise.all((await scope.getByRole('link').all()).map(async (l) => (await l.textContent()) ?? ''));
}

/** The red of an error text: the red channel clearly dominates. */
function isRed(color: string): boolean {
  const [r = 0, g = 0, b = 0] = (color.match(/\d+/g) ?? []).map(Number);
  return r > 150 && r > g * 2 && r > b * 2;
}

async function textColor(locator: Locator): Promise<string> {
  return locator.evaluate((el) => getComputedStyle(el).color);
}

function columnHeaders(table: Locator): Promise<string[]> {
  return table.locator('thead th').allTextContents();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receipts-e2e-'));
  // A JPEG named .mjpeg is what Chromium's fake camera shows, at the image's own size. The frames are
  // I420, whose sides must be even: an odd-sized JPEG is delivered as black 2x2 frames, so pad it.
  const cameraJpeg = await evenSidedJpeg(await sampleReceiptJpeg(0));
  const { width = 0, height = 0 } = await sharp(cameraJpeg).metadata();
  cameraSize = { width, height };
  // A photo well over the upload limit, which the browser must scale down: noise does not compress.
  bigFile = join(dir, 'big-photo.png');
  await sharp({
    create: {
      width: 3000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png({ compressionLevel: 1 })
    .toFile(bigFile);
  uploadFile = join(dir, 'corner-pantry.jpg');
  await writeFile(uploadFile, await sampleReceiptJpeg(1));

  analyzer = new GatedAnalyzer(await OcrAnalyzer.create({ workers: 1 }));
  app = await openSignedInPage({
    name: 'web',
    // The admin's account exists; the tests make the person's through the Login page.
    person: ADMIN,
    camera: cameraJpeg,
    stack: { adminEmails: [ADMIN.email], analyzer },
    signIn: false,
  });
  ({ stack, page, problems } = app);
});

afterAll(async () => {
  // A scan held at the gate would keep the stack from stopping.
  analyzer?.release();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the web app in a real browser', () => {
  it('shows a signed-out visitor only Home and Login', async () => {
    await go('/');
    await visible(page.getByRole('heading', { name: 'Receipt Tracker' }));
    expect(await headerLinks()).toEqual(['Home', 'Sign in (signed out)', 'Menu']);
    await screenshot(page, 'home-signed-out');

    // Installable: a manifest with real icons, linked from the page.
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await (await page.request.get(new URL(manifestHref ?? '', stack.url).href)).json();
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/' });
    const sizes = (manifest.icons as { src: string; sizes: string }[]).map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons as { src: string; type: string }[]) {
      const answer = await page.request.get(new URL(icon.src, stack.url).href);
      expect(answer.status(), icon.src).toBe(200);
      expect(answer.headers()['content-type']).toContain(icon.type);
    }

    await header().getByRole('link', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await visible(menu);
    expect(await linkLabels(menu)).toEqual(['Home']);
    await screenshot(page, 'menu-signed-out');

    await go('/Reports');
    await page.waitForURL('**/Login');
    await visible(page.getByRole('button', { name: 'Login with Google' }));
    await screenshot(page, 'login');

    // Routes are case-sensitive, as in the spec.
    await go('/reports');
    await visible(page.getByRole('heading', { name: 'Page not found' }));
  });

  it('shows the login messages of §5 and §8 in red under the form', async () => {
    await go('/Login');
    await page.getByRole('button', { name: 'Login with email' }).click();
    const form = page.getByRole('form', { name: 'Sign in with email' });
    const message = form.getByRole('alert');
    const email = form.getByLabel('Email');
    const password = form.getByLabel('Password');
    const submit = form.getByRole('button', { name: 'Sign in' });
    expect(await email.getAttribute('type')).toBe('email');

    await submit.click();
    await visible(message.filter({ hasText: 'Please enter both email and password' }));
    expect(isRed(await textColor(message))).toBe(true);
    const [formBox, messageBox, buttonBox] = await Promise.all([
      form.boundingBox(),
      message.boundingBox(),
      submit.boundingBox(),
    ]);
    expect(messageBox!.y).toBeGreaterThan(buttonBox!.y);
    expect(messageBox!.y + messageBox!.height).toBeLessThanOrEqual(formBox!.y + formBox!.height);

    await email.fill('not-an-email');
    await password.fill('whatever1');
    await submit.click();
    await visible(message.filter({ hasText: 'Invalid email address format.' }));

    await email.fill('nobody@example.com');
    await submit.click();
    await visible(message.filter({ hasText: 'Invalid email or password.' }));

    await email.fill(ADMIN.email);
    await password.fill('not-the-password');
    await submit.click();
    await visible(message.filter({ hasText: 'Invalid email or password.' }));
    await screenshot(page, 'login-error');
    expect(await page.evaluate(() => localStorage.getItem('signed_in'))).toBeNull();
  });

  it('creates an account and signs it in', async () => {
    const create = page.getByRole('form', { name: 'Create account' });
    await create.getByLabel('Name').fill(PERSON.name);
    await create.getByLabel('Email').fill(PERSON.email);
    await create.getByLabel('Password').fill(PERSON.password);
    await create.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(header().getByRole('link', { name: 'Account (signed in)' }));
    await visible(header().getByRole('link', { name: 'Reports' }));
    await visible(header().getByRole('link', { name: 'Scan a receipt with the camera' }));
    const stored = await page.evaluate(() => ({
      flag: localStorage.getItem('signed_in'),
      id: localStorage.getItem('signed_in_id'),
      email: localStorage.getItem('signed_in_email'),
    }));
    expect(stored).toMatchObject({ flag: 'true', email: PERSON.email });
    expect(stored.id).toMatch(/^[A-Za-z0-9_-]+$/);
    await screenshot(page, 'home-signed-in');

    await header().getByRole('link', { name: 'Account (signed in)' }).click();
    await visible(page.getByText(`Welcome, ${PERSON.name}`));
    await visible(page.getByRole('button', { name: 'Sign Out' }));
    await screenshot(page, 'login-welcome');

    await header().getByRole('link', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await visible(menu);
    expect(await linkLabels(menu)).toEqual([
      'Home',
      'Reports',
      'Receipts',
      'Needs review',
      'Upload',
      'Account: my data',
    ]);
    await visible(page.getByText(/^Data version: (?!loading)/));
    await screenshot(page, 'menu-signed-in');
  });

  it('captures a receipt with the camera and counts it as pending', async () => {
    analyzer.hold();
    await header().getByRole('link', { name: 'Scan a receipt with the camera' }).click();
    await page.waitForURL('**/Camera?p=Camera');
    const capture = page.getByRole('button', { name: 'Capture receipt' });
    await visible(capture);
    // The video shows the camera's frame at its own size (the fake camera's 2x2 placeholder is not a frame).
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 })
      .toBeGreaterThan(100);
    const preview = await page.locator('video').boundingBox();
    expect(preview!.width).toBe(PHONE.width);
    await screenshot(page, 'camera');

    await capture.click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(header().getByRole('link', { name: '1 receipt in progress' }));
    await screenshot(page, 'pending-after-capture');
  });

  it('uploads through the file picker, then shows the images in progress', async () => {
    await go('/Camera?p=Upload');
    await visible(page.getByRole('button', { name: 'Choose receipt images' }));
    await screenshot(page, 'upload-picker');
    await page.getByLabel('Receipt image file').setInputFiles(uploadFile);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const counter = header().getByRole('link', { name: '2 receipts in progress' });
    await visible(counter);

    await counter.click();
    await page.waitForURL('**/ReceiptImages');
    const analyzing = page.getByRole('region', { name: 'Now analyzing' });
    const queued = page.getByRole('region', { name: 'Queued' });
    await visible(analyzing);
    await visible(queued);
    expect(await analyzing.getByRole('listitem').count()).toBe(1);
    expect(await queued.getByRole('listitem').count()).toBe(1);
    // Thumbnails come through the authorised getImage call.
    await expect
      .poll(() =>
        page
          .locator('main img')
          .evaluateAll((imgs: HTMLImageElement[]) => imgs.filter((i) => i.naturalWidth > 0).length),
      )
      .toBe(2);
    await screenshot(page, 'images-in-progress');
  });

  it('shows a failed scan with its reason and retries it', async () => {
    analyzer.failNext(1);
    analyzer.release();
    const failed = page.getByRole('region', { name: 'Failed' });
    await visible(failed, 60_000);
    await visible(failed.getByText('The receipt could not be read. Take the photo again in better light.'));
    // The other scan finishes meanwhile; the failed one is not counted as in progress.
    await visible(header().getByRole('link', { name: '1 scan needs attention' }), 60_000);
    await screenshot(page, 'images-failed');

    await failed.getByRole('button', { name: /^Retry / }).click();
    // Once the queue is empty the page moves on to the reports by itself.
    await page.waitForURL('**/Reports', { timeout: 60_000 });
    await gone(header().getByRole('link', { name: /in progress/ }));
  });

  it("lists the receipts with their real totals, currencies kept apart, and the phone's columns", async () => {
    const receipts = page.getByRole('table', { name: 'Receipts' });
    await visible(receipts);
    await expect.poll(() => receipts.locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);
    await visible(header().getByRole('link', { name: 'Reports (new report ready)' }));
    const rows = await receipts.locator('tbody tr').allTextContents();
    expect(
      rows.some(
        (r) =>
          r.includes(CAMERA_RECEIPT.truth.merchant.name) &&
          r.includes(CAMERA_RECEIPT.truth.receipt.total_amount.toFixed(2)),
      ),
    ).toBe(true);
    expect(
      rows.some(
        (r) =>
          r.includes(PICKED_RECEIPT.truth.merchant.name) &&
          r.includes(PICKED_RECEIPT.truth.receipt.total_amount.toFixed(2)),
      ),
    ).toBe(true);
    const totals = await receipts.locator('tfoot [data-testid="currency-total"]').allTextContents();
    expect(totals.sort()).toEqual(
      [
        `${CAMERA_RECEIPT.truth.receipt.total_amount.toFixed(2)} USD`,
        `${PICKED_RECEIPT.truth.receipt.total_amount.toFixed(2)} GBP`,
      ].sort(),
    );
    expect(await columnHeaders(receipts)).toEqual(['Merchant', 'Date', 'Total', 'Open']);
    await visible(page.getByText('1 of 1').first());
    await visible(page.getByRole('table', { name: 'Brands' }));
    await visible(page.getByRole('table', { name: 'Product items' }));
    await screenshot(page, 'reports-phone');

    await header().getByRole('link', { name: 'Reports (new report ready)' }).click();
    await visible(header().getByRole('link', { name: 'Reports', exact: true }));

    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'reports-360');

    await page.setViewportSize(WIDE);
    await expect
      .poll(() => columnHeaders(receipts))
      .toEqual(['Merchant', 'Date', 'Currency', 'Category', 'Region', 'Total', 'Open']);
    await screenshot(page, 'reports-wide');
    await page.setViewportSize(PHONE);
  });

  it('sorts a table by a header click and back', async () => {
    const receipts = page.getByRole('table', { name: 'Receipts' });
    const total = receipts.getByRole('columnheader', { name: /Total/ });
    const totals = () => receipts.locator('tbody tr td:nth-last-child(2)').allTextContents();
    // The server sorts: the rows change once its answer is in.
    await total.getByRole('button').click();
    await expect.poll(() => total.getAttribute('aria-sort')).toBe('ascending');
    // Each cell is an amount and its currency (`11.40 GBP`): compared by the amount.
    const amounts = async () => (await totals()).map((t) => Number.parseFloat(t));
    const rising = (a: number[]) => a.every((x, i) => i === 0 || a[i - 1]! <= x);
    await expect.poll(async () => rising(await amounts())).toBe(true);
    const ascending = await totals();
    await total.getByRole('button').click();
    await expect.poll(() => total.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(totals).toEqual([...ascending].reverse());
  });

  it('opens the merchant, the receipt with its image and JSON modals, and an item', async () => {
    const truth = CAMERA_RECEIPT.truth;
    await page
      .getByRole('table', { name: 'Receipts' })
      .getByRole('link', { name: truth.merchant.name, exact: true })
      .click();
    await page.waitForURL('**/Merchant?merchantId=*');
    const summary = page.getByRole('region', { name: 'Merchant summary' });
    await visible(summary.getByRole('heading', { name: truth.merchant.name }));
    await visible(summary.getByText(`${truth.receipt.total_amount.toFixed(2)} USD`));
    const merchantReceipts = page.getByRole('table', { name: 'Receipts for this Merchant' });
    await visible(merchantReceipts);
    await screenshot(page, 'merchant');

    await merchantReceipts.getByRole('link', { name: truth.receipt.transaction_date }).click();
    await page.waitForURL('**/Receipt?receiptId=*');
    const facts = page.getByRole('region', { name: 'This Receipt' });
    await visible(facts.getByText(`${truth.receipt.total_amount.toFixed(2)} USD`));
    const products = page.getByRole('table', { name: 'Receipt Products' });
    await visible(products);
    expect(await columnHeaders(products)).toEqual(['Description', 'Quantity', 'Unit Price']);
    await screenshot(page, 'receipt');

    await page.getByRole('button', { name: 'View receipt image' }).click();
    const imageDialog = page.getByRole('dialog', { name: 'Receipt image' });
    const image = imageDialog.getByRole('img');
    await visible(image);
    // The capture was stored as a JPEG at the camera's own frame size.
    await expect
      .poll(() => image.evaluate((i: HTMLImageElement) => [i.naturalWidth, i.naturalHeight]))
      .toEqual([cameraSize.width, cameraSize.height]);
    expect(await image.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    const surface = await imageDialog.boundingBox();
    expect(surface!.width).toBeLessThanOrEqual(Math.min(900, PHONE.width * 0.8) + 1);
    await screenshot(page, 'receipt-image-modal');
    await imageDialog.getByRole('button', { name: 'Close' }).click();
    await gone(imageDialog);

    await page.getByRole('button', { name: 'View analysis JSON' }).click();
    const jsonDialog = page.getByRole('dialog', { name: 'Analysis result' });
    await visible(jsonDialog.getByRole('tree'));
    // The analysis as the analyzer wrote it: its result holds the receipt.
    await jsonDialog.getByText('result', { exact: true }).click();
    await jsonDialog.getByText('receipt', { exact: true }).click();
    const shortened = jsonDialog.locator('[title]').filter({ hasText: '…' }).first();
    await visible(shortened);
    const full = (await shortened.getAttribute('title')) ?? '';
    expect(full.length).toBeGreaterThan(30);
    expect(await shortened.textContent()).toBe(`"${full.slice(0, 30)}…"`);
    await screenshot(page, 'receipt-json-modal');
    await jsonDialog.getByRole('button', { name: 'Close' }).click();
    await gone(jsonDialog);

    const first = truth.items[0]!;
    await products.getByRole('link', { name: first.description }).click();
    await page.waitForURL('**/ProductItem?itemId=*');
    await visible(page.getByRole('table', { name: 'Items of the same brand' }));
    await visible(page.getByText(first.description).first());
    await screenshot(page, 'product-item');
    await page.goBack();
    await page.waitForURL('**/Receipt?receiptId=*');
  });

  it('opens a brand from the reports, and says when a brand is unknown', async () => {
    await go('/Reports');
    const brands = page.getByRole('table', { name: 'Brands' });
    await visible(brands);
    const open = brands.getByRole('link', { name: /^Open brand / }).first();
    await visible(open);
    const name = ((await open.getAttribute('aria-label')) ?? '').replace(/^Open brand /, '');
    await open.click();
    await page.waitForURL('**/Brand?brandId=*');
    await visible(page.getByRole('heading', { name, level: 1 }));
    await visible(page.getByRole('table', { name: `Receipts with ${name}` }));
    await screenshot(page, 'brand');

    await go('/Brand?brandId=No%20Such%20Brand');
    await visible(page.getByText('Brand not found'));
    await screenshot(page, 'brand-not-found');
  });

  it("deletes a merchant's only receipt and shows the success bar on the reports", async () => {
    await go('/Reports');
    const receipts = page.getByRole('table', { name: 'Receipts' });
    await receipts
      .getByRole('link', { name: new RegExp(`^Open receipt from ${PICKED_RECEIPT.truth.merchant.name}`) })
      .click();
    await page.waitForURL('**/Receipt?receiptId=*');
    await page.getByRole('button', { name: 'Delete receipt' }).click();
    // Delete asks first.
    await page
      .getByRole('alertdialog', { name: 'Delete this receipt?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    // The merchant went with its only receipt: there is no merchant screen to go back to.
    await page.waitForURL('**/Reports');
    const bar = page.getByRole('status').filter({ hasText: 'Receipt and data deleted successfully.' });
    await visible(bar);
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(PHONE.height - 80);
    await screenshot(page, 'deleted-message-bar');
    await bar.getByRole('button', { name: 'Dismiss message' }).click();
    await gone(bar);

    await go('/Reports');
    await expect
      .poll(() => page.getByRole('table', { name: 'Receipts' }).locator('tbody tr').count())
      .toBe(1);
  });

  it('signs out back to a visitor', async () => {
    await go('/Login');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(header().getByRole('link', { name: 'Sign in (signed out)' }));
    expect(await headerLinks()).toEqual(['Home', 'Sign in (signed out)', 'Menu']);
    const keys = await page.evaluate(() =>
      ['signed_in', 'signed_in_id', 'signed_in_email', 'fcm_token'].map((k) => localStorage.getItem(k)),
    );
    expect(keys).toEqual([null, null, null, null]);
  });

  it('shows the admin the Storage Tester, which lists the tables', async () => {
    await app.signIn(page, ADMIN);
    await header().getByRole('link', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Storage Tester' }).click();
    await page.getByRole('button', { name: 'List tables' }).click();
    await visible(page.getByText(/tables: .*Receipts/));
    await screenshot(page, 'storage-tester');
    expect(path()).toBe('/StorageTester');
  });

  it('scales a photo over the upload limit down in the browser, and the server accepts it', async () => {
    analyzer.hold();
    const sent: { bytes: number; type: string }[] = [];
    await page.route('**/api/upload', async (route) => {
      const body = route.request().postDataJSON() as { imgSrc: string };
      const base64 = body.imgSrc.slice(body.imgSrc.indexOf(',') + 1);
      sent.push({
        bytes: Buffer.from(base64, 'base64').length,
        type: body.imgSrc.slice(5, body.imgSrc.indexOf(';')),
      });
      await route.continue();
    });
    const picked = (await stat(bigFile)).size;
    expect(picked).toBeGreaterThan(MAX_IMAGE_BYTES);
    await go('/Camera?p=Upload');
    const answer = page.waitForResponse('**/api/upload');
    await page.getByLabel('Receipt image file').setInputFiles(bigFile);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await answer).status()).toBe(202);
    await page.waitForURL((url) => url.pathname === '/');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.type).toBe('image/jpeg');
    expect(sent[0]!.bytes).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    await visible(header().getByRole('link', { name: '1 receipt in progress' }));
    await page.unroute('**/api/upload');
    // Noise is no receipt: let its analysis fail at once rather than keep the worker busy.
    analyzer.failNext(1);
    analyzer.release();
  });

  it('logged no errors in the browser beyond the refused sign-ins it was asked to try', () => {
    // The wrong-password checks above make the Auth emulator answer 400, which Chromium logs.
    const unexpected = problems.filter((p) => !/status of 400 .*accounts:signInWithPassword/.test(p));
    expect(unexpected).toEqual([]);
  });
});
