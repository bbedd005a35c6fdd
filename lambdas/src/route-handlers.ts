import type { RouteName } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResult } from './http/responses';
import { handler as deleteReceiptData } from './handlers/delete-receipt-data';
import { handler as getAppData } from './handlers/get-app-data';
import { handler as getImage } from './handlers/get-image';
import { handler as listQueue } from './handlers/list-queue';
import { handler as log } from './handlers/log-event';
import { handler as login } from './handlers/login-user';
import { handler as registerFCMToken } from './handlers/register-fcm-token';
import { handler as removeScan } from './handlers/remove-scan';
import { handler as retryScan } from './handlers/retry-scan';
import { handler as storageCreateRecord } from './handlers/storage-create-record';
import { handler as storageDeleteRecord } from './handlers/storage-delete-record';
import { handler as storageListRecords } from './handlers/storage-list-records';
import { handler as storageListTables } from './handlers/storage-list-tables';
import { handler as unregisterFCMToken } from './handlers/unregister-fcm-token';
import { handler as upload } from './handlers/upload-receipt';

export type ApiHandler = (event: APIGatewayProxyEventV2) => Promise<HttpResult>;

/** Every /api route's handler, for the local server (on AWS each is its own function). */
export const ROUTE_HANDLERS: Record<RouteName, ApiHandler> = {
  login,
  registerFCMToken,
  unregisterFCMToken,
  listQueue,
  getImage,
  getAppData,
  deleteReceiptData,
  log,
  upload,
  retryScan,
  removeScan,
  storageListTables,
  storageListRecords,
  storageCreateRecord,
  storageDeleteRecord,
};
