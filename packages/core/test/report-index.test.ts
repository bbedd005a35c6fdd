import { describe, expect, it } from 'vitest';
import {
  ValidationError,
  buildAppData,
  buildReportIndex,
  queryReportIndex,
  sortedRows,
  type ItemRow,
  type PageQuery,
  type ReceiptRow,
  type ReportIndex,
} from '../src';
import type { ReportTable } from '../src/contract/reports';
import { merchantRow } from './support/report-rows';

/**
 * The report index behind GET /api/report and the CSV export: the order of every table (ties broken
 * so pages never overlap), the filters, search text normalised like names, totals kept per currency,
 * and page tokens that only fit the query they were given for.
 */

const receipt = (id: string, over: Partial<ReceiptRow>): ReceiptRow => ({
  receipt_id: `u~${id}`,
  doc_type: 'receipt',
  receipt_type: 'grocery',
  country_region: 'BE',
  merchant_id: 'm-delhaize',
  merchant_name: 'Delhaize',
  total_amount: 10,
  currency_code: 'EUR',
  total_tax: null,
  transaction_date: '2024-01-01',
  transaction_time: '10:00:00',
  user_id: 'u',
  document_url: `blob://u/${id}`,
  total_checks_out: true,
  file_name: id,
  analyzed_at: '',
  ...over,
});

let itemNumber = 0;
const item = (receiptId: string, over: Partial<ItemRow>): ItemRow => ({
  item_id: `u~${receiptId}~${(itemNumber += 1)}`,
  receipt_id: `u~${receiptId}`,
  description: 'thing',
  unit_price: 1,
  quantity: 1,
  total_price: 1,
  currency_code: 'EUR',
  user_id: 'u',
  brand: null,
  owning_corporation: null,
  ...over,
});

/**
 * Six receipts in three shops and two currencies (plus one without a currency and one without a date);
 * two receipts share a total of 10 to test ties.
 */
function sample(): ReportIndex {
  return buildReportIndex(sampleData());
}

function sampleData() {
  return buildAppData({
    version: 'v7',
    merchants: [
      merchantRow('m-delhaize', 'Delhaize', 'Ixelles'),
      merchantRow('m-tesco', 'Tesco Metro', 'London'),
      merchantRow('m-cafe', 'Café Élysée', 'Paris'),
    ],
    receipts: [
      receipt('a.jpg', { transaction_date: '2024-01-05', total_amount: 10 }),
      receipt('b.jpg', { transaction_date: '2024-02-10', total_amount: 10 }),
      receipt('c.jpg', {
        merchant_id: 'm-tesco',
        merchant_name: 'Tesco Metro',
        transaction_date: '2024-03-01',
        total_amount: 3.6,
        currency_code: 'GBP',
        needs_review: true,
        review_reasons: ['no_date'],
      }),
      receipt('d.jpg', {
        merchant_id: 'm-cafe',
        merchant_name: 'Café Élysée',
        receipt_type: 'Restaurant',
        transaction_date: '2024-04-20',
        total_amount: 0.1,
      }),
      receipt('e.jpg', {
        merchant_id: 'm-cafe',
        merchant_name: 'Café Élysée',
        receipt_type: 'restaurant',
        transaction_date: '2024-05-02',
        total_amount: 0.2,
      }),
      receipt('f.jpg', { transaction_date: null, total_amount: 4, currency_code: null }),
    ],
    items: [
      item('a.jpg', {
        description: 'COCA-COLA ZERO',
        total_price: 2.5,
        brand: 'Coca-Cola',
        owning_corporation: 'The Coca-Cola Company',
      }),
      item('a.jpg', {
        description: 'SPECULOOS',
        total_price: 7.5,
        brand: 'Lotus',
        owning_corporation: 'Lotus Bakeries',
      }),
      item('b.jpg', {
        description: 'FANTA ORANGE',
        total_price: 10,
        quantity: 4,
        brand: 'Fanta',
        owning_corporation: 'The Coca-Cola Company',
      }),
      item('c.jpg', {
        description: 'HEINZ BEANS',
        total_price: 3.6,
        quantity: 3,
        currency_code: 'GBP',
        brand: 'Heinz',
        owning_corporation: 'Kraft Heinz',
      }),
      item('d.jpg', { description: 'Crème brûlée', total_price: 0.1 }),
      item('e.jpg', { description: 'Espresso', total_price: 0.2 }),
    ],
  });
}

