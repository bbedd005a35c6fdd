import { fileNameSchema } from '../contract/requests';
import { idSchema } from '../contract/ids';
import type { AnalysisResult } from '../analysis';
import { assessReview } from '../review';
import { AnalyzerError, AppError } from '../errors';
import type { ScanJob } from '../ports';
import type { ScanResult, ScanWorkerDeps } from './scan-worker';
import { enrichWithCorrections } from './correction-rules';
import { imageKey } from '../repository/keys';
import { repositories } from '../repository/repositories';
import type { QueueRow, ReceiptRow } from '../repository/rows';
import { commitWrite } from './commit-write';
import { nowOf } from './context';
import { assertDocumentWithinLimits } from './pdf-pages';
import { refreshAppDataCache } from '../reports/report-state';
import { ClaimFence, claimExpired, dropped, recordFailure } from './scan-claim';
import { notifyAnalysed, planAnalysis, takeBackAnalysis, writeAnalysis } from './write-analysis';
import { uploadDayOf } from './analysis-rows';

export { SCAN_CLAIM_LEASE_MS, defaultRetryDelaySeconds, failureReason } from './scan-claim';

export type { ScanOutcome, ScanResult, ScanWorkerDeps } from './scan-worker';

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
  let receipt: ReceiptRow | null;
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
    receipt = await writeScan(deps, fence, job, result, image.bytes);
  } catch (error) {
    return recordFailure(deps, fence, error);
  }
  if (!receipt) return dropped(deps, job, 'while writing');

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
  await notifyAnalysed(deps, receipt);
  return { outcome: 'analysed', receiptId: receipt.receipt_id };
}

/**
 * Writes the analysis through the commit step (see commit-write.ts): the write's intent on the
 * user's row before any row, then the rows, then the report totals take the receipt's difference
 * (its items read back by key) and the data version changes, before the entry goes, so a client
 * that sees its queue shrink and reloads finds the receipt. A scan that stops half-way is finished
 * by the next write or read of the user, and a delivery after its claim's lease writes it again.
 * @returns the receipt written, or null when the scan was deleted during the writes (what they
 *   wrote is taken back: the delete may have run before some of them)
 */
async function writeScan(
  deps: ScanWorkerDeps,
  fence: ClaimFence,
  job: ScanJob,
  result: AnalysisResult,
  image: Uint8Array,
): Promise<ReceiptRow | null> {
  return commitWrite(deps, job.userId, {
    prepare: () =>
      planAnalysis(deps, job, result, image, uploadDayOf(fence.entry.uploaded_at, fence.entry.upload_day)),
    apply: async (plan) => {
      await writeAnalysis(deps, plan);
      if (!(await fence.renew(nowOf(deps)))) {
        await takeBackAnalysis(deps, plan.receipt);
        return { answer: null };
      }
      const written = new Map([[job.fileName, plan.items.map((item) => item.item_id)]]);
      return { answer: plan.receipt, written };
    },
  });
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
