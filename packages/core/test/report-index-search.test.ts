import { describe, expect, it } from 'vitest';
import {
  buildAppData,
  buildReportIndex,
  itemInIndex,
  queryReportIndex,
  scanReportIndex,
  type ItemRow,
  type MerchantRow,
  type PageQuery,
  type ReceiptRow,
} from '../src';
import type { ReportTable } from '../src/contract/reports';
import { merchantRow } from './support/report-rows';
import { prng } from './support/totals-scenario';

/**
 * The receipts and items tables in their default order, unfiltered or searched, are answered from the
 * index's totals and search dictionary, not by a pass over every row: on random accounts (shops and
 * products that repeat, names equal once normalised, several currencies, missing dates and amounts)
 * and random queries, every page (rows, order, count, totals, sums, tokens) is the one a pass over
 * all rows gives.
 */

type Pick = <T>(values: readonly T[]) => T;

// "Delhaize" and "DELHAIZE" are two merchants with one normalised name.
const MERCHANTS: [string, string, string | null][] = [
  ['m-delhaize', 'Delhaize', 'Ixelles'],
  ['m-delhaize-2', 'DELHAIZE', 'Namur'],
  ['m-tesco', 'Tesco Metro', 'London'],
  ['m-cafe', 'Café Élysée', 'Paris'],
  ['m-aldi', 'Aldi Süd', null],
];
const PRODUCTS: [string, string | null][] = [
  ['COCA-COLA ZERO', 'Coca-Cola'],
  ['Coca Cola Zero', 'Coca-Cola'],
  ['SPECULOOS', 'Lotus'],
  ['FANTA ORANGE', 'Fanta'],
  ['HEINZ BEANS', 'Heinz'],
  ['Crème brûlée', null],
  ['Espresso', null],
  ['Bananas', null],
  ['Lait demi-écrémé', 'Lactel'],
];
const OWNERS: Record<string, string> = {
  'Coca-Cola': 'The Coca-Cola Company',
  Fanta: 'The Coca-Cola Company',
  Lotus: 'Lotus Bakeries',
  Heinz: 'Kraft Heinz',
};
const DATES = ['2024-01-05', '2024-01-05', '2024-02-10', '2024-03-01', '2023-12-31', null];
const TIMES = ['10:00:00', '10:00:00', '18:30:00', null];
const CURRENCIES = ['EUR', 'EUR', 'GBP', 'USD', null];
const AMOUNTS = [10, 0.1, 0.2, 3.6, 12.345, 1.005, 99.99, null];
const QUANTITIES = [1, 1, 2, 0.5, 0.333, 1.25, null];

function account(seed: number) {
  const next = prng(seed);
  const pick: Pick = (values) => values[Math.floor(next() * values.length)]!;
  const merchants: MerchantRow[] = MERCHANTS.map(([id, name, city]) => merchantRow(id, name, city));
  const receipts: ReceiptRow[] = [];
  const items: ItemRow[] = [];
  const count = 20 + Math.floor(next() * 40);
  for (let r = 0; r < count; r++) {
    // Ids that differ in case only, to check the order between them is still one order.
    const file = `${next() < 0.5 ? 'R' : 'r'}${Math.floor(next() * count)}-${r}.jpg`;
    const [merchantId, merchantName] = pick(MERCHANTS);
    receipts.push({
      receipt_id: `u~${file}`,
      doc_type: 'receipt',
      receipt_type: pick(['grocery', 'Restaurant', 'restaurant', null]),
      country_region: 'BE',
      merchant_id: merchantId,
      merchant_name: merchantName,
      total_amount: pick(AMOUNTS),
      currency_code: pick(CURRENCIES),
      total_tax: null,
      transaction_date: pick(DATES),
      transaction_time: pick(TIMES),
      user_id: 'u',
      document_url: `blob://u/${file}`,
      total_checks_out: true,
      file_name: file,
      analyzed_at: '',
      ...(next() < 0.2 ? { needs_review: true, review_reasons: ['no_date' as const] } : {}),
    });
    const itemCount = Math.floor(next() * 4);
    for (let i = 0; i < itemCount; i++) {
      const [description, brand] = pick(PRODUCTS);
      items.push({
        item_id: `u~${file}~${String(i + 1).padStart(3, '0')}`,
        receipt_id: `u~${file}`,
        description,
        unit_price: null,
        quantity: pick(QUANTITIES),
        total_price: pick(AMOUNTS),
        currency_code: next() < 0.8 ? null : pick(CURRENCIES),
        user_id: 'u',
        brand,
        owning_corporation: brand ? (OWNERS[brand] ?? null) : null,
      });
    }
  }
  return buildAppData({ version: `v${seed}`, merchants, receipts, items });
}

const SEARCHES = [
  'cola',
  'Coca—Cola!',
  'delhaize',
  'delhaize zero',
  'tesco heinz',
  'creme brulee',
  'ELYSEE espresso',
  'lait ecreme',
  'a',
  'ban',
  'lotus speculoos delhaize',
  'nothing like this',
  '  ',
  '-',
];

