import { fileNameSchema } from '../contract/requests';
import { idSchema } from '../contract/ids';
import type { AnalysisResult } from '../analysis';
import { assessReview } from '../review';
import {
  AnalyzerError,
  AppError,
  ConflictError,
  NotFoundError,
  StoreError,
  ValidationError,
} from '../errors';
import type { Analyzer, BlobStore, Logger, Notifier, ScanJob, ScanQueue } from '../ports';
import type { TableStore } from '../table-store';
import {
  dictionaryEntriesOf,
  itemRowsOf,
  keepsEditedItems,
  receiptCurrency,
  receiptRowOf,
  uploadDayOf,
  taxRowsOf,
} from './analysis-rows';
import { enrichWithCorrections } from './correction-rules';
import { matchMerchant } from './merchant-match';
import { analysisKey, imageKey, receiptIdFor, sha256Hex } from '../repository/keys';
import { repositories, type Repositories } from '../repository/repositories';
import type { ItemRow, MerchantRow, QueueRow, ReceiptRow } from '../repository/rows';
import { nowOf } from './context';
import { flagPossibleDuplicate, recordVisit } from './possible-duplicates';
import { assertDocumentWithinLimits } from './pdf-pages';
import { refreshAppDataCache } from '../reports/report-state';
import { removeMerchantIfUnused } from '../repository/merchant-repository';

import { afterReceiptWrites } from '../reports/after-receipt-writes';

/** The ports and settings of the scan worker. */
export interface ScanWorkerDeps {
  store: TableStore;
  blobs: BlobStore;
  /** Where a failed attempt is queued again, after a delay. */
  queue: ScanQueue;
  analyzer: Analyzer;
  /** Fills in brands and owners (e.g. `(r) => enrichAnalysis(r, enricher)`); optional. */
  enrich?: (result: AnalysisResult) => AnalysisResult | Promise<AnalysisResult>;
  notifier?: Notifier;
  logger: Logger;
  /** Attempts before a scan is marked 'Failed' (at least 1). */
  maxAttempts: number;
  /** Seconds to wait before attempt `attempt + 1`; default 10 s doubling, at most 5 minutes. */
  retryDelaySeconds?: (attempt: number) => number;
  /** How long a claim ('Analyzing') holds off other deliveries; default SCAN_CLAIM_LEASE_MS. */
  claimLeaseMs?: number;
  now?: () => Date;
}

/**
 * How long a delivery's claim on a scan (status 'Analyzing') keeps other deliveries of the same job
 * away. It must be longer than one attempt can run (the analyze function's timeout, 2 minutes) and
 * shorter than the queue's visibility timeout (12 minutes): a message redelivered because its
 * attempt crashed then finds the claim expired and analyses, while a duplicate delivered during a
 * live attempt is deferred.
 */
export const SCAN_CLAIM_LEASE_MS = 5 * 60 * 1000;

export type ScanOutcome =
  /** The receipt was analysed and written. */
  | 'analysed'
  /** Nothing to do: already done, deleted, failed for good, or being done by another delivery. */
  | 'skipped'
  /**
   * Another delivery claimed this scan moments ago and may still be analysing it: nothing was done,
   * and the job must be delivered again later (it is then done, or the claim has expired).
   */
  | 'deferred'
  /** This attempt failed; the scan is queued again. */
  | 'retrying'
  /** The last attempt failed; the entry shows status 'Failed' and the reason. */
  | 'failed';

export interface ScanResult {
  outcome: ScanOutcome;
  receiptId?: string;
  reason?: string;
}

export const defaultRetryDelaySeconds = (attempt: number): number => Math.min(300, 10 * 2 ** (attempt - 1));

/**
 * Analyses one uploaded receipt: marks it 'Analyzing', runs the analyzer and the enrichment, writes
 * items and taxes (one transaction per receipt), the merchant (re-used when the user has it
 * already), the brand and corporation dictionaries, the analysis JSON and last the receipt row; then
 * bumps the user's data version, removes the queue entry and notifies the user.
 *
 * Idempotent: every key is derived from (user, file name), so a job delivered twice writes the same
 * rows, a job whose queue entry is gone (done or deleted) does nothing, and one delivered while
 * another delivery's claim is fresh is 'deferred' (the caller queues it again). A failed attempt is
 * queued again with backoff; after `maxAttempts` (or at once when the failure is permanent) the
 * entry is marked 'Failed' with a reason the user can read.
 *
 * @throws only when even the failure could not be recorded (e.g. the store is down): the queue's
 *   own redelivery then takes over
 */
