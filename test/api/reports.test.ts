import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_REPORT_PAGE_SIZE,
  type MerchantReportRow,
  type ReportPage,
} from '@receipts/core/contract/reports';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import type { Receipt, ReportItem } from '@receipts/core';
import { seedReceipts, type SeedReceipt } from '../support/report-seed';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * The report routes (GET /api/report, GET /api/exportCsv) over HTTP against the local stack, on both
 * table stores: paging, sorting, filters, search, totals per currency, isolation and bad input.
 */
const ALICE: SeedReceipt[] = [
  {
    fileName: '1710000000001-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-01-05',
    items: [
      { description: 'COCA-COLA ZERO', price: 2.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'SPECULOOS', price: 3, brand: 'Lotus', owner: 'Lotus Bakeries' },
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
    merchant: 'Delhaize Ixelles',
    date: '2024-03-15',
    category: 'restaurant',
    items: [{ description: 'Café, "grand"', price: 4.2 }],
  },
  ...Array.from({ length: 7 }, (_, i) => ({
    fileName: `17100000001${i}-receipt.jpg`,
    merchant: 'Colruyt Anderlecht',
    date: `2024-04-${String(10 + i)}`,
    items: [{ description: `BREAD ${i}`, price: 1 + i, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
  })),
];

const BOB: SeedReceipt[] = [
  {
    fileName: '1710000000009-receipt.jpg',
    merchant: 'Secret Shop',
    date: '2024-01-06',
    items: [{ description: 'SECRET COLA', price: 99, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
  },
];

const backends = STORE_BACKENDS;

describe.each(backends)('report queries on $name', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    env = await startTestStack({ storageBackend });
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
    ]);
    await seedReceipts(env.stack.services.store, alice.userId, ALICE);
    await seedReceipts(env.stack.services.store, bob.userId, BOB);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const report = <T = unknown>(client: ApiClient, query: Record<string, string>) =>
    client.call<Omit<ReportPage, 'rows'> & { rows: T[] }>('GET', '/api/report', {
      query: { userId: client.userId, ...query },
    });

  it('pages the receipts newest first with tokens that walk the whole set once', async () => {
    const seen: string[] = [];
    let pageToken: string | null = null;
    let pages = 0;
    do {
      const answer: Awaited<ReturnType<typeof report<Receipt>>> = await report<Receipt>(alice, {
        table: 'receipts',
        pageSize: '4',
        ...(pageToken ? { pageToken } : {}),
      });
      expect(answer.status).toBe(200);
      expect(answer.body.count).toBe(10);
      seen.push(...answer.body.rows.map((r) => r.transaction_date!));
      pageToken = answer.body.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(10);
    expect(seen).toEqual([...seen].sort().reverse());
    expect(seen[0]).toBe('2024-04-16');
  });

  it('sorts by a column in both directions and keeps money totals apart per currency', async () => {
    const up = await report<Receipt>(alice, {
      table: 'receipts',
      sort: 'total',
      dir: 'asc',
      pageSize: '100',
    });
    const totals = up.body.rows.map((r) => r.total_amount!);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(up.body.totals).toEqual({ EUR: 37.7, GBP: 3.6 });
    const down = await report<Receipt>(alice, {
      table: 'receipts',
      sort: 'total',
      dir: 'desc',
      pageSize: '1',
    });
    expect(down.body.rows[0]!.total_amount).toBe(7);
  });

  it('filters by date range, currency, category, merchant and brand, with totals over the filtered set', async () => {
    const range = await report<Receipt>(alice, { table: 'receipts', from: '2024-01-01', to: '2024-02-28' });
    expect(range.body.rows.map((r) => r.merchant_name).sort()).toEqual(['Delhaize Ixelles', 'Tesco Metro']);
    expect(range.body.totals).toEqual({ EUR: 5.5, GBP: 3.6 });

    const gbp = await report<Receipt>(alice, { table: 'receipts', currency: 'gbp' });
    expect(gbp.body.rows.map((r) => r.merchant_name)).toEqual(['Tesco Metro']);

    const restaurants = await report<Receipt>(alice, { table: 'receipts', category: 'restaurant' });
    expect(restaurants.body.count).toBe(1);

    const merchants = await report<MerchantReportRow>(alice, { table: 'merchants', sort: 'name' });
    const delhaize = merchants.body.rows.find((m) => m.name === 'Delhaize Ixelles')!;
    expect(delhaize).toMatchObject({ visits: 2, total: 9.7, currency_code: 'EUR', last_visit: '2024-03-15' });
    const ofDelhaize = await report<Receipt>(alice, { table: 'receipts', merchant: delhaize.merchant_id });
    expect(ofDelhaize.body.count).toBe(2);

    const lotusItems = await report<ReportItem>(alice, { table: 'items', brand: 'Lotus' });
    expect(lotusItems.body.rows.map((i) => i.description)).toEqual(['SPECULOOS']);
    expect(lotusItems.body.totals).toEqual({ EUR: 3 });
  });

  it('finds receipts by merchant, item description or brand, ignoring case and accents', async () => {
    const byItem = await report<Receipt>(alice, { table: 'receipts', q: 'speculoos' });
    expect(byItem.body.rows.map((r) => r.transaction_date)).toEqual(['2024-01-05']);
    const byBrand = await report<Receipt>(alice, { table: 'receipts', q: 'HEINZ' });
    expect(byBrand.body.rows.map((r) => r.merchant_name)).toEqual(['Tesco Metro']);
    const byMerchant = await report<Receipt>(alice, { table: 'receipts', q: 'delhaize' });
    expect(byMerchant.body.count).toBe(2);
    const byAccent = await report<Receipt>(alice, { table: 'receipts', q: 'cafe grand' });
    expect(byAccent.body.rows.map((r) => r.transaction_date)).toEqual(['2024-03-15']);
    const nothing = await report<Receipt>(alice, { table: 'receipts', q: 'no such thing' });
    expect(nothing.body).toMatchObject({ count: 0, rows: [], totals: {} });
  });

  it('gives the search one meaning in every table: the rows of the receipts and items it finds', async () => {
    const names = async (table: string, q: string) =>
      (await report<{ name: string }>(alice, { table, q, sort: 'name' })).body.rows.map((r) => r.name);
    // An item's word: its receipt, the item, the shop, the brand and its owner.
    const receipts = await report<Receipt>(alice, { table: 'receipts', q: 'speculoos' });
    expect(receipts.body.rows.map((r) => r.transaction_date)).toEqual(['2024-01-05']);
    const items = await report<ReportItem>(alice, { table: 'items', q: 'speculoos' });
    expect(items.body.rows.map((i) => i.description)).toEqual(['SPECULOOS']);
    const merchants = await report<MerchantReportRow>(alice, { table: 'merchants', q: 'speculoos' });
    expect(merchants.body.rows.map((m) => [m.name, m.visits])).toEqual([['Delhaize Ixelles', 1]]);
    expect(merchants.body.totals).toEqual(receipts.body.totals);
    expect(await names('brands', 'speculoos')).toEqual(['Lotus']);
    expect(await names('corporations', 'speculoos')).toEqual(['Lotus Bakeries']);

    // A brand's name (or its owner's) finds the receipts with it, wherever they were bought.
    expect((await report<Receipt>(alice, { table: 'receipts', q: 'coca cola' })).body.count).toBe(8);
    expect(await names('merchants', 'coca cola')).toEqual(['Colruyt Anderlecht', 'Delhaize Ixelles']);
    expect(await names('brands', 'coca cola company')).toEqual(['Coca-Cola']);
    // A city finds the shop there, its receipts and what was bought there.
    expect(await names('merchants', 'london')).toEqual(['Tesco Metro']);
    expect((await report<Receipt>(alice, { table: 'receipts', q: 'london' })).body.count).toBe(1);
    expect(await names('brands', 'london')).toEqual(['Heinz']);
    for (const table of ['receipts', 'items', 'merchants', 'brands', 'corporations']) {
      expect((await report(alice, { table, q: 'no such thing' })).body.count).toBe(0);
    }
  });

  it('answers the brands and corporations tables with purchases and totals', async () => {
    const brands = await report<{ name: string; purchases: number; total: number }>(alice, {
      table: 'brands',
    });
    expect(brands.body.rows[0]).toMatchObject({ name: 'Coca-Cola', purchases: 8, total: 30.5 });
    const corporations = await report<{ name: string; brands: string[]; purchases: number }>(alice, {
      table: 'corporations',
      sort: 'name',
    });
    expect(corporations.body.rows.map((c) => c.name)).toEqual([
      'Kraft Heinz',
      'Lotus Bakeries',
      'The Coca-Cola Company',
    ]);
    expect(corporations.body.rows[2]).toMatchObject({ brands: ['Coca-Cola'], purchases: 8 });
    const ofCorporation = await report<{ name: string }>(alice, {
      table: 'brands',
      corporation: 'Kraft Heinz',
    });
    expect(ofCorporation.body.rows.map((b) => b.name)).toEqual(['Heinz']);
  });

  it("never shows another user's rows, and refuses another user's userId with 403", async () => {
    const cola = await report<Receipt>(alice, { table: 'receipts', q: 'secret' });
    expect(cola.body.count).toBe(0);
    const bobs = await report<Receipt>(bob, { table: 'receipts' });
    expect(bobs.body.rows.map((r) => r.merchant_name)).toEqual(['Secret Shop']);
    const brands = await report<{ name: string; total: number }>(bob, { table: 'brands' });
    expect(brands.body.rows).toEqual([expect.objectContaining({ name: 'Coca-Cola', total: 99 })]);
    const other = await alice.call<ErrorAnswer>('GET', '/api/report', {
      query: { userId: bob.userId, table: 'receipts' },
    });
    expect(other.status).toBe(403);
    const csv = await alice.call<ErrorAnswer>('GET', '/api/exportCsv', {
      query: { userId: bob.userId, table: 'receipts' },
    });
    expect(csv.status).toBe(403);
    expect(
      (
        await alice
          .withToken(null)
          .call('GET', '/api/report', { query: { userId: alice.userId, table: 'receipts' } })
      ).status,
    ).toBe(401);
  });

  it('answers bad input with a 400 that says what to change', async () => {
    const expect400 = async (query: Record<string, string>, message: RegExp) => {
      const answer = await report<never>(alice, query);
      expect(answer.status).toBe(400);
      expect((answer.body as unknown as ErrorAnswer).message).toMatch(message);
    };
    await expect400({ table: 'receipts', sort: 'colour' }, /sort must be one of date, merchant, total/);
    await expect400({ table: 'merchants', sort: 'description' }, /not a column of it/);
    await expect400(
      { table: 'receipts', pageSize: String(MAX_REPORT_PAGE_SIZE + 1) },
      /pageSize may be at most 100/,
    );
    await expect400({ table: 'receipts', pageSize: 'ten' }, /pageSize must be a whole number/);
    await expect400(
      { table: 'receipts', pageToken: 'not-a-token' },
      /pageToken is not one this server gave out/,
    );
    await expect400(
      { table: 'shops' },
      /table must be one of receipts, items, merchants, brands, corporations/,
    );
    await expect400({ table: 'receipts', from: '2024-13-01' }, /from/);
    await expect400({ table: 'receipts', from: '2024-05-01', to: '2024-01-01' }, /from must not be after to/);
    // A token of one query does not page another.
    const first = await report<Receipt>(alice, { table: 'receipts', pageSize: '2' });
    await expect400(
      { table: 'receipts', pageSize: '2', sort: 'total', pageToken: first.body.nextPageToken! },
      /pageToken belongs to another query/,
    );
  });

  it('exports the filtered receipts and items as CSV with a header, ISO dates, dot decimals and currency', async () => {
    const answer = await alice.call<string>('GET', '/api/exportCsv', {
      query: { userId: alice.userId, table: 'receipts', to: '2024-03-31', sort: 'date', dir: 'asc' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toMatch(
      /attachment; filename="receipts-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = answer.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'receipt_id,date,time,merchant,category,document_type,region,currency,total,tax,total_checks_out',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',2024-01-05,12:00:00,Delhaize Ixelles,grocery,receipt,BE,EUR,5.50,,true');
    expect(lines[2]).toContain(',2024-02-10,12:00:00,Tesco Metro,grocery,receipt,BE,GBP,3.60,,true');

    const items = await alice.call<string>('GET', '/api/exportCsv', {
      query: { userId: alice.userId, table: 'items', category: 'restaurant' },
    });
    const itemLines = items.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(itemLines[0]).toBe(
      'item_id,receipt_id,date,merchant,description,brand,quantity,unit_price,total_price,currency',
    );
    expect(itemLines.slice(1)).toEqual([
      expect.stringContaining(',2024-03-15,Delhaize Ixelles,"Café, ""grand""",,1,4.20,4.20,EUR'),
    ]);
  });
});