function randomQuery(pick: Pick, next: () => number): PageQuery {
  const table = pick<ReportTable>(['receipts', 'items', 'receipts', 'items', 'merchants', 'brands']);
  const query: PageQuery = { table, pageSize: 1 + Math.floor(next() * 6) };
  if (next() < 0.7) query.q = pick(SEARCHES);
  if (next() < 0.25) {
    const filter = pick(['from', 'to', 'currency', 'category', 'merchant', 'brand', 'corporation', 'review']);
    if (filter === 'from') query.from = '2024-01-05';
    if (filter === 'to') query.to = '2024-02-10';
    if (filter === 'currency') query.currency = pick(['EUR', 'GBP']);
    if (filter === 'category') query.category = 'restaurant';
    if (filter === 'merchant') query.merchant = pick(MERCHANTS)[0];
    if (filter === 'brand') query.brand = pick(['Coca-Cola', 'Heinz']);
    if (filter === 'corporation') query.corporation = 'The Coca-Cola Company';
    if (filter === 'review') query.review = 'needed';
  }
  if (next() < 0.3) {
    const columns =
      table === 'receipts'
        ? ['date', 'total', 'merchant']
        : table === 'items'
          ? ['date', 'quantity', 'description']
          : ['name'];
    query.sort = pick(columns);
    if (next() < 0.5) query.dir = pick(['asc', 'desc'] as const);
  }
  return query;
}

describe('report index: default order and search from the dictionary', () => {
  it('answers every page of random queries as a pass over all rows does', () => {
    let searchedRows = 0;
    let queries = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const index = buildReportIndex(account(seed));
      const next = prng(1000 + seed);
      const pick: Pick = (values) => values[Math.floor(next() * values.length)]!;
      for (let n = 0; n < 40; n++) {
        const query = randomQuery(pick, next);
        // Pages 1 to 3 through their tokens, each asked twice (the second from what the index keeps).
        let token: string | undefined;
        for (let p = 0; p < 3; p++) {
          const asked = { ...query, pageToken: token };
          const expected = scanReportIndex(index, asked);
          expect(queryReportIndex(index, asked), JSON.stringify({ seed, asked })).toEqual(expected);
          expect(queryReportIndex(index, asked), JSON.stringify({ seed, asked })).toEqual(expected);
          if (query.q?.trim() && (query.table === 'receipts' || query.table === 'items'))
            searchedRows += expected.rows.length;
          queries += 1;
          if (!expected.nextPageToken) break;
          token = expected.nextPageToken;
        }
      }
    }
    // The random queries did find rows by searching, on many pages.
    expect(queries).toBeGreaterThan(1000);
    expect(searchedRows).toBeGreaterThan(300);
  });

  it('lists a searched table newest first, ties by id, with totals of every match', () => {
    const data = account(7);
    const index = buildReportIndex(data);
    const owner = new Map(data.brands.map((b) => [b.name, b.owning_corporation ?? '']));
    const all = scanReportIndex(index, { table: 'items', q: 'cola', pageSize: 100 });
    const page = queryReportIndex(index, { table: 'items', q: 'cola', pageSize: 2 });
    expect(page.count).toBe(all.count);
    expect(page.rows).toEqual(all.rows.slice(0, 2));
    expect(page.totals).toEqual(all.totals);
    // Its own words: description, brand or the brand's owner (or its merchant's name).
    for (const item of all.rows) {
      expect(
        `${item.description} ${item.brand} ${owner.get(item.brand ?? '') ?? ''} ${item.merchant_name}`.toLowerCase(),
      ).toContain('cola');
    }
    const days = all.rows.map((i) => i.receipt_transaction_date ?? '');
    expect(days).toEqual([...days].sort().reverse());
  });

  it("adds money with up to three decimals exactly, so a total does not depend on the rows' order", () => {
    // 10 + 0.2 + 1.005 added one after the other in floating point is 11.204999999999998 (11.20 in
    // cents); in the other order 11.205 (11.21). The exact sum, 11.205, is 11.21 in either order.
    for (const dates of [
      ['2024-03-01', '2024-02-01', '2024-01-01'],
      ['2024-01-01', '2024-02-01', '2024-03-01'],
    ]) {
      const data = account(1);
      const receipts = dates.map((date, n) => ({ ...data.reportReceipts[n]!, transaction_date: date }));
      const amounts = [10, 0.2, 1.005];
      const items = receipts.map((r, n) => ({
        ...data.reportProductItems[0]!,
        item_id: `${r.receipt_id}~001`,
        receipt_id: r.receipt_id,
        description: ['Bananas', 'Espresso', 'Bananas espresso'][n]!,
        total_price: amounts[n]!,
        currency_code: 'EUR',
        quantity: [1, 0.5, 0.333][n]!,
      }));
      const index = buildReportIndex({ ...data, reportReceipts: receipts, reportProductItems: items });
      for (const q of [undefined, 'a', 'ban', 'espresso']) {
        const page = queryReportIndex(index, { table: 'items', q, pageSize: 1 });
        expect(page, q).toEqual(scanReportIndex(index, { table: 'items', q, pageSize: 1 }));
      }
      const all = queryReportIndex(index, { table: 'items', pageSize: 1 });
      expect(all.totals).toEqual({ EUR: 11.21 });
      expect(all.sums).toEqual({ quantity: 1.833 });
    }
  });

  it('finds an item for its detail screen by id, through its receipt or else by any id', () => {
    const data = account(5);
    const [first, second] = data.reportProductItems;
    const legacy = { ...second!, item_id: 'legacy-item-7' };
    const index = buildReportIndex({ ...data, reportProductItems: [first!, legacy] });
    expect(itemInIndex(index, first!.item_id)?.item).toEqual(first);
    expect(itemInIndex(index, 'legacy-item-7')?.item).toEqual(legacy);
    expect(itemInIndex(index, 'legacy-item-7')?.receipt.receipt_id).toBe(legacy.receipt_id);
    expect(itemInIndex(index, `${first!.receipt_id}~999`)).toBeUndefined();
    expect(itemInIndex(index, 'no-such-item')).toBeUndefined();
  });
});