const index = sample();

function page<T extends ReportTable>(query: Partial<PageQuery<T>> & { table: T }) {
  return queryReportIndex(index, { pageSize: 25, ...query });
}
const fileNames = (rows: { receipt_id: string }[]) => rows.map((r) => r.receipt_id.replace(/^u~/, ''));

function validationCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.code;
    throw error;
  }
  return undefined;
}

describe('report index order', () => {
  it('lists receipts newest first by default, undated ones last', () => {
    const first = page({ table: 'receipts' });
    expect(first.sort).toBe('date');
    expect(first.dir).toBe('desc');
    expect(fileNames(first.rows)).toEqual(['e.jpg', 'd.jpg', 'c.jpg', 'b.jpg', 'a.jpg', 'f.jpg']);
  });

  it('sorts by total both ways, breaking ties by id so the order is one order', () => {
    const up = page({ table: 'receipts', sort: 'total', dir: 'asc' });
    expect(fileNames(up.rows)).toEqual(['d.jpg', 'e.jpg', 'c.jpg', 'f.jpg', 'a.jpg', 'b.jpg']);
    const down = page({ table: 'receipts', sort: 'total', dir: 'desc' });
    expect(fileNames(down.rows)).toEqual(['b.jpg', 'a.jpg', 'f.jpg', 'c.jpg', 'e.jpg', 'd.jpg']);
  });

  it('sorts receipts by when they were analysed (the review list: newest analysis first), then by date', () => {
    const analysed = buildReportIndex(
      buildAppData({
        version: 'v1',
        merchants: [merchantRow('m-delhaize', 'Delhaize', 'Ixelles')],
        receipts: [
          receipt('old.jpg', { analyzed_at: '2024-05-01T10:00:00Z', transaction_date: '2024-04-30' }),
          receipt('new.jpg', { analyzed_at: '2024-05-03T10:00:00Z', transaction_date: '2024-01-01' }),
          receipt('tie-early.jpg', { analyzed_at: '2024-05-02T10:00:00Z', transaction_date: '2024-02-01' }),
          receipt('tie-late.jpg', { analyzed_at: '2024-05-02T10:00:00Z', transaction_date: '2024-03-01' }),
        ],
        items: [],
      }),
    );
    const newest = queryReportIndex(analysed, {
      table: 'receipts',
      sort: 'analyzed',
      dir: 'desc',
      pageSize: 25,
    });
    expect(fileNames(newest.rows)).toEqual(['new.jpg', 'tie-late.jpg', 'tie-early.jpg', 'old.jpg']);
  });

  it('sorts text columns ignoring case (category "Restaurant" beside "restaurant")', () => {
    const rows = page({ table: 'receipts', sort: 'category', dir: 'asc' }).rows;
    expect(rows.map((r) => r.receipt_type)).toEqual([
      'grocery',
      'grocery',
      'grocery',
      'grocery',
      'Restaurant',
      'restaurant',
    ]);
  });

  it('pages through every row exactly once, in the order of the whole table, at any page size', () => {
    for (const table of ['receipts', 'items', 'merchants', 'brands', 'corporations'] as const) {
      for (const sort of ['total', 'name', 'date']) {
        let all: unknown[];
        try {
          all = sortedRows(index, { table, sort, dir: 'asc' });
        } catch {
          continue; // not a column of this table
        }
        for (const pageSize of [1, 2, 4]) {
          const seen: unknown[] = [];
          let token: string | undefined;
          for (;;) {
            const p = queryReportIndex(index, { table, sort, dir: 'asc', pageSize, pageToken: token });
            expect(p.count).toBe(all.length);
            expect(p.offset).toBe(seen.length);
            seen.push(...p.rows);
            if (!p.nextPageToken) break;
            token = p.nextPageToken;
          }
          expect(seen).toEqual(all);
        }
      }
    }
  });

  it('answers a query asked again (its rows kept with the index) as a fresh index does', () => {
    const data = sampleData();
    const kept = buildReportIndex(data);
    const queries: PageQuery[] = [
      { table: 'receipts', pageSize: 25 },
      { table: 'items', q: 'cola', pageSize: 25 },
      { table: 'receipts', sort: 'total', dir: 'desc', pageSize: 2 },
      { table: 'items', sort: 'total', dir: 'asc', pageSize: 1 },
      { table: 'brands', pageSize: 25 },
    ];
    for (let round = 0; round < 3; round++) {
      for (const query of queries)
        expect(queryReportIndex(kept, query)).toEqual(queryReportIndex(buildReportIndex(data), query));
    }
  });

  it('orders merchants by last visit, corporations and brands by total, by default', () => {
    expect(page({ table: 'merchants' }).rows.map((m) => [m.name, m.visits, m.last_visit])).toEqual([
      ['Café Élysée', 2, '2024-05-02'],
      ['Tesco Metro', 1, '2024-03-01'],
      ['Delhaize', 3, '2024-02-10'],
    ]);
    expect(page({ table: 'corporations' }).rows.map((c) => [c.name, c.brands, c.total])).toEqual([
      ['The Coca-Cola Company', ['Coca-Cola', 'Fanta'], 12.5],
      ['Lotus Bakeries', ['Lotus'], 7.5],
      ['Kraft Heinz', ['Heinz'], 3.6],
    ]);
    expect(page({ table: 'brands' }).rows.map((b) => b.name)).toEqual([
      'Fanta',
      'Lotus',
      'Heinz',
      'Coca-Cola',
    ]);
  });

  it('refuses a sort column the table does not have', () => {
    expect(validationCode(() => page({ table: 'merchants', sort: 'brand' }))).toBe('InvalidSort');
    expect(validationCode(() => sortedRows(index, { table: 'items', sort: 'visits' }))).toBe('InvalidSort');
  });
});

