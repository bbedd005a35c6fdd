import { AnalyzerError, ConflictError, NotFoundError, StoreError, ValidationError } from '../errors';
import type { ScanJob } from '../ports';
import type { Repositories } from '../repository/repositories';
import type { QueueRow } from '../repository/rows';
import { nowOf } from './context';
import type { ScanResult, ScanWorkerDeps } from './scan-worker';

/*
 * A delivery's claim on a scan (its queue entry, by etag) and what becomes of the entry when an
 * attempt fails: the scan worker's bookkeeping, apart from the analysis and its writes.
 */

/**
 * How long a delivery's claim on a scan (status 'Analyzing') keeps other deliveries of the same job
 * away. It must be longer than one attempt can run (the analyze function's timeout, 2 minutes) and
 * shorter than the queue's visibility timeout (12 minutes): a message redelivered because its
 * attempt crashed then finds the claim expired and analyses, while a duplicate delivered during a
 * live attempt is deferred.
 */
export const SCAN_CLAIM_LEASE_MS = 5 * 60 * 1000;

export const defaultRetryDelaySeconds = (attempt: number): number => Math.min(300, 10 * 2 ** (attempt - 1));

/**
 * A delivery's claim on a queue entry, by etag. Every write to the entry goes through it, so a
 * delivery never writes over an entry someone else changed or removed since its claim.
 */
export class ClaimFence {
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

export function dropped(deps: ScanWorkerDeps, job: ScanJob, when: string): ScanResult {
  deps.logger.info(`scan dropped: deleted or taken over ${when}`, { ...job });
  return { outcome: 'skipped', reason: 'deleted or taken over' };
}

export function claimExpired(
  updatedAt: string,
  now: Date,
  deps: Pick<ScanWorkerDeps, 'claimLeaseMs'>,
): boolean {
  const at = Date.parse(updatedAt);
  return !Number.isFinite(at) || now.getTime() - at > (deps.claimLeaseMs ?? SCAN_CLAIM_LEASE_MS);
}

export async function recordFailure(
  deps: ScanWorkerDeps,
  fence: ClaimFence,
  error: unknown,
): Promise<ScanResult> {
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
