import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { repositories, receiptIdFor } from '@receipts/core';
import type { LocalStack } from '../../dev/src/stack';
import { SAMPLE_RECEIPTS } from '../support/receipt-images';
import { multiPageReceiptPdf } from '../support/receipt-pdfs';
import { screenshot } from './support/browser';
import { GatedAnalyzer } from './support/gated-analyzer';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * A multi-page PDF receipt in headless Chromium against the local stack (Azurite, the Firebase Auth
 * emulator, the API and the OCR worker): uploaded through the picker, shown by its first page while
 * it waits, analysed into one receipt with the items of both pages and the total of the last, and
 * its first page in the image modal with a link that opens the PDF itself.
 */

const PERSON = { name: 'Petra Pages', email: 'petra@example.com', password: 'pages-password-2' };
const SAMPLE = SAMPLE_RECEIPTS[0]!; // US grocery: 2 items on page 1, 1 item and the totals on page 2

let dir: string;
let app: SignedInPage;
let stack: LocalStack;
let context: BrowserContext;
let analyzer: GatedAnalyzer;
let page: Page;
let problems: string[];
let uid: string;
let pdfFile: string;

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const go = (route: string) => page.goto(new URL(route, stack.url).href);

/** Waits until an <img> has loaded a real picture (a broken image has no natural width). */
async function loaded(image: Locator): Promise<{ width: number; height: number }> {
  await visible(image);
  const handle = await image.elementHandle();
  await page.waitForFunction(
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
    handle,
  );
  return image.evaluate((img) => ({
    width: (img as HTMLImageElement).naturalWidth,
    height: (img as HTMLImageElement).naturalHeight,
  }));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receipts-e2e-pdf-'));
  pdfFile = join(dir, 'online-order.pdf');
  await writeFile(pdfFile, await multiPageReceiptPdf(SAMPLE.spec, { pages: 2 }));

  analyzer = new GatedAnalyzer(await OcrAnalyzer.create({ workers: 1 }));
  app = await openSignedInPage({ name: 'pdf', person: PERSON, stack: { analyzer }, signIn: false });
  ({ stack, context, page, problems, userId: uid } = app);
});

afterAll(async () => {
  analyzer?.release();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a multi-page PDF receipt in a real browser', () => {
  let fileName = '';

  it('shows the waiting PDF by a picture of its first page, not a broken image', async () => {
    await app.signIn();

    analyzer.hold();
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(pdfFile);
    await page.waitForURL((url) => url.pathname === '/');
    await go('/ReceiptImages');
    // Named for a person ("PDF, 27 Nov 14:02"), never by the server's file name.
    const picture = page.getByRole('img', { name: /^First page of PDF receipt PDF, / });
    const size = await loaded(picture);
    expect(size.width).toBeGreaterThan(100);
    expect(await picture.getAttribute('alt')).not.toMatch(/-receipt\.pdf/);
    const queued = (await repositories(stack.services.store).scans.listQueue(uid)).find((q) =>
      q.fileName.endsWith('.pdf'),
    );
    fileName = queued?.fileName ?? '';
    expect(fileName).toMatch(/\.pdf$/);
    await screenshot(page, 'pdf-queue-first-page');
    analyzer.release();
  });

  it('analyses the PDF into one receipt: items from both pages, the total from page 2', async () => {
    const repos = repositories(stack.services.store);
    const receiptId = receiptIdFor(uid, fileName);
    // Done as the person sees it: the receipt written and its scan gone from the queue (which
    // happens once the reports have it).
    const analysed = async () =>
      (await repos.receipts.getReceipt(uid, receiptId)) !== null &&
      !(await repos.scans.listQueue(uid)).some((q) => q.fileName === fileName);
    const deadline = Date.now() + 120_000;
    while (!(await analysed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));

    await go(`/Receipt?receiptId=${encodeURIComponent(receiptId)}`);
    await visible(page.getByText(SAMPLE.truth.merchant.name).first(), 60_000);
    const products = page.getByRole('table', { name: 'Receipt Products' });
    for (const item of SAMPLE.truth.items)
      await visible(products.getByText(item.description, { exact: true }));
    await visible(page.getByText('13.46').first());
    // One receipt for the whole PDF, its three items across the two pages.
    const receipts = await repos.receipts.listReceipts(uid);
    expect(receipts.map((r) => [r.file_name, r.total_amount])).toEqual([
      [fileName, SAMPLE.truth.receipt.total_amount],
    ]);
    const items = await repos.receipts.listItemsOfReceipt(receiptId);
    expect(items.map((i) => i.description)).toEqual(SAMPLE.truth.items.map((i) => i.description));
  });

  it('shows the first page in the image modal, with a link that opens the PDF', async () => {
    await page.getByRole('button', { name: 'View receipt image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt image' });
    const size = await loaded(dialog.getByRole('img', { name: /^First page of PDF receipt/ }));
    expect(size.width).toBeGreaterThan(100);
    await screenshot(page, 'pdf-modal-first-page');
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: /^Open PDF / }).click(),
    ]);
    expect(opened.url()).toMatch(/^blob:/);
    await opened.close();
  });

  it('logged no errors in the browser', () => {
    expect(problems).toEqual([]);
  });
});