describe('report index filters', () => {
  it('keeps receipts dated within from and to, both days included; an undated one only without a date filter', () => {
    expect(fileNames(page({ table: 'receipts', from: '2024-02-10', to: '2024-04-20' }).rows)).toEqual([
      'd.jpg',
      'c.jpg',
      'b.jpg',
    ]);
    expect(fileNames(page({ table: 'receipts', to: '2024-01-31' }).rows)).toEqual(['a.jpg']);
  });

  it('keeps only the receipts that need review, and counts them, for the review filter', () => {
    const flagged = page({ table: 'receipts', review: 'needed', pageSize: 1 });
    expect(fileNames(flagged.rows)).toEqual(['c.jpg']);
    expect(flagged.count).toBe(1);
    expect(page({ table: 'receipts' }).count).toBeGreaterThan(1);
  });

  it('filters by currency, category (case ignored) and merchant id', () => {
    expect(fileNames(page({ table: 'receipts', currency: 'GBP' }).rows)).toEqual(['c.jpg']);
    expect(fileNames(page({ table: 'receipts', category: 'RESTAURANT' }).rows)).toEqual(['e.jpg', 'd.jpg']);
    expect(fileNames(page({ table: 'receipts', merchant: 'm-delhaize' }).rows)).toEqual([
      'b.jpg',
      'a.jpg',
      'f.jpg',
    ]);
  });

  it('filters receipts by brand and corporation through their items, and items by their own brand', () => {
    expect(fileNames(page({ table: 'receipts', brand: 'Lotus' }).rows)).toEqual(['a.jpg']);
    expect(fileNames(page({ table: 'receipts', corporation: 'The Coca-Cola Company' }).rows)).toEqual([
      'b.jpg',
      'a.jpg',
    ]);
    expect(page({ table: 'items', brand: 'Lotus' }).rows.map((i) => i.description)).toEqual(['SPECULOOS']);
    expect(
      page({ table: 'brands', corporation: 'The Coca-Cola Company', sort: 'name', dir: 'asc' }).rows.map(
        (b) => b.name,
      ),
    ).toEqual(['Coca-Cola', 'Fanta']);
  });

  it('sums merchants over the filtered receipts only', () => {
    const rows = page({ table: 'merchants', from: '2024-02-01', sort: 'name', dir: 'asc' }).rows;
    expect(rows.map((m) => [m.name, m.visits, m.first_visit, m.total])).toEqual([
      ['Café Élysée', 2, '2024-04-20', 0.3],
      ['Delhaize', 1, '2024-02-10', 10],
      ['Tesco Metro', 1, '2024-03-01', 3.6],
    ]);
  });
});

