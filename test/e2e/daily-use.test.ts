import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { repositories, merchantIdFor, normaliseName, receiptIdFor } from '@receipts/core';
import type { LocalStack } from '../../dev/src/stack';
import { SAMPLE_RECEIPTS, receiptPdf, sampleReceiptJpeg } from '../support/receipt-images';
import { MISSING_PHOTO, screenshot } from './support/browser';
import { GatedAnalyzer } from './support/gated-analyzer';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * The rough edges a person meets in daily use, in headless Chromium against the local stack (Azurite,
 * the Firebase Auth emulator, the API and the OCR worker) on a phone-sized window: account errors in
 * plain words, the password reset, the upload message, the page kept while a scan finishes, currency
 * codes on a phone, the merchant that goes with its last receipt, /Receipts, and a failed PDF scan
 * shown by its first page, opened as a PDF and removed.
 */

const PERSON = { name: 'Dana Daily', email: 'dana@example.com', password: 'daily-password-7' };
const PICKED = SAMPLE_RECEIPTS[1]!; // UK corner shop, GBP
const SEEDED = 6; // more than one page of 5

let dir: string;
let app: SignedInPage;
let stack: LocalStack;
let analyzer: GatedAnalyzer;
let context: BrowserContext;
let page: Page;
let problems: string[];
let uid: string;
let jpegFile: string;
let pdfFile: string;

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'detached', timeout });
const header = () => page.getByRole('banner');
const go = (route: string) => page.goto(new URL(route, stack.url).href);
const receiptsTable = () => page.getByRole('table', { name: 'Receipts' });
const pager = () => page.getByRole('navigation', { name: 'Receipts pages' });

/**
 * Receipts from one shop in two currencies, written as the worker would, so the table has 2 pages;
 * dated 2020, older than the sample receipts, so an uploaded one sorts first.
 */
async function seedReceipts(userId: string): Promise<void> {
  const repos = repositories(stack.services.store);
  const name = 'Seeded Market';
  const merchantId = merchantIdFor(name, '1000');
  await repos.merchants.saveMerchant({
    merchant_id: merchantId,
    name,
    phone_number: null,
    postal_code: '1000',
    city: 'Brussels',
    street_address: null,
    user_id: userId,
    name_key: normaliseName(name),
  });
  for (let i = 0; i < SEEDED; i += 1) {
    const fileName = `170000000000${i}-receipt.jpg`;
    await repos.receipts.saveReceipt({
      receipt_id: receiptIdFor(userId, fileName),
      doc_type: 'receipt',
      receipt_type: 'Supplies',
      country_region: 'BE',
      merchant_id: merchantId,
      merchant_name: name,
      total_amount: 10 + i,
      currency_code: i % 2 === 0 ? 'EUR' : 'USD',
      total_tax: null,
      transaction_date: `2020-01-0${i + 1}`,
      transaction_time: null,
      user_id: userId,
      document_url: '',
      total_checks_out: true,
      file_name: fileName,
      analyzed_at: new Date().toISOString(),
    });
  }
  await repos.users.bumpDataVersion(userId, new Date());
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receipts-e2e-daily-'));
  jpegFile = join(dir, 'corner-pantry.jpg');
  await writeFile(jpegFile, await sampleReceiptJpeg(1));
  pdfFile = join(dir, 'emailed-receipt.pdf');
  await writeFile(pdfFile, receiptPdf(SAMPLE_RECEIPTS[2]!.spec));

  analyzer = new GatedAnalyzer(await OcrAnalyzer.create({ workers: 1 }));
  app = await openSignedInPage({
    name: 'daily',
    person: PERSON,
    stack: { analyzer },
    // The tests go through the Login page themselves: account errors and the password reset.
    signIn: false,
    prepare: async (started, userId) => {
      stack = started;
      uid = userId;
      await seedReceipts(uid);
    },
  });
  ({ stack, context, page, problems } = app);
});

