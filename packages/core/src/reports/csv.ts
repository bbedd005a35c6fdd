import { csvField, type CsvValue } from '../csv';
import type { Identity } from '../ports';
import type { ExportCsvQuery, ExportTable, ReportRows } from '../contract/reports';
import type { AppDeps } from '../use-cases/context';
import { sortedRows } from './table-rows';
import { ownReportIndex } from './report-state';

/** Rows written per chunk of a CSV export. */
const CSV_CHUNK_ROWS = 500;

const CSV_COLUMNS: { [T in ExportTable]: [header: string, value: (row: ReportRows[T]) => CsvValue][] } = {
  receipts: [
    ['receipt_id', (r) => r.receipt_id],
    ['date', (r) => r.transaction_date],
    ['time', (r) => r.transaction_time],
    ['merchant', (r) => r.merchant_name],
    ['category', (r) => r.receipt_type],
    ['document_type', (r) => r.doc_type],
    ['region', (r) => r.country_region],
    ['currency', (r) => r.currency_code],
    ['total', (r) => money(r.total_amount)],
    ['tax', (r) => money(r.total_tax)],
    ['total_checks_out', (r) => r.total_checks_out],
  ],
  items: [
    ['item_id', (i) => i.item_id],
    ['receipt_id', (i) => i.receipt_id],
    ['date', (i) => i.receipt_transaction_date],
    ['merchant', (i) => i.merchant_name],
    ['description', (i) => i.description],
    ['brand', (i) => i.brand],
    ['quantity', (i) => i.quantity],
    ['unit_price', (i) => money(i.unit_price)],
    ['total_price', (i) => money(i.total_price)],
    ['currency', (i) => i.currency_code],
  ],
};

const money = (n: number | null): CsvValue => (n === null ? null : { money: n });

/** The file name of an export, e.g. `receipts-2024-05-31.csv`. */
export function exportFileName(table: ExportTable, now: Date): string {
  return `${table}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The receipts or items under the filter as CSV (GET /api/exportCsv): a header row, ISO dates, dot
 * decimals and a currency column, in CRLF lines after a UTF-8 byte order mark (so spreadsheets read
 * accents right). Yields the text in chunks of {@link CSV_CHUNK_ROWS} rows, so the whole file is
 * never held as one string; the user is checked and the data read before the first chunk.
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function exportReportCsv(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache'>,
  identity: Identity,
  input: ExportCsvQuery,
): Promise<AsyncIterable<string>> {
  const index = await ownReportIndex(deps, identity, input.userId);
  const { userId: _userId, ...query } = input;
  const rows = sortedRows(index, query);
  const columns = CSV_COLUMNS[input.table] as [string, (row: unknown) => CsvValue][];
  return (async function* () {
    yield `\uFEFF${columns.map(([header]) => header).join(',')}\r\n`;
    for (let start = 0; start < rows.length; start += CSV_CHUNK_ROWS) {
      let chunk = '';
      for (const row of rows.slice(start, start + CSV_CHUNK_ROWS)) {
        chunk += `${columns.map(([, value]) => csvField(value(row))).join(',')}\r\n`;
      }
      yield chunk;
    }
  })();
}
