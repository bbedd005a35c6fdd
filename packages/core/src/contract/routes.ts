/**
 * The part of the API contract the browser needs at run time: the route table and the limits and
 * timings both sides share. The web app's first page imports it, so it must not import zod (that would
 * add the whole library, about 40 KB gzipped, to the first page); the request schemas are in the
 * other files of this folder.
 */

/** Largest decoded image accepted by /api/upload. The web app scales pictures below this first. */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Largest request body accepted (Lambda takes 6 MB; the base64 data URL of MAX_IMAGE_BYTES fits). */
export const MAX_BODY_BYTES = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;
/** How often the web app polls the queue while it is not empty (spec §9). */
export const QUEUE_POLL_MS = 2000;
/**
 * A queued or analysing scan that has not moved for this long (15 minutes; a normal analysis takes
 * seconds, and the worker's retries with backoff stay well within it) is taken as stuck: the person
 * may retry it or remove it.
 */
export const STALE_SCAN_MS = 15 * 60 * 1000;

/** Whether a queue entry last updated at `updatedAt` (ISO) has not moved for STALE_SCAN_MS. */
export function isStale(updatedAt: string | undefined, now: Date): boolean {
  const at = updatedAt ? Date.parse(updatedAt) : NaN;
  return !Number.isFinite(at) || now.getTime() - at > STALE_SCAN_MS;
}

/** Rows per page in every table (spec §9). */
export const TABLE_PAGE_SIZE = 5;

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** The route table: method, path and whether it needs a token. Shared by the server, infra and web. */
export const ROUTES = {
  login: { method: 'POST', path: '/api/login', auth: true },
  registerFCMToken: { method: 'POST', path: '/api/registerFCMToken', auth: true },
  unregisterFCMToken: { method: 'POST', path: '/api/unregisterFCMToken', auth: true },
  listQueue: { method: 'GET', path: '/api/listQueue', auth: true },
  getImage: { method: 'GET', path: '/api/getImage', auth: true },
  getAppData: { method: 'GET', path: '/api/getAppData', auth: true },
  report: { method: 'GET', path: '/api/report', auth: true },
  dashboard: { method: 'GET', path: '/api/dashboard', auth: true },
  exportCsv: { method: 'GET', path: '/api/exportCsv', auth: true },
  // Detail screens (schemas in ./details).
  receiptDetail: { method: 'GET', path: '/api/receiptDetail', auth: true },
  merchantDetail: { method: 'GET', path: '/api/merchantDetail', auth: true },
  itemDetail: { method: 'GET', path: '/api/itemDetail', auth: true },
  listMerchants: { method: 'GET', path: '/api/listMerchants', auth: true },
  deleteReceiptData: { method: 'DELETE', path: '/api/deleteReceiptData', auth: true },
  log: { method: 'POST', path: '/api/log', auth: false },
  upload: { method: 'POST', path: '/api/upload', auth: true },
  retryScan: { method: 'POST', path: '/api/retryScan', auth: true },
  removeScan: { method: 'DELETE', path: '/api/removeScan', auth: true },
  // Review and correct (schemas in ./edits).
  updateReceipt: { method: 'POST', path: '/api/updateReceipt', auth: true },
  saveItem: { method: 'POST', path: '/api/saveItem', auth: true },
  saveReceipt: { method: 'POST', path: '/api/saveReceipt', auth: true },
  deleteItem: { method: 'DELETE', path: '/api/deleteItem', auth: true },
  markReviewed: { method: 'POST', path: '/api/markReviewed', auth: true },
  keepBothReceipts: { method: 'POST', path: '/api/keepBothReceipts', auth: true },
  reanalyseReceipt: { method: 'POST', path: '/api/reanalyseReceipt', auth: true },
  moveReceipt: { method: 'POST', path: '/api/moveReceipt', auth: true },
  updateMerchant: { method: 'POST', path: '/api/updateMerchant', auth: true },
  mergeMerchants: { method: 'POST', path: '/api/mergeMerchants', auth: true },
  listBrands: { method: 'GET', path: '/api/listBrands', auth: true },
  getAnalysis: { method: 'GET', path: '/api/getAnalysis', auth: true },
  // My data (schemas in ./my-data).
  downloadMyData: { method: 'GET', path: '/api/downloadMyData', auth: true },
  deleteAccount: { method: 'POST', path: '/api/deleteAccount', auth: true },
  // Rules learnt from corrections (schemas in ./corrections).
  listCorrectionRules: { method: 'GET', path: '/api/listCorrectionRules', auth: true },
  deleteCorrectionRule: { method: 'DELETE', path: '/api/deleteCorrectionRule', auth: true },
  storageListTables: { method: 'GET', path: '/api/storage/tables', auth: true },
  storageListRecords: { method: 'GET', path: '/api/storage/records', auth: true },
  storageCreateRecord: { method: 'POST', path: '/api/storage/records', auth: true },
  storageDeleteRecord: { method: 'DELETE', path: '/api/storage/records', auth: true },
} as const;
export type RouteName = keyof typeof ROUTES;

/**
 * The header CloudFront adds to every /api request with a value generated at deploy; deployed, the
 * API refuses requests without it, so it is reachable only through the site's address.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
