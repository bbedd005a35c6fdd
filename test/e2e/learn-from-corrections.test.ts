import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { AppData } from '@receipts/core';
import { ApiClient, jpegDataUrl } from '../api/support/api-client';
import { renderReceipt, type ReceiptSpec } from '../support/receipt-images';
import { openSignedInPage, type SignedInPage } from './support/signed-in';

/**
 * Learning from corrections, in headless Chromium against the local stack with the local OCR
 * analyzer and no brand dataset (so a brand can only come from the person): a brand set on one
 * receipt fills in the same item of the next receipt from that shop, marked "from your
 * corrections"; removing the rule on the Account page stops it.
 */

const PERSON = { name: 'Lea Learns', email: 'lea@example.com', password: 'learns-password-4' };
const BRAND = 'Brewster Roasters';

const receipt = (date: string, items: ReceiptSpec['items']): ReceiptSpec => ({
  merchant: 'HILLSIDE MART',
  addressLines: ['12 STATION ROAD', 'LEEDS LS1 4DT'],
  date,
  time: '10:15',
  items,
  total: Math.round(items.reduce((sum, i) => sum + i.price, 0) * 100) / 100,
  currencySymbol: '£',
});
const COFFEE = { description: 'HOUSE BLEND COFFEE', price: 8.9 };

let session: SignedInPage;
let api: ApiClient;

const visible = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });
const data = async (): Promise<AppData> => (await api.getAppData()).body;
/** The receipts of the person, by id, that are not among `known`. */
const newReceiptIds = async (known: string[]) =>
  (await data()).reportReceipts.map((r) => r.receipt_id).filter((id) => !known.includes(id));
const openReceipt = (receiptId: string, edit = false) =>
  session.go(`/Receipt?receiptId=${encodeURIComponent(receiptId)}${edit ? '&edit=1' : ''}`);
const coffeeRow = () =>
  session.page
    .getByRole('table', { name: 'Receipt Products' })
    .getByRole('row')
    .filter({ hasText: /BLEND/i });

beforeAll(async () => {
  session = await openSignedInPage({
    name: 'learn',
    person: PERSON,
    stack: { enricher: null },
    prepare: async (stack, userId, idToken) => {
      api = new ApiClient(stack.url, idToken, userId);
      const first = await renderReceipt(
        receipt('2026-01-05', [COFFEE, { description: 'WHOLEMEAL BREAD', price: 2.4 }]),
      );
      expect((await api.upload('1767607200000-receipt.jpg', jpegDataUrl(first))).status).toBe(202);
      expect(await api.waitForQueue()).toEqual([]);
    },
  });
}, 240_000);

afterAll(async () => {
  await session?.close();
});

describe('learning from corrections in a real browser', () => {
  it('fills in a corrected brand on the next receipt, marked as learnt, until the rule is removed', async () => {
    const { page, dir } = session;
    const [firstId] = await newReceiptIds([]);
    const read = (await data()).reportProductItems.find((i) => /BLEND/i.test(i.description));
    expect(read, 'the coffee was read from the first receipt').toBeDefined();
    expect(read!.brand).toBeNull();

    // The person sets the brand on the first receipt.
    await openReceipt(firstId!, true);
    const form = page.getByRole('form', { name: 'Edit receipt' });
    await visible(form);
    await form
      .getByRole('group', { name: `Item ${read!.description}` })
      .getByLabel('Brand')
      .fill(BRAND);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await visible(coffeeRow().getByText(BRAND));
    expect(await coffeeRow().getByText('from your corrections').count()).toBe(0);

    // A second receipt from the shop, picked on the Upload page.
    const second = join(dir, 'second.jpg');
    await writeFile(
      second,
      await renderReceipt(receipt('2026-01-12', [{ description: 'SEMI SKIMMED MILK', price: 1.3 }, COFFEE])),
    );
    await session.go('/Camera?p=Upload');
    await page.getByLabel('Receipt image file').setInputFiles(second);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await api.waitForQueue()).toEqual([]);
    const [secondId] = await newReceiptIds([firstId!]);
    await openReceipt(secondId!);
    await visible(coffeeRow().getByText(BRAND));
    await visible(coffeeRow().getByText('from your corrections'));
    expect(
      await page.getByRole('table', { name: 'Receipt Products' }).getByText('from your corrections').count(),
    ).toBe(1);

    // The rule is listed on the Account page; removing it stops it.
    await session.go('/Account');
    const rules = page.getByRole('list', { name: 'Your correction rules' });
    await visible(rules);
    expect(await rules.getByRole('listitem').count()).toBe(1);
    await visible(rules.getByText(`has the brand ${BRAND}`));
    await rules.getByRole('button', { name: `Remove the rule for ${read!.description}` }).click();
    await visible(page.getByText('Nothing learnt yet.'));

    const third = await renderReceipt(receipt('2026-01-19', [COFFEE]));
    expect((await api.upload('1768816800000-receipt.jpg', jpegDataUrl(third))).status).toBe(202);
    expect(await api.waitForQueue()).toEqual([]);
    const [thirdId] = await newReceiptIds([firstId!, secondId!]);
    await openReceipt(thirdId!);
    await visible(coffeeRow());
    expect(await coffeeRow().getByText(BRAND).count()).toBe(0);
    expect(await coffeeRow().getByText('from your corrections').count()).toBe(0);
    expect(session.problems).toEqual([]);
  }, 240_000);
});