export async function processScan(deps: ScanWorkerDeps, job: ScanJob): Promise<ScanResult> {
  const { logger } = deps;
  if (
    !idSchema('userId').safeParse(job.userId).success ||
    !fileNameSchema().safeParse(job.fileName).success
  ) {
    logger.error('scan job refused: malformed', { job });
    return { outcome: 'skipped', reason: 'malformed job' };
  }
  const repos = repositories(deps.store);
  const found = await repos.scans.getQueueEntry(job.userId, job.fileName);
  if (!found) {
    logger.info('scan skipped: no queue entry (already analysed or deleted)', { ...job });
    return { outcome: 'skipped' };
  }
  if (found.entry.status === 'Failed') {
    logger.info('scan skipped: marked failed', { ...job });
    return { outcome: 'skipped' };
  }
  if (found.entry.status === 'Analyzing' && !claimExpired(found.entry.updated_at, nowOf(deps), deps)) {
    // A duplicate of a job under way: analysing again would pay twice, notify twice, and could write
    // back a receipt the user deleted after the first run. Dropping it could lose the scan if that
    // run crashes, so it is handed back to the queue for later.
    logger.info('scan deferred: another delivery is analysing it', { ...job });
    return { outcome: 'deferred' };
  }
  const claimed: QueueRow = {
    ...found.entry,
    status: 'Analyzing',
    attempts: found.entry.attempts + 1,
    updated_at: nowOf(deps).toISOString(),
  };
  // The claim's etag fences every later write of this delivery: one of two simultaneous deliveries
  // gives way here, and a user's delete (which removes the entry with the etag it read) or a later
  // delivery that takes over an expired claim changes it, which this delivery notices below.
  const fence = new ClaimFence(repos, claimed);
  if (!(await fence.take(found.etag))) {
    logger.info('scan skipped: claimed by another delivery', { ...job });
    return { outcome: 'skipped' };
  }

  const started = Date.now();
  let receipt: ReceiptRow;
  let itemIds: string[];
  try {
    const image = await deps.blobs.get(imageKey(job.userId, job.fileName));
    if (!image) {
      throw new AnalyzerError('The uploaded image is missing; upload the receipt again.', {
        code: 'ImageMissing',
        retryable: false,
      });
    }
    await withinDecodeLimits(image.bytes, image.contentType);
    let result = await deps.analyzer.analyze(
      image.bytes,
      image.contentType,
      deps.blobs.locate?.(imageKey(job.userId, job.fileName)),
    );
    // The person's correction rules around the brand enrichment (see correction-rules.ts).
    result = await enrichWithCorrections(deps.store, job.userId, result, deps.enrich);
    result = { ...result, ...assessReview(result, nowOf(deps).toISOString().slice(0, 10)) };
    // Analysis takes long; the user may have deleted the scan meanwhile.
    if (!(await fence.renew(nowOf(deps)))) return dropped(deps, job, 'before writing');
    const uploadDay = uploadDayOf(found.entry.uploaded_at, found.entry.upload_day);
    ({ receipt, itemIds } = await persistAnalysis(deps, repos, job, result, image.bytes, uploadDay));
  } catch (error) {
    return recordFailure(deps, fence, error);
  }
  // Deleted while the rows were written: the delete may have run before some of them, so this
  // delivery takes back what it wrote.
  if (!(await fence.renew(nowOf(deps)))) {
    await rollBack(deps, repos, receipt);
    return dropped(deps, job, 'while writing');
  }

  // The user's report totals take this receipt's difference (not a rebuild of the whole report),
  // before the data version changes and the entry goes: a client that sees its queue shrink and
  // reloads finds the receipt in the totals. The receipts and items tables are rebuilt on read.
  // The items just written are read back by key.
  await afterReceiptWrites(deps, job.userId, [job.fileName], new Map([[job.fileName, itemIds]]));
  await repos.users.bumpDataVersion(job.userId, nowOf(deps), { files: [job.fileName] });
  // The report data is rebuilt here, off the user's path, and the entry removed only after: a client
  // that sees its queue shrink and reloads gets the new receipt from the cache, not from a rebuild
  // that takes seconds for a large account. (An edit leaves it to the next read.)
  await refreshAppDataCache(deps, job.userId).catch((error: unknown) =>
    deps.logger.warn('report cache not refreshed', { ...job, error: String(error) }),
  );
  await repos.scans.deleteQueueEntry(job.userId, job.fileName, fence.etag);
  logger.info('scan analysed', {
    userId: job.userId,
    fileName: job.fileName,
    receiptId: receipt.receipt_id,
    merchant: receipt.merchant_name,
    total: receipt.total_amount,
    attempts: claimed.attempts,
    ms: Date.now() - started,
  });
  await notify(deps, repos, receipt);
  return { outcome: 'analysed', receiptId: receipt.receipt_id };
}

