import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { LocalStack } from '../../dev/src/stack';
import { seedReceipts, type SeedReceipt } from '../support/report-seed';
import { MISSING_PHOTO, WIDE, screenshot } from './support/browser';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * The Reports screen in headless Chromium against the local stack (Azurite, the Firebase Auth
 * emulator, the API and the built SPA): its tables read page by page from GET /api/report, a column
 * sorted on the server, the search box, a bookmarked filter, the merchants and corporations tables,
 * a corporation page and the CSV download, on a wide window so every column shows.
 */

const PERSON = { name: 'Rita Reports', email: 'rita@example.com', password: 'reports-password-3' };
const OTHER = { name: 'Otto Other', email: 'otto@example.com', password: 'other-password-4' };

/**
 * 12 receipts: three shops in EUR, one in GBP; brands of four corporations. Totals are all different,
 * so an order by total is one order. `OAT DRINK` is an Alpro product whose description does not name
 * its brand: only the brand finds it.
 */
const RECEIPTS: SeedReceipt[] = [
  {
    fileName: '1710000000001-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-01-05',
    items: [
      { description: 'COCA-COLA ZERO', price: 2.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'SPECULOOS', price: 3.1, brand: 'Lotus', owner: 'Lotus Bakeries' },
    ],
  },
  {
    fileName: '1710000000002-receipt.jpg',
    merchant: 'Tesco Metro',
    city: 'London',
    date: '2024-02-10',
    currency: 'GBP',
    items: [{ description: 'HEINZ BEANS', price: 1.2, quantity: 3, brand: 'Heinz', owner: 'Kraft Heinz' }],
  },
  {
    fileName: '1710000000003-receipt.jpg',
    merchant: 'Carrefour Express',
    date: '2024-03-15',
    items: [
      { description: 'OAT DRINK', price: 2.35, brand: 'Alpro', owner: 'Danone' },
      { description: 'FANTA ORANGE', price: 1.9, brand: 'Fanta', owner: 'The Coca-Cola Company' },
    ],
  },
  ...Array.from({ length: 9 }, (_, i) => ({
    fileName: `17100000001${i}-receipt.jpg`,
    merchant: 'Colruyt Anderlecht',
    city: 'Anderlecht',
    date: `2024-04-${String(10 + i)}`,
    items: [{ description: `WHOLEMEAL BREAD ${i + 1}`, price: 1 + i }],
  })),
];
/** Receipt totals: 5.60, 3.60 GBP, 4.25, then 1.00 to 9.00 (Colruyt). */
const COLRUYT_APRIL_TOTAL = '45.00 EUR';

const OTHERS_RECEIPTS: SeedReceipt[] = [
  {
    fileName: '1710000000099-receipt.jpg',
    merchant: 'Secret Shop',
    date: '2024-04-12',
    items: [{ description: 'SECRET SPECULOOS', price: 99, brand: 'Lotus', owner: 'Lotus Bakeries' }],
  },
];

let app: SignedInPage;
let stack: LocalStack;
let page: Page;
let problems: string[];
let personId: string;

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const go = (route: string) => page.goto(new URL(route, stack.url).href);
const search = () => new URL(page.url()).searchParams;
const table = (name: string) => page.getByRole('table', { name, exact: true });
const pager = (name: string) => page.getByRole('navigation', { name: `${name} pages` });
const filterBar = () => page.getByRole('region', { name: 'Filter' });
const totalRow = (name: string) => table(name).getByRole('row', { name: 'Total row' });

/** The text of one column (by header text) of every body row of a table. */
async function column(name: string, header: string): Promise<string[]> {
  const headers = (await table(name).locator('thead th').allTextContents()).map((h) => h.trim());
  const index = headers.indexOf(header);
  if (index < 0) throw new Error(`No column ${header} in ${name}: ${headers.join(', ')}`);
  return table(name)
    .locator(`tbody tr td:nth-child(${index + 1})`)
    .allTextContents();
}

