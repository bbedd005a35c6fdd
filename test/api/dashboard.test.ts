import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardAnswer } from '@receipts/core/contract/dashboard';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { seedReceipts, type SeedReceipt } from '../support/report-seed';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * GET /api/dashboard (Home's figures) over HTTP against the local stack, on both table stores:
 * spending against the previous period per currency, the 12 months, top lists, categories, latest
 * receipts, an empty account, isolation and bad input.
 */
const ALICE: SeedReceipt[] = [
  {
    fileName: '1710000000001-receipt.jpg',
    merchant: 'Colruyt Anderlecht',
    date: '2024-04-05',
    items: [
      { description: 'COCA-COLA ZERO', price: 2.5, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
      { description: 'SPECULOOS', price: 3, brand: 'Lotus', owner: 'Lotus Bakeries' },
    ],
  },
  {
    fileName: '1710000000002-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-04-12',
    category: 'restaurant',
    needsReview: true,
    items: [{ description: 'CAFE', price: 4.2 }],
  },
  {
    fileName: '1710000000003-receipt.jpg',
    merchant: 'Tesco Metro',
    date: '2024-04-15',
    currency: 'GBP',
    items: [{ description: 'HEINZ BEANS', price: 1.2, quantity: 3, brand: 'Heinz', owner: 'Kraft Heinz' }],
  },
  {
    fileName: '1710000000004-receipt.jpg',
    merchant: 'Colruyt Anderlecht',
    date: '2024-03-10',
    items: [{ description: 'COCA-COLA 6X', price: 10, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
  },
  {
    fileName: '1710000000005-receipt.jpg',
    merchant: 'Delhaize Ixelles',
    date: '2024-01-20',
    items: [{ description: 'BREAD', price: 6 }],
  },
  {
    // Thirteen months back: outside the chart's twelve.
    fileName: '1710000000006-receipt.jpg',
    merchant: 'Colruyt Anderlecht',
    date: '2023-04-30',
    items: [{ description: 'MILK', price: 1.5 }],
  },
];

const BOB: SeedReceipt[] = [
  {
    fileName: '1710000000009-receipt.jpg',
    merchant: 'Secret Shop',
    date: '2024-04-06',
    items: [{ description: 'SECRET COLA', price: 99, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
  },
];

const backends = STORE_BACKENDS;

describe.each(backends)('GET /api/dashboard on $name', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;
  let carol: ApiClient;

  beforeAll(async () => {
    env = await startTestStack({ storageBackend });
    [alice, bob, carol] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
      signUpClient(env.stack, 'carol@example.com', 'Carol'),
    ]);
    await seedReceipts(env.stack.services.store, alice.userId, ALICE);
    await seedReceipts(env.stack.services.store, bob.userId, BOB);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const dashboard = (client: ApiClient, query: Record<string, string>) =>
    client.call<DashboardAnswer>('GET', '/api/dashboard', { query: { userId: client.userId, ...query } });

  it("shows this month's spending per currency against last month's, and the last 12 months", async () => {
    const answer = await dashboard(alice, { period: 'month', today: '2024-04-20' });
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body.current).toEqual({ from: '2024-04-01', to: '2024-04-30' });
    expect(body.previous).toEqual({ from: '2024-03-01', to: '2024-03-31' });
    expect(body.spending).toEqual([
      { currency: 'EUR', current: 9.7, previous: 10, receipts: 2 },
      { currency: 'GBP', current: 3.6, previous: 0, receipts: 1 },
    ]);
    expect(body.months).toHaveLength(12);
    expect(body.months[0]!.month).toBe('2023-05');
    expect(body.months[11]).toEqual({ month: '2024-04', totals: { EUR: 9.7, GBP: 3.6 }, receipts: 3 });
    expect(body.months[10]).toEqual({ month: '2024-03', totals: { EUR: 10 }, receipts: 1 });
    expect(body.months[8]).toEqual({ month: '2024-01', totals: { EUR: 6 }, receipts: 1 });
    expect(body.months.reduce((n, m) => n + m.receipts, 0)).toBe(5);
    expect(body.receiptCount).toBe(6);
    expect(body.needsReview).toBe(1);
  });

  it('ranks the top merchants, brands and corporations of the period and sums spending by category', async () => {
    const { body } = await dashboard(alice, { period: 'month', today: '2024-04-20' });
    expect(body.topMerchants.map((m) => [m.name, m.total, m.currency_code, m.count])).toEqual([
      ['Colruyt Anderlecht', 5.5, 'EUR', 1],
      ['Delhaize Ixelles', 4.2, 'EUR', 1],
      ['Tesco Metro', 3.6, 'GBP', 1],
    ]);
    expect(body.topMerchants[0]!.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(body.topBrands.map((b) => [b.id, b.total])).toEqual([
      ['Heinz', 3.6],
      ['Lotus', 3],
      ['Coca-Cola', 2.5],
    ]);
    expect(body.topCorporations.map((c) => c.name)).toEqual([
      'Kraft Heinz',
      'Lotus Bakeries',
      'The Coca-Cola Company',
    ]);
    expect(body.categories).toEqual([
      { category: 'grocery', totals: { EUR: 5.5, GBP: 3.6 }, receipts: 2 },
      { category: 'restaurant', totals: { EUR: 4.2 }, receipts: 1 },
    ]);
    expect(body.latestReceipts.map((r) => r.transaction_date)).toEqual([
      '2024-04-15',
      '2024-04-12',
      '2024-04-05',
      '2024-03-10',
      '2024-01-20',
    ]);
  });

  it('switches to the quarter and the year, each against the one before', async () => {
    const quarter = await dashboard(alice, { period: 'quarter', today: '2024-04-20' });
    expect(quarter.body.current).toEqual({ from: '2024-04-01', to: '2024-06-30' });
    expect(quarter.body.spending[0]).toEqual({ currency: 'EUR', current: 9.7, previous: 16, receipts: 2 });
    const year = await dashboard(alice, { period: 'year', today: '2024-04-20' });
    expect(year.body.current).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(year.body.previous).toEqual({ from: '2023-01-01', to: '2023-12-31' });
    expect(year.body.spending[0]).toEqual({ currency: 'EUR', current: 25.7, previous: 1.5, receipts: 4 });
    expect(year.body.topMerchants.map((m) => [m.name, m.total, m.count])).toEqual([
      ['Colruyt Anderlecht', 15.5, 2],
      ['Delhaize Ixelles', 10.2, 2],
      ['Tesco Metro', 3.6, 1],
    ]);
  });

  it('shows any earlier month, quarter or year against the one before it, with its 12 months', async () => {
    const march = await dashboard(alice, { period: 'month', today: '2024-04-20', at: '2024-03-10' });
    expect(march.status).toBe(200);
    expect(march.body).toMatchObject({
      today: '2024-03-10',
      isCurrent: false,
      current: { from: '2024-03-01', to: '2024-03-31' },
      previous: { from: '2024-02-01', to: '2024-02-29' },
    });
    expect(march.body.spending).toEqual([{ currency: 'EUR', current: 10, previous: 0, receipts: 1 }]);
    expect(march.body.months[11]).toEqual({ month: '2024-03', totals: { EUR: 10 }, receipts: 1 });
    // The first quarter against the last of 2023: the same figures as the quarter view of April shows
    // as "previous".
    const q1 = await dashboard(alice, { period: 'quarter', today: '2024-04-20', at: '2024-02-29' });
    expect(q1.body.current).toEqual({ from: '2024-01-01', to: '2024-03-31' });
    expect(q1.body.spending[0]).toMatchObject({ currency: 'EUR', current: 16 });
    const last = await dashboard(alice, { period: 'year', today: '2024-04-20', at: '2023-06-01' });
    expect(last.body.current).toEqual({ from: '2023-01-01', to: '2023-12-31' });
    expect(last.body.spending[0]).toMatchObject({ currency: 'EUR', current: 1.5 });
    // A day of the period holding today is that period, as without `at`.
    const april = await dashboard(alice, { period: 'month', today: '2024-04-20', at: '2024-04-02' });
    expect(april.body.isCurrent).toBe(true);
    expect(april.body.spending).toEqual(
      (await dashboard(alice, { period: 'month', today: '2024-04-20' })).body.spending,
    );
  });

  it("counts from the server's day and the month period when the query leaves them out", async () => {
    const answer = await dashboard(alice, {});
    expect(answer.status).toBe(200);
    expect(answer.body.period).toBe('month');
    expect(answer.body.today).toBe(new Date().toISOString().slice(0, 10));
    expect(answer.body.months[11]!.month).toBe(answer.body.today.slice(0, 7));
  });

  it('answers an empty account with zero receipts, empty lists and twelve empty months', async () => {
    const answer = await dashboard(carol, { period: 'month', today: '2024-04-20' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      receiptCount: 0,
      needsReview: 0,
      spending: [],
      topMerchants: [],
      topBrands: [],
      topCorporations: [],
      categories: [],
      latestReceipts: [],
    });
    expect(answer.body.months.every((m) => m.receipts === 0 && Object.keys(m.totals).length === 0)).toBe(
      true,
    );
  });

  it("shows only the user's own figures and refuses another user's userId with 403", async () => {
    const bobs = await dashboard(bob, { today: '2024-04-20' });
    expect(bobs.body.spending).toEqual([{ currency: 'EUR', current: 99, previous: 0, receipts: 1 }]);
    expect(bobs.body.topMerchants.map((m) => m.name)).toEqual(['Secret Shop']);
    const alices = await dashboard(alice, { today: '2024-04-20' });
    expect(alices.body.topMerchants.map((m) => m.name)).not.toContain('Secret Shop');

    const other = await alice.call<ErrorAnswer>('GET', '/api/dashboard', {
      query: { userId: bob.userId, period: 'month' },
    });
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/only reach your own data/);
    const anonymous = await alice
      .withToken(null)
      .call('GET', '/api/dashboard', { query: { userId: alice.userId } });
    expect(anonymous.status).toBe(401);
  });

  it('answers bad input with a 400 that says what to change', async () => {
    const expect400 = async (query: Record<string, string>, message: RegExp) => {
      const answer = await alice.call<ErrorAnswer>('GET', '/api/dashboard', { query });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(message);
    };
    await expect400({ userId: alice.userId, period: 'week' }, /period must be one of month, quarter, year/);
    await expect400({ userId: alice.userId, today: '20/04/2024' }, /today must be a date written YYYY-MM-DD/);
    await expect400({ userId: alice.userId, today: '2024-13-45' }, /today is not a real date/);
    await expect400({ userId: alice.userId, at: '2024-02-30' }, /at is not a real date/);
    await expect400({ userId: alice.userId, at: 'March' }, /at must be a date written YYYY-MM-DD/);
    await expect400({ userId: alice.userId, at: '1900-01-01' }, /at must be a day between 1970 and 2099/);
    await expect400({ period: 'month' }, /userId is required/);
  });
});