/**
 * The upload's limits on pages and pixels, checked again before the analyzer decodes anything: a
 * file stored before they held, or one that reached the store another way, fails for good with the
 * same message instead of taking the worker's memory.
 */
async function withinDecodeLimits(bytes: Uint8Array, contentType: string): Promise<void> {
  try {
    await assertDocumentWithinLimits(bytes, contentType);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new AnalyzerError(error.message, { code: error.code, retryable: false, cause: error });
  }
}

/**
 * A delivery's claim on a queue entry, by etag. Every write to the entry goes through it, so a
 * delivery never writes over an entry someone else changed or removed since its claim.
 */
class ClaimFence {
  etag = '';
  constructor(
    private readonly repos: Repositories,
    public entry: QueueRow,
  ) {}

  /** Writes the entry as `etag` was read; false when another writer came first. */
  async take(etag: string): Promise<boolean> {
    return this.write(this.entry, etag);
  }

  /** Writes the claim again with a new time (renewing the lease); false when it was lost. */
  async renew(now: Date): Promise<boolean> {
    return this.write({ ...this.entry, updated_at: now.toISOString() }, this.etag);
  }

  /** Replaces the entry, if the claim still holds; false when it was lost. */
  async write(entry: QueueRow, etag = this.etag): Promise<boolean> {
    try {
      this.etag = await this.repos.scans.saveQueueEntry(entry, etag);
      this.entry = entry;
      return true;
    } catch (error) {
      if (error instanceof ConflictError || error instanceof NotFoundError) return false;
      throw error;
    }
  }
}

/**
 * The reason a user reads for a failed attempt: the analyzer's and the checks' own messages are
 * written for them; anything else (a store or blob error, whose message may name buckets, paths or
 * endpoints) gets a fixed text, and its details stay in the log.
 */
export function failureReason(error: unknown): string {
  if (error instanceof AnalyzerError || error instanceof ValidationError) return error.message;
  if (error instanceof StoreError)
    return 'The receipt could not be saved because a storage service was unavailable.';
  return 'The receipt could not be analysed because of an internal error.';
}

function dropped(deps: ScanWorkerDeps, job: ScanJob, when: string): ScanResult {
  deps.logger.info(`scan dropped: deleted or taken over ${when}`, { ...job });
  return { outcome: 'skipped', reason: 'deleted or taken over' };
}

/**
 * Removes what persistAnalysis wrote, after the scan was deleted during the writes. A receipt row
 * written since by another delivery (a later analysed_at) is left alone.
 */
async function rollBack(deps: ScanWorkerDeps, repos: Repositories, receipt: ReceiptRow): Promise<void> {
  const { user_id: userId, receipt_id: receiptId, file_name: fileName } = receipt;
  const stored = await repos.receipts.getReceipt(userId, receiptId);
  if (stored && stored.analyzed_at !== receipt.analyzed_at) return;
  await Promise.all([repos.receipts.replaceItems(receiptId, []), repos.receipts.replaceTaxes(receiptId, [])]);
  await deps.blobs.delete(analysisKey(userId, fileName)).catch(() => undefined);
  await repos.receipts.deleteReceipt(userId, receiptId);
  await recordVisit(repos, userId, null, receipt);
  await removeMerchantIfUnused(repos, userId, receipt.merchant_id);
  await afterReceiptWrites(deps, userId, [fileName]);
  await repos.users.bumpDataVersion(userId, nowOf(deps), { files: [fileName] });
}

function claimExpired(updatedAt: string, now: Date, deps: Pick<ScanWorkerDeps, 'claimLeaseMs'>): boolean {
  const at = Date.parse(updatedAt);
  return !Number.isFinite(at) || now.getTime() - at > (deps.claimLeaseMs ?? SCAN_CLAIM_LEASE_MS);
}

async function recordFailure(deps: ScanWorkerDeps, fence: ClaimFence, error: unknown): Promise<ScanResult> {
  const claimed = fence.entry;
  const permanent =
    (error instanceof AnalyzerError && !error.retryable) ||
    (error instanceof ValidationError && !(error instanceof AnalyzerError));
  const reason = failureReason(error);
  const job = { userId: claimed.userId, fileName: claimed.fileName };
  const maxAttempts = Math.max(1, deps.maxAttempts);
  const now = nowOf(deps).toISOString();
  deps.logger.warn('scan attempt failed', {
    ...job,
    attempt: claimed.attempts,
    maxAttempts,
    permanent,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    cause: error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined,
  });
  // Through the fence: a scan deleted during the attempt must not come back as a failed entry.
  if (permanent || claimed.attempts >= maxAttempts) {
    if (!(await fence.write({ ...claimed, status: 'Failed', reason, updated_at: now })))
      return dropped(deps, job, 'before failing');
    return { outcome: 'failed', reason };
  }
  const queuedAgain = await fence.write({
    ...claimed,
    status: 'false',
    reason: `Attempt ${claimed.attempts} of ${maxAttempts} failed: ${reason} Trying again.`,
    updated_at: now,
  });
  if (!queuedAgain) return dropped(deps, job, 'before retrying');
  const delaySeconds = (deps.retryDelaySeconds ?? defaultRetryDelaySeconds)(claimed.attempts);
  await deps.queue.enqueue(job, { delaySeconds });
  return { outcome: 'retrying', reason };
}

