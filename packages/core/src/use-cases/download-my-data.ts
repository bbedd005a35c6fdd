import { TABLES, type Tax } from '../entities';
import type { Identity } from '../ports';
import { ANALYSIS_SUFFIX, userKeyPrefix } from '../repository/keys';
import { CorrectionRuleStore } from '../repository/correction-rules';
import { ReceiptRepository } from '../repository/receipt-repository';
import { rowToTax, type ItemRow, type MerchantRow, type ReceiptRow } from '../repository/rows';
import { listAllEntities } from '../table-store';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { csvField } from '../reports/csv';

/** One file of a data download: its path inside the archive and its content. */
export interface ExportFile {
  /** e.g. `receipts.json`, `images/1700000000000-receipt.jpg` */
  path: string;
  data: Uint8Array | string;
  /** Whether compressing it is worth it (text); images and PDFs are stored as they are. */
  compress: boolean;
}

/** The caller's data as files, made one at a time as they are read, and the archive's name. */
export interface MyDataExport {
  fileName: string;
  files: AsyncIterable<ExportFile>;
}

type CsvValue = Parameters<typeof csvField>[0];
type Columns<T> = [header: string, value: (row: T) => CsvValue][];

const money = (n: number | null | undefined): CsvValue =>
  n === null || n === undefined ? null : { money: n };
const text = (value: string | null | undefined): CsvValue => value ?? null;
const number = (value: number | null | undefined): CsvValue => value ?? null;

const RECEIPT_COLUMNS: Columns<ReceiptRow> = [
  ['receipt_id', (r) => r.receipt_id],
  ['date', (r) => r.transaction_date],
  ['time', (r) => r.transaction_time],
  ['merchant_id', (r) => r.merchant_id],
  ['merchant', (r) => r.merchant_name],
  ['category', (r) => r.receipt_type],
  ['document_type', (r) => r.doc_type],
  ['region', (r) => r.country_region],
  ['currency', (r) => r.currency_code],
  ['total', (r) => money(r.total_amount)],
  ['tax', (r) => money(r.total_tax)],
  ['total_checks_out', (r) => r.total_checks_out],
  ['needs_review', (r) => r.needs_review ?? false],
  ['file_name', (r) => r.file_name],
  ['analyzed_at', (r) => r.analyzed_at],
];

const ITEM_COLUMNS: Columns<ItemRow> = [
  ['item_id', (i) => i.item_id],
  ['receipt_id', (i) => i.receipt_id],
  ['description', (i) => i.description],
  ['brand', (i) => i.brand],
  ['owning_corporation', (i) => i.owning_corporation],
  ['product_type', (i) => text(i.product_type)],
  ['product_identifier', (i) => text(i.product_identifier)],
  ['quantity', (i) => i.quantity],
  ['unit_price', (i) => money(i.unit_price)],
  ['total_price', (i) => money(i.total_price)],
  ['currency', (i) => i.currency_code],
];

const MERCHANT_COLUMNS: Columns<MerchantRow> = [
  ['merchant_id', (m) => m.merchant_id],
  ['name', (m) => m.name],
  ['street_address', (m) => m.street_address],
  ['city', (m) => m.city],
  ['postal_code', (m) => m.postal_code],
  ['phone_number', (m) => m.phone_number],
  ['owning_corporation', (m) => text(m.owning_corporation)],
];

const TAX_COLUMNS: Columns<Tax> = [
  ['receipt_id', (t) => t.receipt_id],
  ['description', (t) => t.description],
  ['rate', (t) => number(t.rate)],
  ['amount', (t) => money(t.amount)],
  ['currency', (t) => t.currency_code],
];

/**
 * The rows as CSV, written like the report export (GET /api/exportCsv): a UTF-8 byte order mark, a
 * header row and CRLF lines, fields escaped by {@link csvField}.
 */
export function toCsv<T>(columns: Columns<T>, rows: readonly T[]): string {
  let csv = `\uFEFF${columns.map(([header]) => header).join(',')}\r\n`;
  for (const row of rows) csv += `${columns.map(([, value]) => csvField(value(row))).join(',')}\r\n`;
  return csv;
}

