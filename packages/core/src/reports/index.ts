export { buildAppData, patchAppData, type AppDataPatch } from './app-data-build';
export { afterReceiptWrites } from './after-receipt-writes';
export { exportFileName, exportReportCsv } from './csv';
export { dashboardOf, periodRanges } from './dashboard';
export {
  answersFromFirstPages,
  FIRST_ROWS,
  firstPagesOf,
  pageFromFirstPages,
  type FirstPages,
} from './first-pages';
export { appDataAt, getAppData, getAppDataJson } from './get-app-data';
export { getDashboard } from './get-dashboard';
export {
  buildReportIndex,
  itemInIndex,
  receiptInIndex,
  type Ordered,
  type ReportIndex,
  type Selected,
} from './index-build';
export { orderOf, pageTokenFor, type PageQuery } from './order';
export { patchFirstPages, sharePartsOf, type PagesChange } from './patch-pages';
export { partOf, SHARE_PARTS, type Share, type SharesHead, type SharesPart } from './share-parts';
export { pageOf, queryReportIndex, scanReportIndex } from './query';
export { queryReport } from './query-report';
export { createReportCache, DEFAULT_CACHED_USERS, type HeldReports, type ReportsCache } from './report-cache';
export { ownReportIndex, refreshAppDataCache, reportIndexOf } from './report-state';
export { searchWords, sortedRows, summed, type SummaryTable } from './table-rows';
export {
  deleteReportTotals,
  invalidateReportTotals,
  rebuildReportTotals,
  recordReceiptWrites,
  TOTALS_BUILD_LEASE_MS,
} from './totals-build';
export {
  APPLIED_SHARDS,
  appliedPartition,
  contributionOf,
  differenceOf,
  markersPartition,
  nameRowKey,
  TOTALS_LAYOUT,
  totalsPartition,
  type Contribution,
  type Figures,
  type TotalsKind,
} from './totals-layout';
export {
  brandRowsFromTotals,
  corporationRowsFromTotals,
  listTotals,
  merchantRowsFromTotals,
  summaryFromTotals,
  type TotalsSummary,
} from './totals-rows';
export { reportTotalsReady, updateReceiptTotals, type WrittenItems } from './totals-update';