/** Polls a column until it has exactly these texts (the page reads from the server). */
async function expectColumn(name: string, header: string, expected: string[]): Promise<void> {
  await expect.poll(() => column(name, header), { timeout: 30_000 }).toEqual(expected);
}

beforeAll(async () => {
  app = await openSignedInPage({
    name: 'reports',
    person: PERSON,
    others: [OTHER],
    viewport: WIDE,
    contextOptions: { acceptDownloads: true },
    stack: { maxScanAttempts: 3 },
    signIn: false,
    prepare: async (started, userId, _idToken, [other]) => {
      await seedReceipts(started.services.store, userId, RECEIPTS);
      await seedReceipts(started.services.store, other!.localId, OTHERS_RECEIPTS);
    },
  });
  ({ stack, page, problems, userId: personId } = app);
});

afterAll(async () => {
  await app?.close();
});

describe('reports in a real browser', () => {
  it('pages the receipts table through the server, with totals over every page', async () => {
    await app.signIn();

    await page.getByRole('banner').getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/Reports');
    // Newest first: the last five Colruyt receipts.
    await expectColumn('Receipts', 'Date', [
      '2024-04-18',
      '2024-04-17',
      '2024-04-16',
      '2024-04-15',
      '2024-04-14',
    ]);
    await visible(pager('Receipts').getByText('1 of 3'));
    // The total row sums all 12 receipts, per currency, not the 5 shown.
    await expect.poll(() => totalRow('Receipts').textContent()).toContain('3.60 GBP');
    expect(await totalRow('Receipts').textContent()).toContain('54.85 EUR');
    await screenshot(page, 'reports-first-page');

    await pager('Receipts').getByRole('button', { name: 'Next page' }).click();
    await visible(pager('Receipts').getByText('2 of 3'));
    expect(search().get('receiptsPage')).toMatch(/^[0-9a-z]+\.[0-9a-f]{8}$/);
    await expectColumn('Receipts', 'Date', [
      '2024-04-13',
      '2024-04-12',
      '2024-04-11',
      '2024-04-10',
      '2024-03-15',
    ]);
    await pager('Receipts').getByRole('button', { name: 'Next page' }).click();
    await visible(pager('Receipts').getByText('3 of 3'));
    await expectColumn('Receipts', 'Merchant', ['Tesco Metro', 'Delhaize Ixelles']);
    expect(await pager('Receipts').getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    // Back in the browser's history is the page before.
    await page.goBack();
    await visible(pager('Receipts').getByText('2 of 3'));
  });

  it('sorts a column on the server: the smallest total of all pages comes first', async () => {
    await go('/Reports');
    await visible(pager('Receipts').getByText('1 of 3'));
    await table('Receipts').locator('thead th').filter({ hasText: 'Total' }).click();
    await expect.poll(() => search().get('receiptsSort')).toBe('total');
    expect(search().get('receiptsDir')).toBe('asc');
    await expectColumn('Receipts', 'Total', ['1.00', '2.00', '3.00', '3.60', '4.00']);
    expect(await table('Receipts').locator('thead th[aria-sort="ascending"]').textContent()).toBe('Total');

    await table('Receipts').locator('thead th').filter({ hasText: 'Total' }).click();
    await expect.poll(() => search().get('receiptsDir')).toBe('desc');
    await expectColumn('Receipts', 'Total', ['9.00', '8.00', '7.00', '6.00', '5.60']);
    await screenshot(page, 'reports-sorted-by-total');
  });

  it('finds receipts as one types: by merchant, by item description and by brand', async () => {
    await go('/Reports');
    await visible(pager('Receipts').getByText('1 of 3'));
    const box = page.getByRole('searchbox', { name: 'Search' });

    await box.fill('tesco');
    await expect.poll(() => search().get('q')).toBe('tesco');
    await expectColumn('Receipts', 'Merchant', ['Tesco Metro']);
    await visible(pager('Receipts').getByText('1 of 1'));
    await expect.poll(() => totalRow('Receipts').textContent()).toContain('3.60 GBP');

    await box.fill('speculoos');
    await expect.poll(() => search().get('q')).toBe('speculoos');
    await expectColumn('Receipts', 'Merchant', ['Delhaize Ixelles']);
    // The items table shows the matching item, not the rest of that receipt.
    await expectColumn('Product items', 'Description', ['SPECULOOS']);
    // The same search in every table: the shop of the receipt found, the brand and owner of the item.
    await expectColumn('Merchants', 'Merchant', ['Delhaize Ixelles']);
    await expectColumn('Brands', 'Brand', ['Lotus']);
    await expectColumn('Corporations', 'Corporation', ['Lotus Bakeries']);

    // Alpro's oat drink: the brand is named nowhere but in the brand field. Accents and case ignored.
    await box.fill('ALPRÖ');
    await expect.poll(() => search().get('q')).toBe('ALPRÖ');
    await expectColumn('Receipts', 'Merchant', ['Carrefour Express']);
    await expectColumn('Product items', 'Description', ['OAT DRINK']);
    await screenshot(page, 'reports-search-brand');

    // Another user's speculoos never shows.
    await box.fill('secret');
    await expect.poll(() => search().get('q')).toBe('secret');
    await visible(table('Receipts').getByText('No receipts found.', { exact: false }));

    // The header's search icon opens Reports with the cursor in the box.
    await go('/');
    await page.getByRole('banner').getByRole('link', { name: 'Search receipts' }).click();
    await page.waitForURL('**/Reports#search');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search');
    await page.keyboard.type('heinz');
    await expectColumn('Receipts', 'Merchant', ['Tesco Metro']);
  });

  it('opens a bookmarked filter with its rows and totals', async () => {
    await go('/Reports?from=2024-04-01&to=2024-04-30&currency=EUR&receiptsSort=total&receiptsDir=asc');
    await expectColumn('Receipts', 'Total', ['1.00', '2.00', '3.00', '4.00', '5.00']);
    await visible(pager('Receipts').getByText('1 of 2'));
    await expect.poll(() => totalRow('Receipts').textContent()).toContain(COLRUYT_APRIL_TOTAL);
    expect(await totalRow('Receipts').textContent()).not.toContain('GBP');
    // The filter fields show the bookmarked values, and every table is filtered.
    expect(await filterBar().getByLabel('From', { exact: true }).inputValue()).toBe('2024-04-01');
    expect(await filterBar().getByLabel('Currency', { exact: true }).inputValue()).toBe('EUR');
    await expectColumn('Merchants', 'Merchant', ['Colruyt Anderlecht']);
    await visible(table('Corporations').getByText('No corporations found.'));
    await screenshot(page, 'reports-bookmarked-filter');

    await page.getByRole('button', { name: 'Clear filter' }).click();
    await visible(pager('Receipts').getByText('1 of 3'));
    expect(search().get('from')).toBeNull();
  });

  it('lists merchants with city, visits and last visit, and corporations with their brands', async () => {
    await go('/Reports');
    await expectColumn('Merchants', 'Merchant', [
      'Colruyt Anderlecht',
      'Carrefour Express',
      'Tesco Metro',
      'Delhaize Ixelles',
    ]);
    expect(await column('Merchants', 'City')).toEqual(['Anderlecht', 'Brussels', 'London', 'Brussels']);
    expect(await column('Merchants', 'Visits')).toEqual(['9', '1', '1', '1']);
    expect(await column('Merchants', 'Last visit')).toEqual([
      '2024-04-18',
      '2024-03-15',
      '2024-02-10',
      '2024-01-05',
    ]);
    // The total row: 12 visits over all merchants.
    await expect
      .poll(() => totalRow('Merchants').locator('td').allTextContents())
      .toEqual(expect.arrayContaining(['12']));

    // Sorted by visits, fewest first; ties by id, so one order however often it is asked.
    await table('Merchants').locator('thead th').filter({ hasText: 'Visits' }).click();
    await expect.poll(() => search().get('merchantsSort')).toBe('visits');
    await expect.poll(async () => (await column('Merchants', 'Visits')).at(-1)).toBe('9');

    // Corporations by total, largest first: Coca-Cola (2 brands) 4.40 EUR, Kraft Heinz 3.60 GBP, ...
    await expectColumn('Corporations', 'Corporation', [
      'The Coca-Cola Company',
      'Kraft Heinz',
      'Lotus Bakeries',
      'Danone',
    ]);
    expect(await column('Corporations', 'Brands')).toEqual(['2', '1', '1', '1']);
    expect(await column('Corporations', 'Spent on its brands')).toEqual([
      '4.40 EUR',
      '3.60 GBP',
      '3.10 EUR',
      '2.35 EUR',
    ]);
    await screenshot(page, 'reports-merchants-corporations');
  });

  it('opens a corporation page that lists the brands of it the user bought', async () => {
    await table('Corporations').getByRole('link', { name: 'The Coca-Cola Company', exact: true }).click();
    await page.waitForURL('**/Corporation?name=*');
    await visible(page.getByRole('heading', { name: 'The Coca-Cola Company', level: 1 }));
    await expectColumn('Brands', 'Brand', ['Coca-Cola', 'Fanta']);
    expect(await column('Brands', 'Total')).toEqual(['2.50 EUR', '1.90 EUR']);
    await expect.poll(() => totalRow('Brands').textContent()).toContain('4.40 EUR');
    await screenshot(page, 'reports-corporation-page');
  });

  it('downloads the filtered receipts and items as CSV files with a header row', async () => {
    await go('/Reports?currency=EUR&to=2024-03-31');
    await expectColumn('Receipts', 'Merchant', ['Carrefour Express', 'Delhaize Ixelles']);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Receipts CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^receipts-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = join(app.dir, 'receipts.csv');
    await download.saveAs(file);
    const lines = (await readFile(file, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'receipt_id,date,time,merchant,category,document_type,region,currency,total,tax,total_checks_out',
    );
    expect(lines.slice(1)).toEqual([
      expect.stringContaining(',2024-03-15,12:00:00,Carrefour Express,grocery,receipt,BE,EUR,4.25,,true'),
      expect.stringContaining(',2024-01-05,12:00:00,Delhaize Ixelles,grocery,receipt,BE,EUR,5.60,,true'),
    ]);

    const [items] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Items CSV' }).click(),
    ]);
    const itemsFile = join(app.dir, 'items.csv');
    await items.saveAs(itemsFile);
    const itemLines = (await readFile(itemsFile, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(itemLines[0]).toBe(
      'item_id,receipt_id,date,merchant,description,brand,quantity,unit_price,total_price,currency',
    );
    expect(
      itemLines
        .slice(1)
        .map((l) => l.split(',').slice(4, 6).join(','))
        .sort(),
    ).toEqual(['COCA-COLA ZERO,Coca-Cola', 'FANTA ORANGE,Fanta', 'OAT DRINK,Alpro', 'SPECULOOS,Lotus']);
  });

  it('deletes a photo of something else from the review list, after asking', async () => {
    await seedReceipts(stack.services.store, personId, [
      {
        fileName: '1710000000050-receipt.jpg',
        merchant: 'Not A Receipt',
        date: '2024-05-01',
        needsReview: true,
        items: [{ description: 'CAT', price: 1 }],
      },
    ]);
    await go('/Review');
    const list = page.getByRole('list', { name: 'Receipts that need review' });
    const row = list.getByRole('listitem', { name: 'Not A Receipt, 2024-05-01' });
    await visible(row);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this receipt?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await visible(row);
    await row.getByRole('button', { name: 'Delete' }).click();
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.getByText('Nothing to review: every receipt has been checked.'));
    await go('/Reports?q=cat');
    await visible(table('Receipts').getByText('No receipts found.', { exact: false }));
  });

  it('logged no errors in the browser', () => {
    // The seeded receipts have no stored photo: their thumbnails are refused with a 404.
    expect(problems.filter((p) => !MISSING_PHOTO.test(p))).toEqual([]);
  });
});
