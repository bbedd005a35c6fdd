import type { RouteName } from '@receipts/core/contract/routes';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Services } from './composition';
import type { HttpResult } from './http/responses';
import type { RouteHandler } from './http/route';
import { handler as deleteItem } from './handlers/delete-item';
import { handler as deleteReceiptData } from './handlers/delete-receipt-data';
import { handler as deleteAccount } from './handlers/delete-account';
import { handler as deleteCorrectionRule } from './handlers/delete-correction-rule';
import { streamHandler as downloadMyData } from './handlers/download-my-data';
import { streamHandler as exportCsv } from './handlers/export-csv';
import { handler as getAnalysis } from './handlers/get-analysis';
import { handler as getAppData } from './handlers/get-app-data';
import { handler as dashboard } from './handlers/get-dashboard';
import { handler as getImage } from './handlers/get-image';
import { handler as itemDetail } from './handlers/get-item-detail';
import { handler as merchantDetail } from './handlers/get-merchant-detail';
import { handler as receiptDetail } from './handlers/get-receipt-detail';
import { handler as listBrands } from './handlers/list-brands';
import { handler as listCorrectionRules } from './handlers/list-correction-rules';
import { handler as listMerchants } from './handlers/list-merchants';
import { handler as listQueue } from './handlers/list-queue';
import { handler as log } from './handlers/log-event';
import { handler as report } from './handlers/query-report';
import { handler as login } from './handlers/login-user';
import { handler as markReviewed } from './handlers/mark-reviewed';
import { handler as keepBothReceipts } from './handlers/keep-both-receipts';
import { handler as mergeMerchants } from './handlers/merge-merchants';
import { handler as moveReceipt } from './handlers/move-receipt';
import { handler as reanalyseReceipt } from './handlers/reanalyse-receipt';
import { handler as registerFCMToken } from './handlers/register-fcm-token';
import { handler as removeScan } from './handlers/remove-scan';
import { handler as retryScan } from './handlers/retry-scan';
import { handler as saveItem } from './handlers/save-item';
import { handler as saveReceipt } from './handlers/save-receipt';
import { handler as storageCreateRecord } from './handlers/storage-create-record';
import { handler as storageDeleteRecord } from './handlers/storage-delete-record';
import { handler as storageListRecords } from './handlers/storage-list-records';
import { handler as storageListTables } from './handlers/storage-list-tables';
import { handler as updateMerchant } from './handlers/update-merchant';
import { handler as updateReceipt } from './handlers/update-receipt';
import { handler as unregisterFCMToken } from './handlers/unregister-fcm-token';
import { handler as upload } from './handlers/upload-receipt';

export type ApiHandler = (event: APIGatewayProxyEventV2) => Promise<HttpResult>;

/** Every /api route's handler (on AWS each is its own function). */
const ROUTE_HANDLERS: Record<RouteName, RouteHandler> = {
  login,
  registerFCMToken,
  unregisterFCMToken,
  listQueue,
  getImage,
  getAppData,
  report,
  dashboard,
  exportCsv,
  receiptDetail,
  merchantDetail,
  itemDetail,
  listMerchants,
  deleteReceiptData,
  log,
  upload,
  retryScan,
  removeScan,
  updateReceipt,
  saveItem,
  saveReceipt,
  deleteItem,
  markReviewed,
  keepBothReceipts,
  reanalyseReceipt,
  moveReceipt,
  updateMerchant,
  mergeMerchants,
  listBrands,
  getAnalysis,
  storageListTables,
  storageListRecords,
  storageCreateRecord,
  storageDeleteRecord,
  downloadMyData,
  deleteAccount,
  listCorrectionRules,
  deleteCorrectionRule,
};

/**
 * Every /api route's handler answering with `services`, for the local server.
 * @param services - the local stack's services (see createServices)
 */
export function routeHandlers(services: Services): Record<RouteName, ApiHandler> {
  const entries = Object.entries(ROUTE_HANDLERS) as [RouteName, RouteHandler][];
  return Object.fromEntries(
    entries.map(([name, handler]) => [
      name,
      (event: APIGatewayProxyEventV2) => handler.serve(services, event),
    ]),
  ) as Record<RouteName, ApiHandler>;
}