afterAll(async () => {
  analyzer?.release();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('daily use in a real browser', () => {
  it('says in plain words that an account already exists, never the provider text', async () => {
    await go('/Login');
    await page.getByRole('button', { name: 'Login with email' }).click();
    const create = page.getByRole('form', { name: 'Create account' });
    await create.getByLabel('Name').fill('Someone Else');
    await create.getByLabel('Email').fill(PERSON.email);
    await create.getByLabel('Password').fill('another-password-1');
    await create.getByRole('button', { name: 'Create account' }).click();
    const alert = create.getByRole('alert');
    await visible(alert.filter({ hasText: 'An account with this email already exists.' }));
    expect(await alert.textContent()).not.toMatch(/Firebase|auth\//);
    await screenshot(page, 'daily-create-account-exists');
  });

  it('sends a password-reset email through the Auth emulator', async () => {
    const form = page.getByRole('form', { name: 'Sign in with email' });
    await form.getByLabel('Email').fill(PERSON.email);
    await form.getByRole('button', { name: 'Forgot password?' }).click();
    await visible(form.getByRole('status').filter({ hasText: `If there is an account for ${PERSON.email}` }));
    const codes = (await (
      await fetch(`http://${stack.authEmulatorHost}/emulator/v1/projects/${stack.projectId}/oobCodes`)
    ).json()) as { oobCodes: { email: string; requestType: string }[] };
    expect(codes.oobCodes).toContainEqual(
      expect.objectContaining({ email: PERSON.email, requestType: 'PASSWORD_RESET' }),
    );
    await screenshot(page, 'daily-password-reset');
  });

  it('shows the currency code beside each total on a phone, and links /Receipts from Reports and the menu', async () => {
    const form = page.getByRole('form', { name: 'Sign in with email' });
    await form.getByLabel('Password').fill(PERSON.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await header().getByRole('link', { name: 'Reports' }).click();
    await visible(receiptsTable());
    await expect.poll(() => receiptsTable().locator('tbody tr').count(), { timeout: 30_000 }).toBe(5);
    const totals = await receiptsTable().locator('tbody tr td:nth-last-child(2)').allTextContents();
    expect(totals).toHaveLength(5);
    for (const total of totals) expect(total).toMatch(/^\d+\.\d{2} (EUR|USD)$/);
    expect(await receiptsTable().locator('thead th').allTextContents()).toEqual([
      'Merchant',
      'Date',
      'Total',
      'Open',
    ]);
    await screenshot(page, 'daily-reports-phone-currency');

    await page.getByRole('link', { name: 'All receipts' }).click();
    await page.waitForURL('**/Receipts');
    await visible(page.getByRole('heading', { name: 'Receipts', level: 1 }));
    await visible(receiptsTable());

    await header().getByRole('link', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await visible(menu);
    await menu.getByRole('link', { name: 'Receipts' }).click();
    await page.waitForURL('**/Receipts');
  });

  it('says the receipt is uploaded and analysing on Home, and keeps the reports page when it finishes', async () => {
    analyzer.hold();
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(jpegFile);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(page.getByRole('status').filter({ hasText: 'Receipt uploaded — analysing' }));
    await visible(header().getByRole('link', { name: '1 receipt in progress' }));
    await screenshot(page, 'daily-uploaded-message');

    await header().getByRole('link', { name: 'Reports' }).click();
    await visible(pager().getByText('1 of 2'));
    await pager().getByRole('button', { name: 'Next page' }).click();
    await visible(pager().getByText('2 of 2'));
    expect(await receiptsTable().locator('tbody tr').count()).toBe(SEEDED - 5);

    analyzer.release();
    // The finished scan reloads the data under the open page: one more row, same page.
    await gone(header().getByRole('link', { name: /in progress/ }), 60_000);
    await expect
      .poll(() => receiptsTable().locator('tbody tr').count(), { timeout: 30_000 })
      .toBe(SEEDED + 1 - 5);
    await visible(pager().getByText('2 of 2'));
    await screenshot(page, 'daily-page-kept');
  });

  it("goes to the reports when a merchant's last receipt is deleted, and says the merchant is gone", async () => {
    await go('/Reports');
    const merchantLink = receiptsTable().getByRole('link', { name: PICKED.truth.merchant.name, exact: true });
    await visible(merchantLink);
    const merchantHref = (await merchantLink.getAttribute('href')) ?? '';
    expect(merchantHref).toMatch(/^\/Merchant\?merchantId=/);
    await receiptsTable()
      .getByRole('link', { name: new RegExp(`^Open receipt from ${PICKED.truth.merchant.name}`) })
      .click();
    await page.waitForURL('**/Receipt?receiptId=*');

    await page.getByRole('button', { name: 'Delete receipt' }).click();
    // Delete asks first.
    await page
      .getByRole('alertdialog', { name: 'Delete this receipt?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await page.waitForURL('**/Reports');
    await visible(page.getByRole('status').filter({ hasText: 'Receipt and data deleted successfully.' }));
    await screenshot(page, 'daily-deleted-last-receipt');

    await go(merchantHref);
    await visible(page.getByText('Merchant not found.', { exact: false }));
    await visible(page.getByRole('link', { name: 'See your reports' }));
    expect(await page.getByText('Unknown Merchant').count()).toBe(0);
    await screenshot(page, 'daily-merchant-not-found');
  });

  it('shows a failed PDF scan by its first page, opens the PDF, and removes it with its file', async () => {
    analyzer.failNext(1);
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(pdfFile);
    await page.waitForURL((url) => url.pathname === '/');
    const attention = header().getByRole('link', { name: '1 scan needs attention' });
    await visible(attention, 60_000);
    await attention.click();
    await page.waitForURL('**/ReceiptImages');

    const failed = page.getByRole('region', { name: 'Failed' });
    await visible(failed);
    // The local server draws the PDF's first page: a real picture, not a broken image.
    const firstPage = failed.getByRole('img', { name: /^First page of PDF receipt PDF, / });
    await visible(firstPage);
    await page.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      await firstPage.elementHandle(),
    );
    // Named for a person ("PDF, 27 Nov 14:02"); the server's file name is read from the queue.
    const name = ((await firstPage.getAttribute('alt')) ?? '').replace(/^First page of PDF receipt /, '');
    const queued = (await repositories(stack.services.store).scans.listQueue(uid)).find((q) =>
      q.fileName.endsWith('.pdf'),
    );
    const fileName = queued!.fileName;
    await screenshot(page, 'daily-pdf-failed');

    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      failed.getByRole('button', { name: `Open PDF ${name}` }).click(),
    ]);
    expect(opened.url()).toMatch(/^blob:/);
    await opened.close();

    expect(await stack.services.blobs.list(`${uid}/${fileName}`)).not.toEqual([]);
    await failed.getByRole('button', { name: `Remove ${name}` }).click();
    // The queue is empty again: the page moves on to the reports, and the header has no counter.
    await page.waitForURL('**/Reports');
    await gone(header().getByRole('link', { name: /attention|in progress/ }));
    expect(await stack.services.blobs.list(`${uid}/${fileName}`)).toEqual([]);
  });

  it('logged no errors in the browser beyond the refused account creation and the deleted merchant it was asked to open', () => {
    // Creating an account for a taken email makes the Auth emulator answer 400, and opening the
    // merchant whose last receipt was deleted makes /api/merchantDetail answer 404: Chromium logs both.
    // The seeded receipts have no stored photo: their thumbnails are refused with a 404.
    const expected = [
      /status of 400 .*accounts:signUp/,
      /status of 404 .*\/api\/merchantDetail\?/,
      MISSING_PHOTO,
    ];
    const unexpected = problems.filter((p) => !expected.some((pattern) => pattern.test(p)));
    expect(unexpected).toEqual([]);
    expect(problems.filter((p) => expected[1]!.test(p))).toHaveLength(1);
  });
});
