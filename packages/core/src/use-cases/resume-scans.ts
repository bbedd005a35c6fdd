import { ConflictError, NotFoundError } from '../errors';
import type { Logger, ScanQueue } from '../ports';
import { repositories } from '../repository/repositories';
import type { TableStore } from '../table-store';
import { nowOf } from './context';

/**
 * Queues again every scan that was queued or being analysed (e.g. when the local server stopped
 * mid-way), so no upload is lost across a restart. Call it when the worker starts, before it has
 * claimed anything: a scan still marked 'Analyzing' then belongs to a run that died, and its claim
 * is released so the worker does not wait for it to expire.
 * @returns how many scans were queued
 */
export async function resumeScans(deps: {
  store: TableStore;
  queue: ScanQueue;
  logger: Logger;
  now?: () => Date;
}): Promise<number> {
  const repos = repositories(deps.store);
  const found = await repos.scans.listUnfinishedScanEntries();
  const now = nowOf(deps).toISOString();
  for (const { entry, etag } of found) {
    if (entry.status === 'Analyzing') {
      try {
        await repos.scans.saveQueueEntry({ ...entry, status: 'false', updated_at: now }, etag);
      } catch (error) {
        // Changed or removed meanwhile: the worker reads the entry afresh anyway.
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
      }
    }
    await deps.queue.enqueue({ userId: entry.userId, fileName: entry.fileName });
  }
  if (found.length > 0) deps.logger.info('resumed unfinished scans', { count: found.length });
  return found.length;
}