describe('report index search', () => {
  const search = (q: string) => fileNames(page({ table: 'receipts', q }).rows);

  it('finds a receipt by merchant, item description, brand or brand owner, ignoring case, accents and punctuation', () => {
    expect(search('tesco')).toEqual(['c.jpg']);
    expect(search('ELYSEE')).toEqual(['e.jpg', 'd.jpg']);
    expect(search('creme brulee')).toEqual(['d.jpg']);
    expect(search('speculoos')).toEqual(['a.jpg']);
    expect(search('heinz')).toEqual(['c.jpg']);
    // The Coca-Cola brand on one, Fanta (owned by The Coca-Cola Company) on the other.
    expect(search('Coca—Cola!')).toEqual(['b.jpg', 'a.jpg']);
    expect(search('coca cola zero')).toEqual(['a.jpg']);
    expect(search('london')).toEqual(['c.jpg']);
    expect(search('fanta')).toEqual(['b.jpg']);
  });

  it('needs every word, anywhere on the receipt; finds nothing for a word on no receipt', () => {
    expect(search('delhaize lotus')).toEqual(['a.jpg']);
    expect(search('tesco lotus')).toEqual([]);
    expect(search('  ')).toHaveLength(6);
  });

  it('matches an item by its own text and its merchant, not by the other items of its receipt', () => {
    const items = (q: string) => page({ table: 'items', q }).rows.map((i) => i.description);
    expect(items('speculoos')).toEqual(['SPECULOOS']);
    expect(items('delhaize fanta')).toEqual(['FANTA ORANGE']);
    expect(items('coca speculoos')).toEqual([]);
  });

  it('means the same in every table: the rows of the receipts and items the words find', () => {
    // "speculoos" is an item of a Delhaize receipt: every table shows what that receipt holds.
    expect(fileNames(page({ table: 'receipts', q: 'speculoos' }).rows)).toEqual(['a.jpg']);
    expect(page({ table: 'items', q: 'speculoos' }).rows.map((i) => i.description)).toEqual(['SPECULOOS']);
    const merchants = page({ table: 'merchants', q: 'speculoos' });
    expect(merchants.rows.map((m) => [m.name, m.visits])).toEqual([['Delhaize', 1]]);
    // Summed over the receipts found, not all of the merchant's.
    expect(merchants.totals).toEqual(page({ table: 'receipts', q: 'speculoos' }).totals);
    expect(page({ table: 'brands', q: 'speculoos' }).rows.map((b) => b.name)).toEqual(['Lotus']);
    expect(page({ table: 'corporations', q: 'speculoos' }).rows.map((c) => c.name)).toEqual([
      'Lotus Bakeries',
    ]);
    // A shop's name finds its receipts, its items, and the brands bought there.
    expect(page({ table: 'merchants', q: 'delhaize' }).rows.map((m) => m.name)).toEqual(['Delhaize']);
    expect(
      page({ table: 'brands', q: 'delhaize' })
        .rows.map((b) => b.name)
        .sort(),
    ).toEqual(['Coca-Cola', 'Fanta', 'Lotus']);
    // A word on no receipt: every table is empty.
    for (const table of ['receipts', 'items', 'merchants', 'brands', 'corporations'] as const) {
      expect(page({ table, q: 'nothing like this' }).count).toBe(0);
    }
  });

  it('matches merchants by name or city, brands by name or corporation', () => {
    expect(page({ table: 'merchants', q: 'london' }).rows.map((m) => m.name)).toEqual(['Tesco Metro']);
    expect(
      page({ table: 'brands', q: 'coca cola company' })
        .rows.map((b) => b.name)
        .sort(),
    ).toEqual(['Coca-Cola', 'Fanta']);
  });
});

