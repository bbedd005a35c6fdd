/**
 * Report index benchmark (`npm run bench:report-index`), printed figures, in one process without a
 * store: the index built from a user's report data (as after every write), the first search of an
 * index (which makes its search dictionary), and the first ask of the receipts and items first pages
 * and of searches, at BENCH_SIZES (default "1000,10000") receipts of 10 items, for two accounts:
 * "repeated" (40 shops, each receipt one of 40 baskets, as `npm run bench:reports` seeds) and
 * "diverse" (40 shops, each receipt 10 products drawn from 2,000, so nearly every basket differs).
 */
import {
  buildAppData,
  buildReportIndex,
  queryReportIndex,
  type ItemRow,
  type MerchantRow,
  type PageQuery,
  type ReceiptRow,
  type ReportIndex,
} from '@receipts/core';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const SAMPLES = 15;
const BRANDS = ['Coca-Cola', 'Heinz', 'Dove', 'Nescafé', 'Milo', 'Colgate', 'Cadbury', "Kellogg's"];
const WORDS = ['heinz', 'shop 7', 'product 3', 'nescafe', 'colgate product', 'zzz'];

/** A user's report data: `count` receipts of 10 items; `product(r, i)` names item i of receipt r. */
function account(count: number, product: (r: number, i: number) => number) {
  const merchants: MerchantRow[] = Array.from({ length: 40 }, (_, m) => ({
    merchant_id: `m${m}`,
    name: `Shop ${m} of u`,
    phone_number: null,
    postal_code: null,
    city: 'Brussels',
    street_address: null,
    user_id: 'u',
    owning_corporation: null,
    name_key: `shop ${m} of u`,
  }));
  const receipts: ReceiptRow[] = [];
  const items: ItemRow[] = [];
  for (let r = 0; r < count; r++) {
    const id = `u~${1700000000000 + r}-receipt.jpg`;
    const currency = r % 10 === 0 ? 'GBP' : 'EUR';
    receipts.push({
      receipt_id: id,
      doc_type: 'receipt',
      receipt_type: 'grocery',
      country_region: 'BE',
      merchant_id: `m${r % 40}`,
      merchant_name: `Shop ${r % 40} of u`,
      total_amount: 50,
      currency_code: currency,
      total_tax: null,
      transaction_date: `2024-${String(1 + (r % 12)).padStart(2, '0')}-${String(1 + (r % 28)).padStart(2, '0')}`,
      transaction_time: '12:00:00',
      user_id: 'u',
      document_url: '',
      total_checks_out: true,
      file_name: '',
      analyzed_at: '',
    });
    for (let i = 0; i < 10; i++) {
      const p = product(r, i);
      const brand = BRANDS[p % BRANDS.length]!;
      items.push({
        item_id: `${id}~${String(i + 1).padStart(3, '0')}`,
        receipt_id: id,
        description: `${brand.toUpperCase()} PRODUCT ${p}`,
        unit_price: 1.25 + i,
        quantity: 1,
        total_price: 1.25 + i,
        currency_code: currency,
        user_id: 'u',
        brand,
        owning_corporation: null,
      });
    }
  }
  return buildAppData({ version: 'v', receipts, merchants, items });
}

const ACCOUNTS: [string, (r: number, i: number) => number][] = [
  // Brand (r + i) % 8 and product number i: the same 40 baskets over and over.
  ['repeated', (r, i) => ((r + i) % 8) + 8 * i],
  // A product from 2,000, spread by a hash of the receipt and line.
  ['diverse', (r, i) => (Math.imul(r * 10 + i, 2654435761) >>> 0) % 2000],
];

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (n: number) => `${n < 1 ? n.toFixed(3) : n.toFixed(1)} ms`;

function firstAsk(index: ReportIndex, queries: PageQuery[]): number {
  const runs: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    index.results.clear();
    const t = performance.now();
    queryReportIndex(index, queries[i % queries.length]!);
    runs.push(performance.now() - t);
  }
  return p50(runs);
}

for (const [name, product] of ACCOUNTS) {
  console.log(`\n## ${name} account`);
  for (const size of SIZES) {
    const data = account(size, product);
    const builds: number[] = [];
    const firstSearches: number[] = [];
    let index = buildReportIndex(data);
    for (let i = 0; i < SAMPLES; i++) {
      let t = performance.now();
      index = buildReportIndex(data);
      builds.push(performance.now() - t);
      t = performance.now();
      queryReportIndex(index, { table: 'items', q: 'heinz', pageSize: 25 });
      firstSearches.push(performance.now() - t);
    }
    console.log(`\n### ${size} receipts × 10 items (${index.texts.length} distinct texts)`);
    const figures: [string, number][] = [
      ['index built (after every write) p50', p50(builds)],
      ['first search of an index (dictionary made) p50', p50(firstSearches)],
      ['receipts first page p50', firstAsk(index, [{ table: 'receipts', pageSize: 25 }])],
      ['items first page p50', firstAsk(index, [{ table: 'items', pageSize: 25 }])],
      [
        'search, receipts p50',
        firstAsk(
          index,
          WORDS.map((q) => ({ table: 'receipts', q, pageSize: 25 })),
        ),
      ],
      [
        'search, items p50',
        firstAsk(
          index,
          WORDS.map((q) => ({ table: 'items', q, pageSize: 25 })),
        ),
      ],
    ];
    for (const [label, value] of figures) console.log(`${label.padEnd(50)} ${ms(value)}`);
  }
}
