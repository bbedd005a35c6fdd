/**
 * What each route answers, by route name, and the body of an error answer. Type-only: the web client
 * and the server's `defineRoute` both take a route's answer type from here. Every other contract file
 * may be imported by this one, never the other way round.
 */
import type { RouteName } from './routes';
import type {
  DeleteReceiptAnswer,
  GetAppDataAnswer,
  GetImageAnswer,
  ListQueueAnswer,
  LoginAnswer,
  RemoveScanAnswer,
  RetryScanAnswer,
  StorageRecord,
  UploadAnswer,
} from './requests';
import type { ListBrandsAnswer, MerchantEditAnswer, ReanalyseAnswer, ReceiptEditAnswer } from './edits';
import type { DashboardAnswer } from './dashboard';
import type {
  ItemDetailAnswer,
  ListMerchantsAnswer,
  MerchantDetailAnswer,
  ReceiptDetailAnswer,
} from './details';
import type { ReportPage } from './reports';
import type { DeleteAccountAnswer } from './my-data';
import type { DeleteCorrectionRuleAnswer, ListCorrectionRulesAnswer } from './corrections';

/** Error body of every 4xx/5xx answer. */
export interface ErrorAnswer {
  error: string;
  message: string;
  /** The receipt the answer is about, when there is one (a duplicate upload names the earlier one). */
  receiptId?: string;
}

/**
 * What each route answers on success (the JSON body), by route name. The web client's `apiRequest`
 * takes its answer type from here, and `defineRoute` on the server checks each handler's result
 * against it, so both sides agree on every route.
 */
export interface RouteAnswers {
  login: LoginAnswer;
  registerFCMToken: { registered: true };
  unregisterFCMToken: { unregistered: true };
  listQueue: ListQueueAnswer;
  getImage: GetImageAnswer;
  getAppData: GetAppDataAnswer;
  report: ReportPage;
  dashboard: DashboardAnswer;
  /** The CSV file itself (fetched with `apiDownload`, not as JSON). */
  exportCsv: string;
  receiptDetail: ReceiptDetailAnswer;
  merchantDetail: MerchantDetailAnswer;
  itemDetail: ItemDetailAnswer;
  listMerchants: ListMerchantsAnswer;
  deleteReceiptData: DeleteReceiptAnswer;
  log: { logged: true };
  upload: UploadAnswer;
  retryScan: RetryScanAnswer;
  removeScan: RemoveScanAnswer;
  updateReceipt: ReceiptEditAnswer;
  saveItem: ReceiptEditAnswer & { itemId: string };
  saveReceipt: ReceiptEditAnswer;
  deleteItem: ReceiptEditAnswer;
  markReviewed: ReceiptEditAnswer;
  keepBothReceipts: ReceiptEditAnswer;
  reanalyseReceipt: ReanalyseAnswer;
  moveReceipt: ReceiptEditAnswer;
  updateMerchant: MerchantEditAnswer;
  mergeMerchants: MerchantEditAnswer;
  listBrands: ListBrandsAnswer;
  /** The analysis JSON as the analyzer wrote it; its shape depends on the analyzer. */
  getAnalysis: unknown;
  storageListTables: { tables: string[] };
  storageListRecords: { records: StorageRecord[]; continuationToken?: string };
  storageCreateRecord: StorageRecord;
  storageDeleteRecord: { deleted: true };
  /** The ZIP file itself (downloaded, not read as JSON). */
  downloadMyData: Blob;
  deleteAccount: DeleteAccountAnswer;
  listCorrectionRules: ListCorrectionRulesAnswer;
  deleteCorrectionRule: DeleteCorrectionRuleAnswer;
}

/** The success answer of one route. */
export type RouteAnswer<R extends RouteName> = RouteAnswers[R];