describe('report index totals', () => {
  it('keeps money per currency over the whole filtered set, not the page, rounded to cents', () => {
    const first = page({ table: 'receipts', pageSize: 1 });
    expect(first.rows).toHaveLength(1);
    expect(first.count).toBe(6);
    // 10 + 10 + 0.1 + 0.2 is 20.3 (not 20.300000000000001); the receipt without a currency apart.
    expect(first.totals).toEqual({ '': 4, EUR: 20.3, GBP: 3.6 });
    expect(page({ table: 'receipts', currency: 'EUR', q: 'elysee' }).totals).toEqual({ EUR: 0.3 });
  });

  it('sums quantities, visits, purchases and brands of the filtered rows', () => {
    expect(page({ table: 'items' }).sums).toEqual({ quantity: 11 });
    expect(page({ table: 'items' }).totals).toEqual({ EUR: 20.3, GBP: 3.6 });
    expect(page({ table: 'merchants' }).sums).toEqual({ visits: 6 });
    expect(page({ table: 'brands' }).sums).toEqual({ purchases: 4 });
    expect(page({ table: 'corporations' }).sums).toEqual({ purchases: 4, brands: 4 });
    expect(page({ table: 'corporations', currency: 'GBP' }).totals).toEqual({ GBP: 3.6 });
  });

  it('answers an empty page with zero counts and no totals when nothing matches', () => {
    const none = page({ table: 'receipts', q: 'nothing like this' });
    expect(none).toMatchObject({
      rows: [],
      count: 0,
      totals: {},
      nextPageToken: null,
      previousPageToken: null,
    });
  });
});

describe('report index page tokens', () => {
  it('gives a next token until the last page and a previous token after the first', () => {
    const first = page({ table: 'receipts', pageSize: 4 });
    expect(first.previousPageToken).toBeNull();
    const second = page({ table: 'receipts', pageSize: 4, pageToken: first.nextPageToken! });
    expect(fileNames(second.rows)).toEqual(['a.jpg', 'f.jpg']);
    expect(second.nextPageToken).toBeNull();
    const back = page({ table: 'receipts', pageSize: 4, pageToken: second.previousPageToken! });
    expect(back.rows).toEqual(first.rows);
    expect(first.version).toBe('v7');
  });

  it('refuses a token given for another filter, order, search or table', () => {
    const token = page({ table: 'receipts', pageSize: 2, currency: 'EUR' }).nextPageToken!;
    expect(page({ table: 'receipts', pageSize: 2, currency: 'EUR', pageToken: token }).offset).toBe(2);
    const stale = (query: Partial<PageQuery>) =>
      validationCode(() =>
        page({ table: 'receipts', pageSize: 2, currency: 'EUR', ...query, pageToken: token }),
      );
    expect(stale({ currency: 'GBP' })).toBe('StalePageToken');
    expect(stale({ sort: 'total' })).toBe('StalePageToken');
    expect(stale({ dir: 'asc' })).toBe('StalePageToken');
    expect(stale({ q: 'delhaize' })).toBe('StalePageToken');
    expect(stale({ from: '2024-01-01' })).toBe('StalePageToken');
    expect(stale({ table: 'items' })).toBe('StalePageToken');
  });

  it('keeps a token for the same query whatever the page size, and refuses a malformed one', () => {
    const token = page({ table: 'items', pageSize: 2 }).nextPageToken!;
    expect(page({ table: 'items', pageSize: 3, pageToken: token }).offset).toBe(2);
    expect(validationCode(() => page({ table: 'items', pageToken: 'zzzz' }))).toBe('InvalidPageToken');
    expect(validationCode(() => page({ table: 'items', pageToken: `-1.${token.split('.')[1]}` }))).toBe(
      'InvalidPageToken',
    );
  });
});
