import type { RouteName } from '@receipts/core/contract/routes';

/**
 * The handler file of each /api route under lambdas/src/handlers (each exports `handler`), for
 * whoever bundles one function per route. The SQS scan worker is `analyze-receipt.ts`.
 */
export const ROUTE_HANDLER_FILES: Record<RouteName, string> = {
  login: 'login-user.ts',
  registerFCMToken: 'register-fcm-token.ts',
  unregisterFCMToken: 'unregister-fcm-token.ts',
  listQueue: 'list-queue.ts',
  getImage: 'get-image.ts',
  getAppData: 'get-app-data.ts',
  report: 'query-report.ts',
  dashboard: 'get-dashboard.ts',
  exportCsv: 'export-csv.ts',
  receiptDetail: 'get-receipt-detail.ts',
  merchantDetail: 'get-merchant-detail.ts',
  itemDetail: 'get-item-detail.ts',
  listMerchants: 'list-merchants.ts',
  deleteReceiptData: 'delete-receipt-data.ts',
  log: 'log-event.ts',
  upload: 'upload-receipt.ts',
  retryScan: 'retry-scan.ts',
  removeScan: 'remove-scan.ts',
  updateReceipt: 'update-receipt.ts',
  saveItem: 'save-item.ts',
  saveReceipt: 'save-receipt.ts',
  deleteItem: 'delete-item.ts',
  markReviewed: 'mark-reviewed.ts',
  keepBothReceipts: 'keep-both-receipts.ts',
  reanalyseReceipt: 'reanalyse-receipt.ts',
  moveReceipt: 'move-receipt.ts',
  updateMerchant: 'update-merchant.ts',
  mergeMerchants: 'merge-merchants.ts',
  listBrands: 'list-brands.ts',
  getAnalysis: 'get-analysis.ts',
  storageListTables: 'storage-list-tables.ts',
  storageListRecords: 'storage-list-records.ts',
  storageCreateRecord: 'storage-create-record.ts',
  storageDeleteRecord: 'storage-delete-record.ts',
  downloadMyData: 'download-my-data.ts',
  deleteAccount: 'delete-account.ts',
  listCorrectionRules: 'list-correction-rules.ts',
  deleteCorrectionRule: 'delete-correction-rule.ts',
};

/** The SQS consumer that analyses receipts. */
export const ANALYZE_HANDLER_FILE = 'analyze-receipt.ts';

/** The scheduled sweeper of the scan queue (stuck and lost scans). */
export const SWEEP_HANDLER_FILE = 'sweep-scans.ts';

/** The consumer of the scan queue's dead-letter queue. */
export const DEAD_LETTER_HANDLER_FILE = 'dead-letter.ts';
