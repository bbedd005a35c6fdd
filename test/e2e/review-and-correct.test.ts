import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { totalChecksOut, type AnalysisResult, type Analyzer, type AppData } from '@receipts/core';
import type { LocalStack } from '../../dev/src/stack';
import { ApiClient, jpegDataUrl } from '../api/support/api-client';
import { anotherCopy, sampleReceiptJpeg } from '../support/receipt-images';
import { PHONE, WIDE, screenshot, watchConsole } from './support/browser';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * Review and correct in headless Chromium against the local stack (Azurite, the Firebase Auth
 * emulator, the API and the worker): a misread total corrected and followed by Reports, the merchant
 * page and the brand table; an item added and deleted; a stale edit in a second tab; the review queue
 * emptied; two merchants merged; a delete that asks first. The stored images are real receipt
 * pictures; what the analyzer "reads" from them is scripted, so the misreadings are known.
 */

const PERSON = { name: 'Rita Review', email: 'rita@example.com', password: 'review-password-9' };

interface Reading {
  merchant: string;
  total: number;
  date: string | null;
  items: { description: string; price: number; brand?: string; owner?: string }[];
}

/** The three uploads and what the analyzer reads from each. */
const READINGS: Reading[] = [
  {
    // The total misread: 60.00 for 6.00.
    merchant: 'FRESHMART GROCERS',
    total: 60,
    date: '2024-06-01',
    items: [
      { description: 'COCA-COLA 1.5L', price: 2, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'WHOLEMEAL BREAD', price: 4 },
    ],
  },
  { merchant: 'CORNER PANTRY', total: 3, date: '2024-06-02', items: [{ description: 'MILK', price: 3 }] },
  // The same shop read with its legal name, and no date found.
  { merchant: 'Corner Pantry Ltd', total: 5, date: null, items: [{ description: 'EGGS', price: 5 }] },
  // Two photos of one receipt, uploaded last.
  {
    merchant: 'HILLTOP BAKERY',
    total: 7.5,
    date: '2024-06-05',
    items: [{ description: 'SOURDOUGH', price: 7.5 }],
  },
  {
    merchant: 'HILLTOP BAKERY',
    total: 7.5,
    date: '2024-06-05',
    items: [{ description: 'SOURDOUGH', price: 7.5 }],
  },
];

/**
 * Answers the scripted reading of each uploaded image, told apart by its bytes. Read again, the
 * first image gives another date (as another engine might).
 */
class ScriptedAnalyzer implements Analyzer {
  readonly name = 'scripted';
  private readonly reads = new Map<number, number>();
  constructor(private readonly images: Uint8Array[]) {}
  async analyze(image: Uint8Array): Promise<AnalysisResult> {
    const n = this.images.findIndex((bytes) => Buffer.from(bytes).equals(Buffer.from(image)));
    this.reads.set(n, (this.reads.get(n) ?? 0) + 1);
    const again = n === 0 && this.reads.get(n)! > 1;
    const reading = again ? { ...READINGS[n]!, date: '2024-06-03' } : READINGS[n]!;
    const items = reading.items.map((i) => ({
      description: i.description,
      quantity: 1,
      unit_price: i.price,
      total_price: i.price,
      brand: i.brand ?? null,
      owning_corporation: i.owner ?? null,
    }));
    return {
      analyzer: 'scripted',
      receipt: {
        doc_type: 'receipt',
        receipt_type: 'grocery',
        country_region: 'US',
        total_amount: reading.total,
        subtotal: null,
        currency_code: 'USD',
        total_tax: null,
        transaction_date: reading.date,
        transaction_time: '09:30:00',
        total_checks_out: totalChecksOut(reading.total, items, null),
      },
      merchant: {
        name: reading.merchant,
        phone_number: null,
        postal_code: null,
        city: null,
        street_address: null,
      },
      items,
      taxes: [],
      confidence: {},
      raw: { reading },
    };
  }
}

