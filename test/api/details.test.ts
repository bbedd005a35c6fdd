import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemIdFor, type ReportReceipt } from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import type {
  ItemDetailAnswer,
  ListMerchantsAnswer,
  MerchantDetailAnswer,
  ReceiptDetailAnswer,
} from '@receipts/core/contract/details';
import type { ReportPage } from '@receipts/core/contract/reports';
import { seedReceipts, type SeedReceipt } from '../support/report-seed';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * The detail routes (receiptDetail, merchantDetail, itemDetail, listMerchants) over HTTP against the
 * local stack, on both table stores: what each screen shows, isolation and bad input.
 */
const ALICE: SeedReceipt[] = [
  {
    fileName: '1720000000001-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-01-05',
    items: [
      { description: 'COCA-COLA ZERO', price: 2.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'SPECULOOS', price: 3, brand: 'Lotus', owner: 'Lotus Bakeries' },
    ],
  },
  {
    fileName: '1720000000002-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-02-10',
    currency: 'GBP',
    items: [{ description: 'TEA', price: 4 }],
  },
  {
    fileName: '1720000000003-receipt.jpg',
    merchant: 'Tesco Metro',
    city: 'London',
    date: '2024-03-15',
    items: [{ description: 'HEINZ BEANS', price: 1.2, quantity: 3, brand: 'Heinz', owner: 'Kraft Heinz' }],
  },
];

const BOB: SeedReceipt[] = [
  {
    fileName: '1720000000009-receipt.jpg',
    merchant: 'Secret Shop',
    date: '2024-01-06',
    items: [{ description: 'SECRET COLA', price: 99, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
  },
];

const backends = STORE_BACKENDS;

describe.each(backends)('detail routes on $name', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceIds: string[];
  let bobIds: string[];

  beforeAll(async () => {
    env = await startTestStack({ storageBackend });
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
    ]);
    aliceIds = await seedReceipts(env.stack.services.store, alice.userId, ALICE);
    bobIds = await seedReceipts(env.stack.services.store, bob.userId, BOB);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const get = <T>(client: ApiClient, path: string, query: Record<string, string>) =>
    client.call<T>('GET', path, { query: { userId: client.userId, ...query } });

  it("answers one receipt with its items and its merchant's visits and totals per currency", async () => {
    const answer = await get<ReceiptDetailAnswer>(alice, '/api/receiptDetail', { receiptId: aliceIds[0]! });
    expect(answer.status).toBe(200);
    const { receipt, items, merchant, duplicate_of, version } = answer.body;
    expect(receipt.receipt_id).toBe(aliceIds[0]);
    expect(receipt.merchant_name).toBe('Delhaize Ixelles');
    expect(receipt.etag).toEqual(expect.any(String));
    expect(items.map((i) => [i.description, i.total_price, i.brand])).toEqual([
      ['COCA-COLA ZERO', 2.5, 'Coca-Cola'],
      ['SPECULOOS', 3, 'Lotus'],
    ]);
    expect(merchant.merchant?.name).toBe('Delhaize Ixelles');
    expect(merchant.visits).toBe(2);
    expect(merchant.totals_by_currency).toEqual({ EUR: 5.5, GBP: 4 });
    expect(duplicate_of).toBeNull();
    expect(version).toEqual(expect.any(String));
    // A few hundred bytes, not the user's whole report data.
    expect(JSON.stringify(answer.body).length).toBeLessThan(4000);
  });

  it("answers a merchant's summary, and its receipts come from the paged report query", async () => {
    const detail = await get<ReceiptDetailAnswer>(alice, '/api/receiptDetail', { receiptId: aliceIds[2]! });
    const merchantId = detail.body.receipt.merchant_id;
    const answer = await get<MerchantDetailAnswer>(alice, '/api/merchantDetail', { merchantId });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      merchant_id: merchantId,
      visits: 1,
      totals_by_currency: { EUR: 3.6 },
      merchant: { name: 'Tesco Metro', city: 'London' },
    });
    const receipts = await get<ReportPage>(alice, '/api/report', { table: 'receipts', merchant: merchantId });
    expect((receipts.body.rows as ReportReceipt[]).map((r) => r.receipt_id)).toEqual([aliceIds[2]]);
  });

  it('answers one item with its receipt and its brand owner, and the merchants for the edit forms', async () => {
    const item = await get<ItemDetailAnswer>(alice, '/api/itemDetail', {
      itemId: itemIdFor(aliceIds[2]!, 0),
    });
    expect(item.status).toBe(200);
    expect(item.body.item.description).toBe('HEINZ BEANS');
    expect(item.body.receipt.receipt_id).toBe(aliceIds[2]);
    expect(item.body.owning_corporation).toBe('Kraft Heinz');
    const merchants = await get<ListMerchantsAnswer>(alice, '/api/listMerchants', {});
    expect(merchants.status).toBe(200);
    expect(merchants.body.map((m) => m.name)).toEqual(['Delhaize Ixelles', 'Tesco Metro']);
    expect(merchants.body.every((m) => typeof m.etag === 'string')).toBe(true);
  });

  it("never answers another user's receipt, item or merchant, and refuses their userId with 403", async () => {
    const bobsReceipt = await get<ReceiptDetailAnswer>(bob, '/api/receiptDetail', { receiptId: bobIds[0]! });
    expect(bobsReceipt.status).toBe(200);
    const asAlice = await get<ErrorAnswer>(alice, '/api/receiptDetail', { receiptId: bobIds[0]! });
    expect(asAlice.status).toBe(404);
    expect(asAlice.body.message).toMatch(/no such receipt among yours/);
    expect(JSON.stringify(asAlice.body)).not.toContain('Secret');
    const item = await get<ErrorAnswer>(alice, '/api/itemDetail', { itemId: itemIdFor(bobIds[0]!, 0) });
    expect(item.status).toBe(404);
    const merchant = await get<ErrorAnswer>(alice, '/api/merchantDetail', {
      merchantId: bobsReceipt.body.receipt.merchant_id,
    });
    expect(merchant.status).toBe(404);
    expect(merchant.body.message).toMatch(/no such merchant among yours/);
    for (const [path, query] of [
      ['/api/receiptDetail', { receiptId: bobIds[0]! }],
      ['/api/merchantDetail', { merchantId: bobsReceipt.body.receipt.merchant_id }],
      ['/api/itemDetail', { itemId: itemIdFor(bobIds[0]!, 0) }],
      ['/api/listMerchants', {}],
    ] as const) {
      const other = await alice.call<ErrorAnswer>('GET', path, { query: { userId: bob.userId, ...query } });
      expect(other.status, path).toBe(403);
      expect(JSON.stringify(other.body), path).not.toContain('Secret');
    }
    const anonymous = await alice
      .withToken(null)
      .call('GET', '/api/receiptDetail', { query: { userId: alice.userId, receiptId: aliceIds[0]! } });
    expect(anonymous.status).toBe(401);
  });

  it('answers bad input with a 400 that says what to change', async () => {
    const expect400 = async (path: string, query: Record<string, string>, message: RegExp) => {
      const answer = await get<ErrorAnswer>(alice, path, query);
      expect(answer.status, path).toBe(400);
      expect(answer.body.message, path).toMatch(message);
    };
    await expect400('/api/receiptDetail', {}, /receiptId is required/);
    await expect400('/api/receiptDetail', { receiptId: '../etc/passwd' }, /receiptId must be a receipt id/);
    await expect400('/api/merchantDetail', { merchantId: 'a b' }, /merchantId may contain only letters/);
    await expect400('/api/itemDetail', { itemId: 'not-an-item' }, /itemId must be an item id/);
  });
});
