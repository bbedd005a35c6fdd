import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { LocalStack } from '../../dev/src/stack';
import { FakeAnalyzer, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { ApiClient, jpegDataUrl } from '../api/support/api-client';
import { WIDE, screenshot } from './support/browser';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * "My data" in headless Chromium against the local stack (Azurite, the Firebase Auth emulator, the
 * API and the worker): the Account page downloads a ZIP of the person's data, and deletes the account
 * after the typed confirmation, landing on Login; signing in again then fails.
 */

const PERSON = { name: 'Dora Data', email: 'dora@example.com', password: 'my-data-password-7' };
const fileName = '1718000000001-receipt.jpg';
const image = fakeReceiptImage({
  merchant: 'Bakery Dora',
  date: '2024-06-10',
  total: 4.2,
  items: [{ description: 'SOURDOUGH LOAF', price: 4.2 }],
});

let app: SignedInPage;
let stack: LocalStack;
let api: ApiClient;
let page: Page;
let problems: string[];

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const go = (route: string) => page.goto(new URL(route, stack.url).href);

async function signIn(): Promise<void> {
  await go('/Login');
  await page.getByRole('button', { name: 'Login with email' }).click();
  const form = page.getByRole('form', { name: 'Sign in with email' });
  await form.getByLabel('Email').fill(PERSON.email);
  await form.getByLabel('Password').fill(PERSON.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

beforeAll(async () => {
  app = await openSignedInPage({
    name: 'my-data',
    person: PERSON,
    viewport: WIDE,
    contextOptions: { acceptDownloads: true },
    stack: { analyzer: new FakeAnalyzer(), enricher: null, maxScanAttempts: 3 },
    signIn: false,
    prepare: async (started, userId, idToken) => {
      api = new ApiClient(started.url, idToken, userId);
      expect((await api.upload(fileName, jpegDataUrl(image))).status).toBe(202);
      expect(await api.waitForQueue()).toEqual([]);
    },
  });
  ({ stack, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
});

describe('my data in a real browser', () => {
  it('opens Account from the menu and downloads a ZIP of the receipts, items and the image', async () => {
    await app.signIn();
    await go('/Menu');
    await page
      .getByRole('navigation', { name: 'Menu' })
      .getByRole('link', { name: 'Account: my data' })
      .click();
    await page.waitForURL('**/Account');
    await visible(page.getByRole('heading', { name: 'Download my data' }));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^receipt-tracker-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const file = join(app.dir, 'my-data.zip');
    await download.saveAs(file);
    const files = unzipSync(new Uint8Array(await readFile(file)));
    const text = (path: string) => new TextDecoder().decode(files[path]);
    expect(text('receipts.csv')).toContain('Bakery Dora');
    expect(text('items.csv')).toContain('SOURDOUGH LOAF');
    expect(JSON.parse(text('merchants.json'))).toEqual([expect.objectContaining({ name: 'Bakery Dora' })]);
    expect(files[`images/${fileName}`]).toEqual(image);
    await visible(page.getByText('Your download has started.'));
  });

  it('deletes the account after the typed confirmation, lands on Login, and the sign-in no longer works', async () => {
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete my account' });
    await visible(dialog);
    const confirmation = dialog.getByLabel('Type DELETE to confirm');
    // Anything but DELETE leaves the button disabled: nothing can be deleted by a slip.
    await confirmation.fill('delete');
    expect(await dialog.getByRole('button', { name: 'Delete my account' }).isDisabled()).toBe(true);
    expect((await api.getAppData()).status).toBe(200);
    await screenshot(page, 'account-delete-confirmation-wide');

    await confirmation.fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL('**/Login', { timeout: 30_000 });
    await visible(page.getByText('Your account and all its data were deleted.'));
    await visible(page.getByRole('button', { name: 'Login with email' }));
    expect((await api.getAppData()).status).toBe(401);

    await signIn();
    await visible(
      page
        .getByRole('form', { name: 'Sign in with email' })
        .getByRole('alert')
        .getByText(/password/i),
    );
    expect(new URL(page.url()).pathname).toBe('/Login');
    expect(problems.filter((p) => !/401|Failed to load resource/.test(p))).toEqual([]);
  });
});