/**
 * Writes what an analysis found: items and taxes, the merchant, the brand and corporation
 * dictionaries, the analysis JSON and last the receipt row (the rows themselves come from
 * merchant-match.ts and analysis-rows.ts). The order keeps the reports consistent at every step.
 * @returns the receipt row and the keys of its items
 */
async function persistAnalysis(
  deps: ScanWorkerDeps,
  repos: Repositories,
  job: ScanJob,
  result: AnalysisResult,
  image: Uint8Array,
  uploadDay: string | null,
): Promise<{ receipt: ReceiptRow; itemIds: string[] }> {
  const { userId, fileName } = job;
  const receiptId = receiptIdFor(userId, fileName);
  const ids = { userId, receiptId };
  const [merchants, previous] = await Promise.all([
    repos.merchants.listMerchants(userId),
    repos.receipts.getReceipt(userId, receiptId),
  ]);
  const merchant: MerchantRow = matchMerchant({ userId, analysed: result.merchant, merchants, previous });
  const currency = receiptCurrency(result, previous);
  const keepItems = keepsEditedItems(previous);
  const items: ItemRow[] = keepItems
    ? await repos.receipts.listItemsOfReceipt(receiptId)
    : itemRowsOf(result, ids, currency);

  await Promise.all([
    keepItems ? Promise.resolve() : repos.receipts.replaceItems(receiptId, items),
    repos.receipts.replaceTaxes(receiptId, taxRowsOf(result, ids, currency)),
  ]);
  await repos.merchants.saveMerchant(merchant);

  const { brands, corporations } = dictionaryEntriesOf(items, merchant);
  await Promise.all([
    ...[...brands].map(([name, owner]) => repos.dictionaries.saveBrand(name, owner)),
    ...[...corporations].map((name) => repos.dictionaries.saveCorporation(name)),
  ]);

  const analyzedAt = nowOf(deps).toISOString();
  const analysisJson = JSON.stringify({ fileName, receiptId, analyzedAt, result });
  await deps.blobs.put(
    analysisKey(userId, fileName),
    new TextEncoder().encode(analysisJson),
    'application/json',
  );

  const receipt = receiptRowOf({
    result,
    userId,
    fileName,
    receiptId,
    merchant,
    currency,
    items,
    analyzedAt,
    image: { bytes: image.length, sha256: await sha256Hex(image) },
    previous,
    now: nowOf(deps),
    uploadDay,
  });
  await flagPossibleDuplicate(repos, receipt, { review: true });
  // Written last: its presence is what makes the receipt (and its items) part of the reports.
  await repos.receipts.saveReceipt(receipt);
  // Again after the receipt: a delete of the merchant's last other receipt that ran since the first
  // write removed the merchant, and either sees this receipt or is followed by this write.
  await repos.merchants.saveMerchant(merchant);
  // After the row: a scan that finds the receipt listed under its visit can read it.
  await recordVisit(repos, userId, receipt, previous);

  if (previous && previous.merchant_id !== merchant.merchant_id) {
    await removeMerchantIfUnused(repos, userId, previous.merchant_id, receiptId);
  }
  return { receipt, itemIds: items.map((item) => item.item_id) };
}

async function notify(deps: ScanWorkerDeps, repos: Repositories, receipt: ReceiptRow): Promise<void> {
  if (!deps.notifier) return;
  try {
    const tokens = await repos.users.pushTokensOf(receipt.user_id);
    if (tokens.length === 0) return;
    const total =
      receipt.total_amount === null
        ? ''
        : ` ${receipt.total_amount.toFixed(2)} ${receipt.currency_code ?? ''}`.trimEnd();
    const { invalidTokens } = await deps.notifier.send(tokens, {
      title: 'Receipt analysed',
      body: `${receipt.merchant_name}${total ? `:${total}` : ''}`,
      data: { receiptId: receipt.receipt_id, fileName: receipt.file_name },
    });
    await repos.users.removeFcmTokens(receipt.user_id, invalidTokens);
  } catch (error) {
    // The receipt is saved; a lost notification must not make the scan fail or repeat.
    deps.logger.warn('notification failed', { userId: receipt.user_id, error: String(error) });
  }
}
