import { isStale } from '../contract/routes';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../errors';
import type { Identity } from '../ports';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, nowOf, type AppDeps } from './context';

export { isStale };

/** Queues a failed (or stuck) scan again with fresh attempts (POST /api/retryScan). */
export async function retryScan(
  deps: AppDeps,
  identity: Identity,
  input: { userId: string; fileName: string },
): Promise<{ fileName: string; status: 'false' }> {
  assertOwnUserId(identity, input.userId);
  const repos = repositories(deps.store);
  const found = await repos.scans.getQueueEntry(identity.uid, input.fileName);
  if (!found) {
    throw new NotFoundError(`There is no scan named "${input.fileName}" in your queue.`, {
      code: 'ScanNotFound',
    });
  }
  const now = nowOf(deps);
  if (found.entry.status !== 'Failed' && !isStale(found.entry.updated_at, now)) {
    throw new ConflictError(`"${input.fileName}" is already queued or being analysed.`, {
      code: 'AlreadyQueued',
    });
  }
  // The etag makes two retries at once queue the scan once. The store's own words for the loser
  // name tables and keys; the user gets what happened instead.
  try {
    await repos.scans.saveQueueEntry(
      { ...found.entry, status: 'false', reason: null, attempts: 0, updated_at: now.toISOString() },
      found.etag,
    );
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new ConflictError(`"${input.fileName}" is already queued or being analysed.`, {
        code: 'AlreadyQueued',
        cause: error,
      });
    }
    if (error instanceof NotFoundError) {
      throw new NotFoundError(`There is no scan named "${input.fileName}" in your queue.`, {
        code: 'ScanNotFound',
        cause: error,
      });
    }
    throw error;
  }
  try {
    await deps.queue.enqueue({ userId: identity.uid, fileName: input.fileName });
  } catch (error) {
    // Left 'false' with no job, the scan would sit as queued with nothing to run it and no retry
    // allowed until it went stale; marked Failed, the user can retry it at once.
    deps.logger.error('enqueue failed', {
      userId: identity.uid,
      fileName: input.fileName,
      error: String(error),
    });
    await repos.scans.saveQueueEntry({
      ...found.entry,
      status: 'Failed',
      reason: 'The receipt could not be queued for analysis. Retry it.',
      updated_at: now.toISOString(),
    });
    throw new ServiceUnavailableError('The receipt could not be queued for analysis; retry it in a moment.', {
      cause: error,
      code: 'QueueUnavailable',
    });
  }
  return { fileName: input.fileName, status: 'false' };
}