let app: SignedInPage;
let stack: LocalStack;
let api: ApiClient;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
let images: Uint8Array[];
const fileNames = [
  '1717200000001-receipt.jpg',
  '1717200000002-receipt.jpg',
  '1717200000003-receipt.jpg',
  '1717200000004-receipt.jpg',
  '1717200000005-receipt.jpg',
];

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'detached', timeout });
const go = (route: string, on = page) => on.goto(new URL(route, stack.url).href);
const header = () => page.getByRole('banner');
const data = async (): Promise<AppData> => (await api.getAppData()).body;
const receiptIdOf = (n: number) => `${api.userId}~${fileNames[n]}`;
const receiptUrl = (n: number, edit = false) =>
  `/Receipt?receiptId=${encodeURIComponent(receiptIdOf(n))}${edit ? '&edit=1' : ''}`;
const facts = (on = page) => on.getByRole('region', { name: 'This Receipt' });

const signIn = (on: Page) => app.signIn(on);

beforeAll(async () => {
  const first = await Promise.all([0, 1, 2].map((n) => sampleReceiptJpeg(n)));
  images = [...first, await anotherCopy(first[1]!, 1), await anotherCopy(first[1]!, 2)];
  app = await openSignedInPage({
    name: 'review',
    person: PERSON,
    viewport: WIDE,
    camera: images[0]!,
    stack: { analyzer: new ScriptedAnalyzer(images), maxScanAttempts: 3 },
    signIn: false,
    prepare: async (started, userId, idToken) => {
      api = new ApiClient(started.url, idToken, userId);
      for (const [n, bytes] of first.entries()) {
        expect((await api.upload(fileNames[n]!, jpegDataUrl(bytes))).status).toBe(202);
      }
      expect(await api.waitForQueue()).toEqual([]);
    },
  });
  ({ stack, browser, context, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
});

describe('review and correct in a real browser', () => {
  it('signs in and counts the receipts that need review in the header', async () => {
    await signIn(page);
    await visible(header().getByRole('link', { name: '2 receipts need review' }));
    await header().getByRole('link', { name: '2 receipts need review' }).click();
    await page.waitForURL('**/Review');
    const list = page.getByRole('list', { name: 'Receipts that need review' });
    await visible(list);
    // Newest analysis first: the third upload was analysed last.
    const rows = list.getByRole('listitem');
    expect(await rows.count()).toBe(2);
    await expect.poll(() => rows.nth(0).textContent()).toContain('Corner Pantry Ltd');
    expect(await rows.nth(0).textContent()).toContain('No date was found');
    expect(await rows.nth(1).textContent()).toContain("The receipt's own figures don't agree with the total");
  });

  it('corrects a misread total beside the image; Reports, the merchant page and the brand table follow', async () => {
    await page
      .getByRole('list', { name: 'Receipts that need review' })
      .getByRole('link', { name: 'Correct' })
      .nth(1)
      .click();
    const form = page.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    const image = page.getByRole('figure', { name: 'Stored receipt image' }).getByRole('img');
    await visible(image);
    // Wide screen: the image beside the form.
    const [imageBox, formBox] = [await image.boundingBox(), await form.boundingBox()];
    expect(imageBox!.x + imageBox!.width).toBeLessThanOrEqual(formBox!.x + 1);
    await screenshot(page, 'review-edit-form-wide');

    // Amounts as the person writes them, with two decimals; one Save for the receipt and its items.
    expect(await form.getByLabel('Total', { exact: true }).inputValue()).toBe('60.00');
    expect(await form.getByRole('button', { name: /^Save/ }).allTextContents()).toEqual(['Save changes']);
    await form.getByLabel('Total', { exact: true }).fill('6.50');
    // The Coca-Cola line was misread too: 2.50, not 2.00.
    const cola = form.getByRole('group', { name: 'Item COCA-COLA 1.5L' });
    expect(await cola.getByLabel('Total price').inputValue()).toBe('2.00');
    await cola.getByLabel('Total price').fill('2.50');
    await cola.getByLabel('Unit price').fill('2.50');
    await visible(form.getByText('Items add up to 6.50 USD — matches the total.'));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await visible(facts().getByText('6.50 USD'));
    await visible(page.getByLabel('Edited by you').filter({ hasText: 'Total' }));
    await gone(page.getByRole('main').getByLabel('Needs review', { exact: true }));
    await visible(header().getByRole('link', { name: '1 receipt needs review' }));
    await visible(page.getByRole('table', { name: 'Receipt Products' }).getByText('2.50'));

    await header()
      .getByRole('link', { name: /^Reports/ })
      .click();
    const receipts = page.getByRole('table', { name: 'Receipts' });
    await visible(
      receipts.getByRole('row').filter({ hasText: 'FRESHMART GROCERS' }).filter({ hasText: '6.50' }),
    );
    const brands = page.getByRole('table', { name: 'Brands' });
    await visible(brands.getByRole('row').filter({ hasText: 'Coca-Cola' }).filter({ hasText: '2.50' }));

    const merchantId = (await data()).reportMerchants.find(
      (m) => m.name === 'FRESHMART GROCERS',
    )!.merchant_id;
    await go(`/Merchant?merchantId=${encodeURIComponent(merchantId)}`);
    const summary = page.getByRole('region', { name: 'Merchant summary' });
    await visible(summary.getByText('6.50 USD'));
  });

  it('links the item page to its brand, corporation, merchant and receipt, and the brand page to its corporation', async () => {
    const cola = (await data()).reportProductItems.find((i) => i.description === 'COCA-COLA 1.5L')!;
    const itemUrl = `/ProductItem?itemId=${encodeURIComponent(cola.item_id)}`;
    const main = page.getByRole('main');
    await go(itemUrl);
    await main.getByRole('link', { name: 'Coca-Cola', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === '/Brand' && url.searchParams.get('brandId') === 'Coca-Cola',
    );
    await main.getByRole('link', { name: 'The Coca-Cola Company' }).click();
    await page.waitForURL((url) => url.pathname === '/Corporation');
    await visible(page.getByRole('heading', { name: 'The Coca-Cola Company' }));

    await go(itemUrl);
    await main.getByRole('link', { name: 'The Coca-Cola Company' }).click();
    await page.waitForURL((url) => url.searchParams.get('name') === 'The Coca-Cola Company');
    await go(itemUrl);
    await main.getByRole('link', { name: 'FRESHMART GROCERS' }).click();
    await page.waitForURL((url) => url.pathname === '/Merchant');
    await visible(page.getByRole('region', { name: 'Merchant summary' }).getByText('6.50 USD'));
    await go(itemUrl);
    await main.getByRole('link', { name: /^Receipt of 2024-06-01, 6\.50 USD$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('receiptId') === receiptIdOf(0));
    await visible(facts().getByText('6.50 USD'));
  });

  it('adds an item with a brand from the list, then removes it, each with the one Save', async () => {
    await go(receiptUrl(0, true));
    const form = page.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    await form.getByRole('button', { name: 'Add item' }).click();
    const added = form.getByRole('group', { name: 'New item 1' });
    await visible(added);
    await added.getByLabel('Description').fill('TOMATO KETCHUP');
    await added.getByLabel('Total price').fill('3');
    await added.getByLabel('Brand').fill('Heinz');
    await visible(added.getByText('Owned by The Kraft Heinz Company'));
    await visible(form.getByText('Items add up to 9.50 USD — the total is 6.50.'));
    // Nothing is saved before Save.
    expect((await data()).brands.find((b) => b.name === 'Heinz')).toBeUndefined();
    await form.getByRole('button', { name: 'Save changes' }).click();
    const products = page.getByRole('table', { name: 'Receipt Products' });
    await visible(products.getByRole('link', { name: 'TOMATO KETCHUP' }));
    expect((await data()).brands.find((b) => b.name === 'Heinz')).toMatchObject({
      owning_corporation: 'The Kraft Heinz Company',
      total: 3,
    });

    // One remove control per item, and still one Save.
    expect(await form.getByRole('button', { name: /^Remove / }).count()).toBe(3);
    await form.getByRole('button', { name: 'Remove TOMATO KETCHUP' }).click();
    await visible(
      form.getByRole('group', { name: 'Item TOMATO KETCHUP' }).getByText('removed when you save'),
    );
    await visible(form.getByText('Items add up to 6.50 USD — matches the total.'));
    expect(await products.getByRole('link', { name: 'TOMATO KETCHUP' }).count()).toBe(1);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await gone(products.getByRole('link', { name: 'TOMATO KETCHUP' }));
    expect((await data()).brands.find((b) => b.name === 'Heinz')).toBeUndefined();
  });

  it('keeps an edit made in a second tab on values changed since, says what changed, and saves it over them', async () => {
    await go(receiptUrl(0, true));
    const second = await context.newPage();
    const secondProblems = watchConsole(second);
    await go(receiptUrl(0, true), second);
    const secondForm = second.getByRole('form', { name: 'Edit receipt' });
    await visible(secondForm);

    const form = page.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    await form.getByLabel('Category').fill('groceries');
    await form.getByLabel('Category').press('Enter');
    await visible(facts().getByText('groceries'));

    await secondForm.getByLabel('Document type').fill('invoice');
    await secondForm.getByRole('button', { name: 'Save changes' }).click();
    // The server refused it (409: changed elsewhere); the tab keeps the edit and says what changed.
    const notice = secondForm.getByLabel('Changed elsewhere');
    await visible(notice);
    // It says "loading the new values…" first, then what changed.
    await visible(notice.filter({ hasText: 'Your changes are kept' }));
    expect(await notice.textContent()).toContain('Category: grocery → groceries');
    expect(await notice.textContent()).toContain('Your changes are kept');
    await screenshot(second, 'review-stale-edit');
    expect((await data()).reportReceipts.find((r) => r.receipt_id === receiptIdOf(0))!.doc_type).toBe(
      'receipt',
    );
    expect(await secondForm.getByLabel('Document type').inputValue()).toBe('invoice');
    expect(await secondForm.getByLabel('Category').inputValue()).toBe('groceries');
    expect(await secondForm.getByRole('button', { name: 'Reload' }).count()).toBe(0);
    await secondForm.getByRole('button', { name: 'Save changes' }).click();
    await visible(facts(second).getByText('invoice'));
    const saved = (await data()).reportReceipts.find((r) => r.receipt_id === receiptIdOf(0))!;
    expect([saved.doc_type, saved.receipt_type]).toEqual(['invoice', 'groceries']);
    expect(secondProblems.filter((p) => !p.includes('409'))).toEqual([]);
    await second.close();
  });

  it('analyses a corrected receipt again: the values a person set stay, and the page says what changed', async () => {
    await go(receiptUrl(0));
    await visible(facts().getByText('6.50 USD'));
    await page.getByRole('button', { name: 'Analyse again' }).click();
    const changed = page.getByRole('main').getByLabel('Analysed again', { exact: true });
    await visible(changed, 60_000);
    expect(await changed.textContent()).toContain('Date changed from 2024-06-01 to 2024-06-03');
    expect(await changed.textContent()).toContain('The values you set were kept.');
    await visible(facts().getByText('6.50 USD'));
    await visible(facts().getByText('2024-06-03'));
    const receipt = (await data()).reportReceipts.find((r) => r.receipt_id === receiptIdOf(0))!;
    expect(receipt.total_amount).toBe(6.5);
    expect(receipt.needs_review).toBe(false);
    expect((await data()).reportProductItems.filter((i) => i.receipt_id === receiptIdOf(0))).toHaveLength(2);
  });

  it('empties the review queue as receipts are reviewed', async () => {
    await go('/Review');
    const list = page.getByRole('list', { name: 'Receipts that need review' });
    await visible(list);
    expect(await list.getByRole('listitem').count()).toBe(1);
    await list.getByRole('button', { name: 'Mark reviewed' }).click();
    await visible(page.getByText('Nothing to review: every receipt has been checked.'));
    await gone(header().getByRole('link', { name: /need(s)? review/ }));
    expect((await data()).reportReceipts.filter((r) => r.needs_review)).toEqual([]);
  });

  it('merges two merchants that are the same shop', async () => {
    const before = await data();
    const kept = before.reportMerchants.find((m) => m.name === 'CORNER PANTRY')!;
    await go(`/Merchant?merchantId=${encodeURIComponent(kept.merchant_id)}`);
    await page.getByRole('button', { name: 'Edit merchant' }).click();
    const merge = page.getByRole('form', { name: 'Merge merchants' });
    await visible(merge);
    await merge.getByLabel('Same shop as').selectOption({ label: 'Corner Pantry Ltd' });
    await merge.getByRole('button', { name: 'Merge' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Merge these merchants?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Merge' }).click();
    const receipts = page.getByRole('table', { name: 'Receipts for this Merchant' });
    await expect.poll(() => receipts.locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);
    const after = await data();
    expect(after.reportMerchants.map((m) => m.name).sort()).toEqual(['CORNER PANTRY', 'FRESHMART GROCERS']);
    expect(after.reportMerchants.find((m) => m.name === 'CORNER PANTRY')!.merchant_total_amount).toBe(8);

    // A link to the merchant merged away (a bookmark, an old tab) opens the one it went into.
    const merged = before.reportMerchants.find((m) => m.name === 'Corner Pantry Ltd')!;
    await go(`/Merchant?merchantId=${encodeURIComponent(merged.merchant_id)}`);
    await page.waitForURL((url) => url.searchParams.get('merchantId') === kept.merchant_id);
    await visible(
      page.getByRole('region', { name: 'Merchant summary' }).getByRole('heading', { name: 'CORNER PANTRY' }),
    );
    await expect.poll(() => receipts.locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByText('Merchant not found').count()).toBe(0);
  });

  it('shows the edit form on a phone with the image above it', async () => {
    await page.setViewportSize(PHONE);
    await go(receiptUrl(1, true));
    const form = page.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    const image = page.getByRole('figure', { name: 'Stored receipt image' }).getByRole('img');
    await visible(image);
    const [imageBox, formBox] = [await image.boundingBox(), await form.boundingBox()];
    expect(imageBox!.y + imageBox!.height).toBeLessThanOrEqual(formBox!.y + 1);
    // Nothing wider than the phone: no sideways scrolling while typing.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'review-edit-form-phone');
    await page.setViewportSize(WIDE);
  });

  it("shows amounts and the time in the person's locale, and zooms the image", async () => {
    // English (US): a 12-hour clock, amounts with a decimal point.
    const american = await browser.newContext({ viewport: WIDE, locale: 'en-US' });
    const wide = await american.newPage();
    await signIn(wide);
    await go(receiptUrl(2, true), wide);
    let form = wide.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    expect(await form.getByLabel('Time').inputValue()).toMatch(/^9:30\sAM$/);
    expect(await form.getByLabel('Total', { exact: true }).inputValue()).toBe('5.00');
    await american.close();

    const german = await browser.newContext({ viewport: PHONE, locale: 'de-DE' });
    const phone = await german.newPage();
    const phoneProblems = watchConsole(phone);
    await signIn(phone);
    await go(receiptUrl(2, true), phone);
    form = phone.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    expect(await form.getByLabel('Time').inputValue()).toBe('09:30');
    expect(await form.getByLabel('Total', { exact: true }).inputValue()).toBe('5,00');
    expect(await form.getByRole('group', { name: 'Item EGGS' }).getByLabel('Total price').inputValue()).toBe(
      '5,00',
    );

    // On the phone the picture is above the form and can be zoomed to read the small print.
    const figure = phone.getByRole('figure', { name: 'Stored receipt image' });
    const image = figure.getByRole('img');
    await visible(image);
    const frameWidth = (await figure.getByLabel(/scrollable when zoomed/).boundingBox())!.width;
    await figure.getByRole('button', { name: 'Zoom in' }).click();
    await figure.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await image.boundingBox())!.width).toBeGreaterThan(frameWidth * 1.9);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone, 'review-edit-form-phone-zoomed');

    await form.getByLabel('Time').fill('21:15');
    await form.getByLabel('Total', { exact: true }).fill('5,50');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await visible(facts(phone).getByText('5.50 USD'));
    expect(await form.getByLabel('Time').inputValue()).toBe('21:15');
    const saved = (await data()).reportReceipts.find((r) => r.receipt_id === receiptIdOf(2))!;
    expect([saved.total_amount, saved.transaction_time]).toEqual([5.5, '21:15:00']);
    expect(phoneProblems).toEqual([]);
    await german.close();
  });

  it('asks before deleting a receipt', async () => {
    await go(receiptUrl(1));
    await page.getByRole('button', { name: 'Delete receipt' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this receipt?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    expect((await data()).reportReceipts).toHaveLength(3);

    await page.getByRole('button', { name: 'Delete receipt' }).click();
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.getByRole('status').filter({ hasText: 'Receipt and data deleted successfully.' }));
    expect((await data()).reportReceipts).toHaveLength(2);
    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
  });

  it('warns about a second photo of the same receipt, and "Delete this one" opens the first', async () => {
    for (const n of [3, 4]) {
      expect((await api.upload(fileNames[n]!, jpegDataUrl(images[n]!))).status).toBe(202);
      expect(await api.waitForQueue()).toEqual([]);
    }
    await go(receiptUrl(4));
    const warning = page.getByLabel('Possible duplicate');
    await visible(warning);
    expect(await warning.textContent()).toContain(
      'You already have a receipt from HILLTOP BAKERY on 2024-06-05',
    );
    await warning.getByRole('button', { name: 'Delete this one' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this receipt?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('receiptId') === receiptIdOf(3));
    await visible(facts());
    expect(await page.getByLabel('Possible duplicate').count()).toBe(0);
    const left = (await data()).reportReceipts.map((r) => r.receipt_id);
    expect(left).toContain(receiptIdOf(3));
    expect(left).not.toContain(receiptIdOf(4));
    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
  });

  it("refuses the same image picked again with the server's 409 naming the receipt it became", async () => {
    const again = join(app.dir, 'same-again.jpg');
    await writeFile(again, images[3]!);
    await go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(again);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // One file: the picker shows the server's words under its button.
    // In words for a person: the receipt it became, no server file name, and a link to it.
    const refusal = page.getByText(/You already uploaded this image/);
    await visible(refusal);
    expect(await refusal.textContent()).toContain(
      'You already uploaded this image (receipt from HILLTOP BAKERY on 2024-06-05)',
    );
    expect(await refusal.textContent()).not.toContain(fileNames[3]!);
    const open = page.getByRole('link', { name: 'Open the receipt' });
    await visible(open);
    expect(decodeURIComponent((await open.getAttribute('href')) ?? '')).toContain(receiptIdOf(3));
    expect(page.url()).toContain('/Camera');
    expect((await data()).reportReceipts.map((r) => r.receipt_id).sort()).toEqual(
      [receiptIdOf(0), receiptIdOf(2), receiptIdOf(3)].sort(),
    );
  });
});
