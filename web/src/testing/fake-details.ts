import type {
  ItemDetailAnswer,
  ListMerchantsAnswer,
  MerchantDetailAnswer,
  MerchantSummaryAnswer,
  ReceiptDetailAnswer,
} from '@receipts/core/contract/details';
import type { AppData, ReportItem, ReportReceipt } from '@receipts/core/entities';
import type { BrandReportRow, ReportPage } from '@receipts/core/contract/reports';
import type { RecordedCall } from './fake-api';

type Source = AppData | (() => AppData);

const notFound = (what: string) => ({
  status: 404,
  body: { error: 'NotFound', message: `There is no such ${what} among yours.` },
});

function sums(currencies: [string | null, number | null][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [currency, amount] of currencies) {
    if (amount === null) continue;
    const key = currency ?? '';
    out[key] = Math.round(((out[key] ?? 0) + amount) * 100) / 100;
  }
  return out;
}

function merchantSummary(data: AppData, merchantId: string): MerchantSummaryAnswer {
  const receipts = data.reportReceipts.filter((r) => r.merchant_id === merchantId);
  return {
    merchant_id: merchantId,
    merchant: data.reportMerchants.find((m) => m.merchant_id === merchantId) ?? null,
    visits: receipts.length,
    totals_by_currency: sums(receipts.map((r) => [r.currency_code, r.total_amount])),
  };
}

const when = (r: ReportReceipt) => `${r.transaction_date ?? ''} ${r.transaction_time ?? ''}`;

/** One page (all rows, in the server's default order) of the receipts, items or brands report. */
function reportPage(data: AppData, query: Record<string, string>) {
  const page = <T>(table: string, rows: T[], totals: Record<string, number>): ReportPage => ({
    table: table as ReportPage['table'],
    rows: rows as ReportPage['rows'],
    count: rows.length,
    totals,
    sums: {},
    sort: query.sort ?? 'date',
    dir: query.dir === 'asc' ? 'asc' : 'desc',
    pageSize: Number(query.pageSize ?? 25),
    offset: 0,
    nextPageToken: null,
    previousPageToken: null,
    version: data.version,
  });
  const items = data.reportProductItems.filter((i) => !query.brand || i.brand === query.brand);
  if (query.table === 'items') {
    return page<ReportItem>('items', items, sums(items.map((i) => [i.currency_code, i.total_price])));
  }
  if (query.table === 'brands') {
    const rows: BrandReportRow[] = data.brands
      .filter((b) => !query.brand || b.name === query.brand)
      .map((b) => ({
        name: b.name,
        owning_corporation: b.owning_corporation,
        purchases: b.purchases,
        total: b.total,
        currency_code: 'EUR',
        totals_by_currency: b.totals_by_currency ?? { EUR: b.total },
      }));
    return page('brands', rows, {});
  }
  const receipts = data.reportReceipts
    .filter((r) => !query.merchant || r.merchant_id === query.merchant)
    .filter((r) => query.review !== 'needed' || r.needs_review === true)
    .sort((a, b) =>
      query.sort === 'analyzed'
        ? (b.analyzed_at ?? '').localeCompare(a.analyzed_at ?? '')
        : when(b).localeCompare(when(a)),
    );
  return page('receipts', receipts, sums(receipts.map((r) => [r.currency_code, r.total_amount])));
}

/**
 * The detail routes and the report query, answered from report data as the server would (one
 * page of everything under the filter), for the fake /api of the screens' tests.
 */
export function detailRoutes(source: Source) {
  const data = () => (typeof source === 'function' ? source() : source);
  return {
    'GET /api/receiptDetail': ({ query }: RecordedCall) => {
      const d = data();
      const receipt = d.reportReceipts.find((r) => r.receipt_id === query.receiptId);
      if (!receipt) return notFound('receipt');
      const answer: ReceiptDetailAnswer = {
        version: d.version,
        receipt,
        items: d.reportProductItems.filter((i) => i.receipt_id === receipt.receipt_id),
        merchant: merchantSummary(d, receipt.merchant_id),
        duplicate_of: d.reportReceipts.find((r) => r.receipt_id === receipt.possible_duplicate_of) ?? null,
      };
      return answer;
    },
    'GET /api/merchantDetail': ({ query }: RecordedCall) => {
      const d = data();
      const summary = merchantSummary(d, query.merchantId ?? '');
      if (!summary.merchant && summary.visits === 0) return notFound('merchant');
      const answer: MerchantDetailAnswer = { version: d.version, ...summary };
      return answer;
    },
    'GET /api/itemDetail': ({ query }: RecordedCall) => {
      const d = data();
      const item = d.reportProductItems.find((i) => i.item_id === query.itemId);
      const receipt = item && d.reportReceipts.find((r) => r.receipt_id === item.receipt_id);
      if (!item || !receipt) return notFound('item');
      const answer: ItemDetailAnswer = {
        version: d.version,
        item,
        receipt,
        owning_corporation: d.brands.find((b) => b.name === item.brand)?.owning_corporation ?? null,
      };
      return answer;
    },
    'GET /api/listMerchants': () => {
      const answer: ListMerchantsAnswer = data().reportMerchants.map((m) => ({
        merchant_id: m.merchant_id,
        name: m.name,
        city: m.city,
        etag: m.etag ?? null,
      }));
      return answer;
    },
    'GET /api/report': ({ query }: RecordedCall) => reportPage(data(), query),
  };
}
