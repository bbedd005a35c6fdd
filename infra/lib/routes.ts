/**
 * Which handler serves each /api route and what data it may touch. Routes come from core's ROUTES and
 * handler files from the lambdas package's own table, so neither can drift from what is deployed; the
 * permissions are keyed by route name, so a new route fails the typecheck here until it has some.
 */
import { ROUTES, type RouteName } from '@receipts/core/contract/routes';
import type { TableAccessLevel } from '@receipts/store-azure/access-levels';
import {
  ANALYZE_HANDLER_FILE,
  DEAD_LETTER_HANDLER_FILE,
  ROUTE_HANDLER_FILES,
  SWEEP_HANDLER_FILE,
} from '@receipts/lambdas/route-files';

/** What a function does with the objects of the images bucket (receipt images, analysis JSON). */
export type ImageAccess = 'read' | 'put' | 'delete' | 'list';

export interface RouteAccess {
  /**
   * Table store access: none, read-only, read and write, or `settle`: reads, and the writes that
   * finish what the user's writes and uploads left when they stopped half-way (write intents and
   * upload reservations on the user's rows, the report totals, queue entries, the items and taxes
   * and the merchant a stopped scan left; see commit-write.ts and settle-uploads.ts in core).
   */
  readonly table: 'none' | 'read' | 'settle' | 'readWrite';
  /** What the route does with receipt images and analysis results. */
  readonly images: readonly ImageAccess[];
  /** Whether the route reads and writes the user's cached report data (under `cache/` in the bucket). */
  readonly appDataCache: boolean;
  /** Whether the route puts scan jobs on the queue. */
  readonly sendsScanJobs: boolean;
  /** Whether the route writes data exports under `exports/` and signs links to read them. */
  readonly dataExports?: boolean;
}

const none: RouteAccess = { table: 'none', images: [], appDataCache: false, sendsScanJobs: false };
const reads: RouteAccess = { ...none, table: 'read' };
const writes: RouteAccess = { ...none, table: 'readWrite' };
/**
 * The routes that read the user's reports: before answering they finish the user's writes that
 * stopped half-way and settle uploads that did (lists the upload's objects, deletes the image and
 * analysis of one that left no receipt and no queue entry), and read and rewrite the report cache.
 */
const reportReads: RouteAccess = { ...none, table: 'settle', images: ['list', 'delete'], appDataCache: true };

export const ROUTE_ACCESS: Record<RouteName, RouteAccess> = {
  login: writes,
  registerFCMToken: writes,
  unregisterFCMToken: writes,
  listQueue: reads,
  getImage: { ...reads, images: ['read'] },
  getAppData: reportReads,
  report: reportReads,
  exportCsv: reportReads,
  // The detail screens' lookups, from the same report index as the report tables.
  receiptDetail: reportReads,
  merchantDetail: reportReads,
  itemDetail: reportReads,
  listMerchants: reportReads,
  // Home's figures, from the same cached report data.
  dashboard: reportReads,
  // Lists the receipt's objects (image, analysis) to delete those that exist, then rebuilds the
  // user's cached report so the next read is current.
  deleteReceiptData: { ...writes, images: ['list', 'delete'], appDataCache: true },
  log: none,
  // Stores the image; first settles the user's uploads that stopped half-way, and takes itself back
  // when it cannot finish (both list the upload's objects and delete an image no scan holds).
  upload: { ...writes, images: ['put', 'list', 'delete'], sendsScanJobs: true },
  retryScan: { ...writes, sendsScanJobs: true },
  // Lists the scan's objects to delete the image and analysis that exist.
  removeScan: { ...writes, images: ['list', 'delete'] },
  // The edits write the user's rows and rebuild the report cache, like a delete.
  updateReceipt: { ...writes, appDataCache: true },
  saveItem: { ...writes, appDataCache: true },
  saveReceipt: { ...writes, appDataCache: true },
  deleteItem: { ...writes, appDataCache: true },
  markReviewed: { ...writes, appDataCache: true },
  keepBothReceipts: { ...writes, appDataCache: true },
  moveReceipt: { ...writes, appDataCache: true },
  updateMerchant: { ...writes, appDataCache: true },
  mergeMerchants: { ...writes, appDataCache: true },
  // Checks that the stored image is there, then queues it for the worker like retryScan.
  reanalyseReceipt: { ...writes, images: ['list'], sendsScanJobs: true },
  listBrands: none,
  // Reads the stored analysis JSON.
  getAnalysis: { ...none, images: ['read'] },
  storageListTables: reads,
  storageListRecords: reads,
  storageCreateRecord: writes,
  storageDeleteRecord: writes,
  // Reads every row of the user and every image and analysis JSON under the user's prefix.
  downloadMyData: { ...reads, images: ['list', 'read'], dataExports: true },
  // Deletes every row, image, analysis JSON and the cached report of the user (and the Firebase
  // account, with the service account key: see api-stack).
  deleteAccount: { ...writes, images: ['list', 'delete'], appDataCache: true },
  // The rules learnt from the user's corrections: rows of the user's own partition of Users.
  listCorrectionRules: reads,
  deleteCorrectionRule: writes,
};

/** The Storage Tester's routes: test records in their own partition, and the list of tables. */
const STORAGE_TESTER_ROUTES: readonly RouteName[] = [
  'storageListTables',
  'storageListRecords',
  'storageCreateRecord',
  'storageDeleteRecord',
];

/**
 * The table access level of a route's function (see ACCESS_LEVELS of packages/store-azure), or
 * undefined for a route that touches no table and gets no access at all.
 */
export function tableAccessLevel(route: Pick<DeployedRoute, 'name' | 'table'>): TableAccessLevel | undefined {
  if (route.table === 'none') return undefined;
  if (STORAGE_TESTER_ROUTES.includes(route.name)) return 'storageTester';
  return route.table;
}

/** The SQS-triggered worker that analyses receipts, without `.ts`. */
export const ANALYZE_HANDLER = ANALYZE_HANDLER_FILE.replace(/\.ts$/, '');
export const SWEEP_HANDLER = SWEEP_HANDLER_FILE.replace(/\.ts$/, '');
export const DEAD_LETTER_HANDLER = DEAD_LETTER_HANDLER_FILE.replace(/\.ts$/, '');

/** One deployable route: core's method/path/auth plus its handler and permissions. */
export interface DeployedRoute extends RouteAccess {
  readonly name: RouteName;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** Whether the caller must present a Firebase ID token (and the handler verifies it). */
  readonly auth: boolean;
  /** The handler file under lambdas/src/handlers, without `.ts`. */
  readonly handler: string;
}

/** Every /api route, in ROUTES order. */
export function deployedRoutes(): DeployedRoute[] {
  return (Object.keys(ROUTES) as RouteName[]).map((name) => ({
    name,
    ...ROUTES[name],
    ...ROUTE_ACCESS[name],
    handler: ROUTE_HANDLER_FILES[name].replace(/\.ts$/, ''),
  }));
}

/** A construct id for a route, e.g. `upload` -> `Upload`. */
export function routeConstructId(name: RouteName): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
