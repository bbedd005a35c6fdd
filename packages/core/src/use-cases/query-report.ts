import type { Identity } from '../ports';
import {
  DEFAULT_REPORT_PAGE_SIZE,
  type ExportCsvQuery,
  type ExportTable,
  type ReportPage,
  type ReportQuery,
  type ReportRows,
  ROW_FILTERS,
  withShopOwners,
  type CorporationReportRow,
} from '../contract/reports';
import {
  buildReportIndex,
  pageOf,
  queryReportIndex,
  searchWords,
  sortedRows,
  summed,
  type PageQuery,
  type ReportIndex,
  type SummaryTable,
} from '../repository/report-index';
import {
  brandRowsFromTotals,
  corporationRowsFromTotals,
  merchantRowsFromTotals,
  reportTotalsReady,
} from '../repository/report-totals';
import { csvField, type CsvValue } from '../csv';
import { repositories } from '../repository/repositories';
import type { TableStore } from '../table-store';
import { withStaleWritesFinished } from './commit-write';
import { assertOwnUserId, type AppDeps } from './context';
import { appDataAt, clearHeldAppData, forgetHeldAppData } from './get-app-data';

type ReportDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger'>;

/** Users whose report index a process keeps (most recently used first out). */
const MAX_CACHED_INDEXES = 8;

/**
 * Report indexes of recently served users, keyed by user id and tagged with the data version they
 * were built from. A Map keeps insertion order, which serves as the least-recently-used order.
 */
const indexes = new Map<string, ReportIndex>();

/**
 * Forgets every report index and report data this process holds (tests and benchmarks measure the
 * cold path with it).
 */
export function clearReportIndexes(): void {
  indexes.clear();
  clearHeldAppData();
}

/** Forgets one user's report index and report data held by this process (their account was deleted). */
export function forgetReportIndex(userId: string): void {
  indexes.delete(userId);
  forgetHeldAppData(userId);
}

/**
 * The user's report index for their current data version. Costs one point read (the user's data
 * version) when this process has the index of that version. Otherwise the report data this process
 * holds, or else the cached one (one blob read), is brought up to date by reading the receipts and
 * merchants written since (see getAppData's appDataAt), and rebuilt from all of the user's rows only
 * when what changed is not known.
 */
export async function reportIndexOf(deps: ReportDeps, userId: string): Promise<ReportIndex> {
  const state = await withStaleWritesFinished(
    deps,
    userId,
    await repositories(deps.store).users.getDataState(userId),
  );
  const known = indexes.get(userId);
  if (known && known.version === state.version) {
    indexes.delete(userId);
    indexes.set(userId, known);
    return known;
  }
  const key = `${userId}\n${state.version}`;
  let pending = building.get(key);
  if (!pending) {
    pending = appDataAt(deps, userId, state)
      .then((data) => {
        const index = buildReportIndex(data);
        indexes.delete(userId);
        indexes.set(userId, index);
        while (indexes.size > MAX_CACHED_INDEXES) indexes.delete(indexes.keys().next().value!);
        return index;
      })
      .finally(() => building.delete(key));
    building.set(key, pending);
  }
  return pending;
}

/**
 * The caller's report index, once `userId` is checked to be theirs (the report and detail routes).
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function ownReportIndex(
  deps: ReportDeps,
  identity: Identity,
  userId: string,
): Promise<ReportIndex> {
  assertOwnUserId(identity, userId);
  return reportIndexOf(deps, identity.uid);
}

/** Index builds in progress, by user and data version: requests arriving together share one. */
const building = new Map<string, Promise<ReportIndex>>();

/**
 * One page of one of the user's report tables (GET /api/report): sorted, filtered, with money totals
 * per currency and count sums over every row under the filter. The merchants, brands and
 * corporations tables without a filter or search text are served from the user's report
 * totals (one partition of one row per merchant, brand or corporation, kept up to date by every
 * write); every other query from the report index of the user's data version.
 * @throws ForbiddenError when `userId` is not the caller's; ValidationError for a bad page token
 */
export async function queryReport(
  deps: ReportDeps,
  identity: Identity,
  input: ReportQuery,
): Promise<ReportPage> {
  assertOwnUserId(identity, input.userId);
  const { userId: _userId, pageSize, ...query } = input;
  const pageQuery = { ...query, pageSize: pageSize ?? DEFAULT_REPORT_PAGE_SIZE };
  if (servedByTotals(pageQuery)) {
    const page = await pageFromTotals(deps.store, identity.uid, pageQuery);
    if (page) return page;
  }
  const index = await reportIndexOf(deps, identity.uid);
  return queryReportIndex(index, pageQuery);
}

function servedByTotals(query: PageQuery): query is PageQuery<SummaryTable> {
  const summary = query.table === 'merchants' || query.table === 'brands' || query.table === 'corporations';
  // A search selects receipts and items (see `q`): only the report index has them.
  return summary && !query.q && ROW_FILTERS.every((name) => query[name] === undefined);
}

const TOTALS_ROWS = {
  merchants: merchantRowsFromTotals,
  brands: brandRowsFromTotals,
  corporations: corporationsWithShops,
};

/** The corporations' rows from the totals, with what each got through its shops (see withShopOwners). */
async function corporationsWithShops(
  store: TableStore,
  userId: string,
): Promise<CorporationReportRow[] | null> {
  const [corporations, merchants] = await Promise.all([
    corporationRowsFromTotals(store, userId),
    merchantRowsFromTotals(store, userId),
  ]);
  return corporations && merchants ? withShopOwners(corporations, merchants) : null;
}

/**
 * A page of the merchants, brands or corporations table from the user's report totals: their data
 * version, the totals' ready marker and the table's partition of totals (plus the merchants
 * partition for names and cities) are read at once. Null when the totals are not ready (the user
 * has written nothing since totals exist, or an update failed), so the report index serves.
 */
async function pageFromTotals<T extends SummaryTable>(
  store: TableStore,
  userId: string,
  query: PageQuery<T>,
): Promise<ReportPage<T> | null> {
  const [ready, version, rows] = await Promise.all([
    reportTotalsReady(store, userId),
    repositories(store).users.getDataVersion(userId),
    TOTALS_ROWS[query.table](store, userId),
  ]);
  // Totals of another layout, or aggregates rebuilt by code of another layout: the report index serves.
  if (!ready || !rows) return null;
  return pageOf(query, version, (q) => ({
    summed: summed(q.table, rows as ReportRows[T][], searchWords(q.q)),
    sorted: false,
  }));
}

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
  deps: ReportDeps,
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