/** The row without the store's bookkeeping (etag), as it goes into the JSON files. */
function plain<T extends { etag?: string }>(row: T): Omit<T, 'etag'> {
  const { etag: _etag, ...rest } = row;
  return rest;
}

const README = `Your data from Receipt Tracker

account.json        your profile (e-mail address and name) and when this file was made
receipts.json/.csv  every receipt
items.json/.csv     every line item of those receipts
merchants.json/.csv every merchant (shop) of your receipts
taxes.json/.csv     every tax line of those receipts
scans.json          uploads waiting for analysis or that failed
corrections.json    the rules learnt from your corrections (brands, descriptions, merchant names)
images/             the receipt images and PDFs you uploaded
analysis/           the full analysis of each image, as JSON

The CSV files open in a spreadsheet: dates are ISO (YYYY-MM-DD), amounts have a dot decimal point
and a currency column; amounts in different currencies are never added together.
`;

/**
 * Everything of the caller (GET /api/downloadMyData): profile, receipts, items, merchants and taxes
 * as JSON and CSV, pending or failed scans, and, unless `images` is false, every stored image and
 * analysis JSON. The rows are read before the first file (so an error is still an error answer);
 * the images are read one at a time as the consumer asks for the next file, so they are never all
 * held at once.
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function downloadMyData(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'>,
  identity: Identity,
  input: { userId: string; images: boolean },
): Promise<MyDataExport> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const repo = new ReceiptRepository(deps.store);
  const [user, receipts, merchants, taxRows, queue, rules, blobKeys] = await Promise.all([
    repo.getUser(uid),
    repo.listReceipts(uid),
    repo.listMerchants(uid),
    listAllEntities(deps.store, TABLES.taxes, { partitionKeyPrefix: userKeyPrefix(uid) }),
    repo.listQueue(uid),
    new CorrectionRuleStore(deps.store).list(uid),
    input.images ? deps.blobs.list(`${uid}/`) : Promise.resolve([]),
  ]);
  const items = await repo.listItemsOfReceipts(uid, receipts);
  const taxes = taxRows.map(rowToTax);
  const now = nowOf(deps);
  const account = {
    user_id: uid,
    user_email: user?.user_email || identity.email || '',
    user_name: user?.user_name || identity.name || '',
    exported_at: now.toISOString(),
    counts: {
      receipts: receipts.length,
      items: items.length,
      merchants: merchants.length,
      taxes: taxes.length,
      scans: queue.length,
    },
  };
  deps.logger.info('data download', { userId: uid, ...account.counts, blobs: blobKeys.length });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const { blobs, logger } = deps;
  return {
    fileName: `receipt-tracker-data-${now.toISOString().slice(0, 10)}.zip`,
    files: (async function* () {
      yield { path: 'README.txt', data: README, compress: true };
      yield { path: 'account.json', data: json(account), compress: true };
      yield { path: 'receipts.json', data: json(receipts.map(plain)), compress: true };
      yield { path: 'receipts.csv', data: toCsv(RECEIPT_COLUMNS, receipts), compress: true };
      yield { path: 'items.json', data: json(items), compress: true };
      yield { path: 'items.csv', data: toCsv(ITEM_COLUMNS, items), compress: true };
      yield { path: 'merchants.json', data: json(merchants.map(plain)), compress: true };
      yield { path: 'merchants.csv', data: toCsv(MERCHANT_COLUMNS, merchants), compress: true };
      yield { path: 'taxes.json', data: json(taxes), compress: true };
      yield { path: 'taxes.csv', data: toCsv(TAX_COLUMNS, taxes), compress: true };
      yield { path: 'scans.json', data: json(queue), compress: true };
      yield { path: 'corrections.json', data: json(rules), compress: true };
      for (const key of blobKeys) {
        const name = key.slice(uid.length + 1);
        const blob = await blobs.get(key);
        // Deleted since the listing (the person removed a receipt meanwhile): nothing to add.
        if (!blob) {
          logger.debug('data download: blob gone', { userId: uid, key });
          continue;
        }
        const analysis = name.endsWith(ANALYSIS_SUFFIX);
        yield {
          path: analysis ? `analysis/${name}` : `images/${name}`,
          data: blob.bytes,
          compress: analysis,
        };
      }
    })(),
  };
}
