import type { Identity } from '../ports';
import {
  DEFAULT_REPORT_PAGE_SIZE,
  type ReportPage,
  type ReportQuery,
  type ReportRows,
  ROW_FILTERS,
  withShopOwners,
  type CorporationReportRow,
} from '../contract/reports';
import { repositories } from '../repository/repositories';
import type { TableStore } from '../table-store';
import { assertOwnUserId } from '../use-cases/context';
import { answersFromFirstPages, pageFromFirstPages } from './first-pages';
import type { PageQuery } from './order';
import { pageOf, queryReportIndex } from './query';
import { receiptHeadsAt } from './receipt-heads';
import { currentState, firstPagesAt, indexAt, rebuildLikely, type ReportDeps } from './report-state';
import { searchWords, summed, type SummaryTable } from './table-rows';
import { brandRowsFromTotals, corporationRowsFromTotals, merchantRowsFromTotals } from './totals-rows';
import { reportTotalsReady } from './totals-update';

/**
 * One page of one of the user's report tables (GET /api/report): sorted, filtered, with money totals
 * per currency and count sums over every row under the filter. The merchants, brands and
 * corporations tables without a filter or search text are served from the user's report
 * totals (one partition of one row per merchant, brand or corporation, kept up to date by every
 * write); the first rows of the receipts and items tables in any order, unfiltered, from the first
 * pages of the user's data version (see first-pages.ts); every other query from the report index.
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
  const state = await currentState(deps, identity.uid);
  const held = deps.reportCache.get(identity.uid)?.index;
  if (held?.version === state.version) return queryReportIndex(held, pageQuery);
  // A first page needs only the first pages, not the whole report (a process that holds none of
  // the user's, or one patched after a write).
  const pages = await firstPagesAt(deps, identity.uid, state, pageQuery);
  const page = pages && pageFromFirstPages(pages, pageQuery);
  if (page) return page;
  // No first pages to use (a bulk import) and the report to be built from all rows: the receipts'
  // first pages are made without the items, long before the whole report.
  const receipts = pageQuery.table === 'receipts' && answersFromFirstPages(pageQuery);
  if (receipts && rebuildLikely(deps.reportCache.get(identity.uid), state)) {
    const heads = pageFromFirstPages(await receiptHeadsAt(deps, identity.uid, state), pageQuery);
    if (heads) return heads;
  }
  return queryReportIndex(await indexAt(deps, identity.uid, state), pageQuery);
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
