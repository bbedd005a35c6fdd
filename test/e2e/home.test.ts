import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Analyzer } from '@receipts/core';
import { seedReceipts, type SeedReceipt } from '../support/report-seed';
import { MISSING_PHOTO, PHONE, WIDE, screenshot } from './support/browser';
import { openSignedInPage, type Person, type SignedInPage } from './support/signed-in';

/**
 * The signed-in Home in headless Chromium against the local stack (Azurite, the Firebase Auth
 * emulator, the API and the built SPA): an account with receipts sees its figures, charts with their
 * table, and links; an empty account sees the first-step card. Screenshots on a phone and wide.
 */

const WITH_DATA = { name: 'Hana Home', email: 'hana@example.com', password: 'home-password-1' };
const EMPTY = { name: 'Emil Empty', email: 'emil@example.com', password: 'empty-password-1' };

/** No scan is made here; the worker gets an analyzer that says so if it is ever asked. */
const noAnalyzer: Analyzer = {
  name: 'none',
  analyze: () => Promise.reject(new Error('No scan is analysed in the Home tests.')),
};

/** `YYYY-MM-DD` of a day `monthsBack` months before this one (the browser's and this process's zone). */
function dayMonthsBack(monthsBack: number, day: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - monthsBack, day);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const RECEIPTS: SeedReceipt[] = [
  {
    fileName: '1710000000001-receipt.jpg',
    merchant: 'Colruyt Anderlecht',
    date: dayMonthsBack(0, 1),
    items: [
      { description: 'COCA-COLA ZERO', price: 12.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'SPECULOOS', price: 3, brand: 'Lotus', owner: 'Lotus Bakeries' },
    ],
  },
  {
    fileName: '1710000000002-receipt.jpg',
    merchant: 'Chez Léon',
    date: dayMonthsBack(0, 1),
    category: 'restaurant',
    items: [{ description: 'MOULES FRITES', price: 24 }],
  },
  {
    fileName: '1710000000003-receipt.jpg',
    merchant: 'Colruyt Anderlecht',
    date: dayMonthsBack(1, 10),
    items: [{ description: 'HEINZ BEANS', price: 20, brand: 'Heinz', owner: 'Kraft Heinz' }],
  },
  {
    fileName: '1710000000004-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: dayMonthsBack(4, 5),
    items: [{ description: 'BREAD', price: 30 }],
  },
];

let app: SignedInPage;
let context: BrowserContext;
let page: Page;
let problems: string[];

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });

const signIn = (person: Person) => app.signIn(page, person);

async function signOut(): Promise<void> {
  await page.evaluate(() => window.localStorage.clear());
  await context.clearCookies();
}

beforeAll(async () => {
  app = await openSignedInPage({
    name: 'home',
    person: WITH_DATA,
    others: [EMPTY],
    stack: { analyzer: noAnalyzer, maxScanAttempts: 3 },
    signIn: false,
    prepare: async (started, userId) => {
      await seedReceipts(started.services.store, userId, RECEIPTS);
    },
  });
  ({ context, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
});

describe('Home signed in, in a real browser', () => {
  it("shows this month's spending against last month's, the charts' table and links to each page", async () => {
    await signIn(WITH_DATA);
    const spending = page.getByRole('region', { name: 'Spending this month' });
    await visible(spending);
    expect(await spending.textContent()).toContain('39.50 EUR');
    expect(await spending.textContent()).toContain('19.50 EUR more than last month (20.00 EUR, +98%).');

    const months = page.getByRole('region', { name: 'Last 12 months' });
    const chart = months.getByRole('img');
    expect(await chart.getAttribute('aria-label')).toMatch(
      /^Bar chart of spending per month in EUR, .* This month: 39\.50 EUR\.$/,
    );
    await months.getByText('Show the months as a table').click();
    const table = months.getByRole('table', { name: 'Spending per month' });
    await visible(table);
    expect(await table.locator('tbody tr').count()).toBe(12);
    expect(await table.locator('tbody tr').last().locator('td').allTextContents()).toEqual(['2', '39.50']);

    const merchants = page.getByRole('region', { name: 'Top merchants' });
    expect(await merchants.getByRole('link').allTextContents()).toEqual(['Chez Léon', 'Colruyt Anderlecht']);
    expect(
      await page.getByRole('region', { name: 'Top brands' }).getByRole('link').allTextContents(),
    ).toEqual(['Coca-Cola', 'Lotus']);
    const categories = await page.getByRole('region', { name: 'By category' }).textContent();
    expect(categories).toContain('Restaurant (1 receipt)');
    expect(categories).toContain('Grocery (1 receipt)');
    expect(await page.getByRole('region', { name: 'Latest receipts' }).locator('li').count()).toBe(4);
    await visible(page.getByRole('link', { name: '0 scans pending' }));

    // Nothing on the page is wider than a phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'home-dashboard-phone');

    await page.setViewportSize(WIDE);
    await visible(spending);
    await screenshot(page, 'home-dashboard-wide');
    await page.setViewportSize(PHONE);

    // The period lives in the URL: the radio turns checked once the page has moved to ?period=year,
    // so click it and wait for the year's figures rather than asking for an instant change.
    await page.getByRole('radio', { name: 'Year' }).click();
    await visible(page.getByRole('region', { name: 'Spending this year' }));
    expect(await page.getByRole('radio', { name: 'Year' }).isChecked()).toBe(true);
    expect(new URL(page.url()).search).toBe('?period=year');

    await merchants.getByRole('link', { name: 'Colruyt Anderlecht' }).click();
    await page.waitForURL((url) => url.pathname === '/Merchant');
    await visible(page.getByRole('region', { name: 'Merchant summary' }));
  });

  it('shows an empty account a first-step card with the Scan and Upload buttons, no charts', async () => {
    await signOut();
    await signIn(EMPTY);
    await visible(page.getByRole('heading', { name: 'Scan your first receipt' }));
    expect(await page.getByRole('img').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Scan a receipt', exact: true }).getAttribute('href')).toBe(
      '/Camera?p=Camera',
    );
    await screenshot(page, 'home-empty-phone');
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.waitForURL((url) => url.pathname === '/Camera');
    await visible(page.getByRole('heading', { name: 'Upload a receipt' }));
  });

  it('logs no errors in the browser console', () => {
    // The seeded receipts have no stored photo: their thumbnails are refused with a 404.
    expect(problems.filter((p) => !MISSING_PHOTO.test(p))).toEqual([]);
  });
});
