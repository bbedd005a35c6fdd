import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startLocalStack, type LocalStack } from '../../dev/src/stack';
import { FakeAnalyzer, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { ApiClient, jpegDataUrl } from '../api/support/api-client';
import { WIDE, launchChromium, screenshot, watchConsole } from './support/browser';

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

let dir: string;
let stack: LocalStack;
let api: ApiClient;
let browser: Browser;
let context: BrowserContext;
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
  dir = await mkdtemp(join(tmpdir(), 'receipts-e2e-my-data-'));
  const cameraFile = join(dir, 'camera.jpg');
  await writeFile(cameraFile, image);
  stack = await startLocalStack({
    port: 0,
    dataDir: join(dir, 'data'),
    analyzer: new FakeAnalyzer(),
    enricher: null,
    buildWeb: true,
    quiet: true,
    logLevel: 'error',
  });
  const session = await stack.signUp(PERSON.email, PERSON.password, PERSON.name);
  api = new ApiClient(stack.url, session.idToken, session.localId);
  expect((await api.upload(fileName, jpegDataUrl(image))).status).toBe(202);
  expect(await api.waitForQueue()).toEqual([]);
  browser = await launchChromium(cameraFile);
  context = await browser.newContext({ viewport: WIDE, acceptDownloads: true });
  page = await context.newPage();
  problems = watchConsole(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('my data in a real browser', () => {
  it('opens Account from the menu and downloads a ZIP of the receipts, items and the image', async () => {
    await signIn();
    await page.waitForURL((url) => url.pathname === '/');
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
    const file = join(dir, 'my-data.zip');
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
