import { ConflictError, NotFoundError } from '../errors';
import type { Logger, ScanJob, ScanQueue } from '../ports';
import { repositories, type Repositories } from '../repository/repositories';
import type { QueueRow } from '../repository/rows';
import type { TableStore } from '../table-store';
import { nowOf } from './context';
import { SCAN_CLAIM_LEASE_MS } from './process-scan';

/**
 * A queued scan untouched for this long has most likely lost its job (the enqueue after the entry
 * failed half-way, or the message expired): the sweeper queues it again. Far longer than the
 * queue's longest retry delay (5 minutes), so a scan waiting for its retry is left alone.
 */
export const LOST_SCAN_MS = 15 * 60 * 1000;

export const STUCK_SCAN_REASON =
  'The analysis of this receipt did not finish. Retry it, or upload a clearer photo.';
export const DEAD_LETTER_REASON =
  'The receipt could not be analysed after several tries. Retry it later, or upload a clearer photo.';

export interface SweepDeps {
  store: TableStore;
  queue: ScanQueue;
  logger: Logger;
  /** How long a claim holds (default SCAN_CLAIM_LEASE_MS). */
  claimLeaseMs?: number;
  now?: () => Date;
}

export interface SweepResult {
  /** Queued scans with no job, queued again. */
  requeued: number;
  /** Scans stuck in 'Analyzing' past their lease, marked 'Failed'. */
  failed: number;
}

/**
 * The scheduled sweep of the scan queue: queues again the entries left queued with no job, and
 * marks 'Failed' (with a reason the user can read, and Retry) the entries stuck in 'Analyzing' past
 * their claim's lease. Each write is by etag, so an entry a worker or the user touched meanwhile is
 * left to them.
 */
export async function sweepScans(deps: SweepDeps): Promise<SweepResult> {
  const repos = repositories(deps.store);
  const now = nowOf(deps);
  const lease = deps.claimLeaseMs ?? SCAN_CLAIM_LEASE_MS;
  const result: SweepResult = { requeued: 0, failed: 0 };
  for (const { entry, etag } of await repos.scans.listUnfinishedScanEntries()) {
    const idle = now.getTime() - (Date.parse(entry.updated_at) || 0);
    const job = { userId: entry.userId, fileName: entry.fileName };
    if (entry.status === 'false' && idle > LOST_SCAN_MS) {
      // Touched first, so the next sweep does not queue it again while this job waits.
      if (!(await writeIfUnchanged(repos, { ...entry, updated_at: now.toISOString() }, etag))) continue;
      await deps.queue.enqueue(job);
      result.requeued += 1;
      deps.logger.warn('sweep: queued a scan that had no job', { ...job, idleMs: idle });
    } else if (entry.status === 'Analyzing' && idle > lease) {
      const failed = {
        ...entry,
        status: 'Failed' as const,
        reason: STUCK_SCAN_REASON,
        updated_at: now.toISOString(),
      };
      if (!(await writeIfUnchanged(repos, failed, etag))) continue;
      result.failed += 1;
      deps.logger.warn('sweep: failed a scan stuck in Analyzing', { ...job, idleMs: idle });
    }
  }
  if (result.requeued + result.failed > 0) deps.logger.info('sweep done', { ...result });
  return result;
}

/**
 * A scan job that reached the dead-letter queue (its deliveries all failed without recording it):
 * its entry, if still queued or analysing, is marked 'Failed' with a reason the user can read.
 * @returns whether an entry was marked
 */
export async function failDeadLetteredScan(
  deps: { store: TableStore; logger: Logger; now?: () => Date },
  job: ScanJob,
): Promise<boolean> {
  const repos = repositories(deps.store);
  const found = await repos.scans.getQueueEntry(job.userId, job.fileName);
  if (!found || found.entry.status === 'Failed') return false;
  const failed: QueueRow = {
    ...found.entry,
    status: 'Failed',
    reason: DEAD_LETTER_REASON,
    updated_at: nowOf(deps).toISOString(),
  };
  const marked = await writeIfUnchanged(repos, failed, found.etag);
  if (marked) deps.logger.warn('dead-lettered scan marked failed', { ...job });
  return marked;
}

async function writeIfUnchanged(repos: Repositories, entry: QueueRow, etag: string): Promise<boolean> {
  try {
    await repos.scans.saveQueueEntry(entry, etag);
    return true;
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) return false;
    throw error;
  }
}
