import type { AnalysisResult } from './analysis';

/** Receipt images and analysis JSON, addressed by key (`<userId>/<fileName>`). */
export interface BlobStore {
  /** Stores bytes under a key, replacing what was there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes and content type, or null when absent. */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  /** Removes the object; absent is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix. */
  list(prefix: string): Promise<string[]>;
  /**
   * Where an analyzer that reads from the store itself can find the object (e.g. S3 bucket and key),
   * or undefined when it must be given the bytes.
   */
  locate?(key: string): { bucket: string; key: string } | undefined;
}

/**
 * Keeps a finished data export (a ZIP written as it is made) and hands out a short-lived download
 * link to it; in the cloud, where one API answer cannot carry a large archive.
 */
export interface ExportStore {
  /** How long a link from `link()` stays valid, in seconds. */
  readonly linkSeconds: number;
  /** Writes the stream under `key` without holding all of it in memory. */
  save(key: string, stream: AsyncIterable<Uint8Array>, contentType: string): Promise<void>;
  /** A URL that downloads `key` as the attachment `fileName`, valid for `linkSeconds`. */
  link(key: string, fileName: string): Promise<string>;
}

/** The key of a data export of `uid` made at `at`: under `exports/<uid>/`, which deleting the account empties. */
export function exportKey(uid: string, at: Date): string {
  return `exports/${uid}/${at.toISOString().replace(/[:.]/g, '-')}.zip`;
}

/** One scan to analyse: the receipt image `fileName` of user `userId`. */
export interface ScanJob {
  userId: string;
  fileName: string;
}

/** Delivers scan jobs to the worker: in-process locally, SQS in the cloud. */
export interface ScanQueue {
  enqueue(job: ScanJob, options?: { delaySeconds?: number }): Promise<void>;
}

/** Reads one receipt image into merchant, receipt, items and taxes. */
export interface Analyzer {
  readonly name: string;
  /**
   * @param image - the image bytes (JPEG, PNG, WebP or PDF)
   * @param mimeType - the bytes' content type
   * @param source - where the image is stored, for analyzers that read it from there
   * @throws AnalyzerError when the image cannot be read
   */
  analyze(
    image: Uint8Array,
    mimeType: string,
    source?: { bucket: string; key: string },
  ): Promise<AnalysisResult>;
  /** Frees workers and other resources. */
  close?(): Promise<void>;
}

/** Draws the first page of a PDF receipt as a picture, where a picture of the receipt is shown. */
export interface PdfPreviewer {
  /**
   * @param pdf - the PDF's bytes
   * @returns the first page as PNG bytes
   * @throws AnalyzerError when the PDF cannot be opened
   */
  firstPage(pdf: Uint8Array): Promise<Uint8Array>;
}

export interface BrandMatch {
  brand: string;
  owning_corporation: string | null;
  /** The reading was weak (OCR confusions forgiven, words run together…): a person should check it. */
  unsure?: boolean;
}

/** What else the receipt says that helps to read an item's brand. */
export interface BrandContext {
  /** The merchant's name as read: a retailer's own labels count at that retailer. */
  merchant?: string | null;
  /**
   * The receipt's country (ISO 3166-1 alpha-2, e.g. `MY`, `US`) as the analyzer read it: a brand
   * owned by different corporations in different countries gets the owner of that country, and no
   * owner when the country is not known.
   */
  country?: string | null;
}

/** A store chain as a chain directory knows it. */
export interface KnownChain {
  /** The chain's own name, e.g. `Aldi Nord`, `99 Speedmart`. */
  chain: string;
  owning_corporation: string;
  /** The receipt category its shops sell in: `grocery`, `restaurant`, `fuel`, `pharmacy` or `retail`. */
  category: string;
}

/** Finds a known store chain named in a piece of receipt text (the analyzers' knowledge of chains). */
export interface ChainLookup {
  /**
   * The chain named in `text`, and the phrase of it that was found (`ALDI GMBH & CO. KG` → Aldi Nord,
   * by `Aldi`), or null.
   * @param text - one line or phrase of a receipt, e.g. a header line or the words of a web address
   */
  chainIn(text: string): { chain: KnownChain; phrase: string } | null;
}

/** Fills an item's brand and the brand's owner, and a merchant chain's owner. Unknown stays null. */
export interface Enricher {
  brandFor(description: string, context?: BrandContext): BrandMatch | null;
  corporationForMerchant(merchantName: string): string | null;
}

export interface PushMessage {
  title: string;
  body: string;
  data?: Record<string, string>;
}

/** Sends push notifications to device tokens. */
export interface Notifier {
  /** @returns the tokens the push service reported as no longer valid, to be removed */
  send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }>;
}

/** The identity a verified ID token proves. */
export interface Identity {
  uid: string;
  email: string | null;
  name: string | null;
  /** Whether the identity provider verified `email` (undefined when it does not say). */
  emailVerified?: boolean;
}

/** Verifies a bearer ID token; throws UnauthorizedError when it is missing, forged or expired. */
export interface IdentityVerifier {
  verify(idToken: string): Promise<Identity>;
  /**
   * Deletes the sign-in account of `uid` in the identity provider, after which its tokens are
   * refused. An account that is already gone is not an error (deleting an account can be repeated).
   * @param uid - the verified uid of the account to delete
   * @throws ServiceUnavailableError when the provider cannot be reached or refuses the deletion
   */
  deleteAccount(uid: string): Promise<void>;
}

/**
 * What one process keeps of its users' read models between requests (the report data, the report
 * index, the first pages of the report tables), by user id, tagged with the data version they are
 * of: at most a few users, the least recently used forgotten first. Injected through the use cases'
 * deps, so each test and each Lambda instance owns its own and none is held in a module.
 */
export interface ReportCache<V extends object = object> {
  /** What the process holds for the user (it becomes the most recently used). */
  get(userId: string): V | undefined;
  set(userId: string, value: V): void;
  /** Forgets the user (their account was deleted). */
  delete(userId: string): void;
  /** Forgets every user (tests and benchmarks measure a cold process with it). */
  clear(): void;
  /**
   * The work in progress under `key` (a user and a data version), or else `work` started: callers
   * arriving while it runs share one build.
   */
  shared<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
