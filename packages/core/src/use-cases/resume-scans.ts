import type { Logger, ScanQueue } from '../ports';
import { ReceiptRepository } from '../repository/receipt-repository';
import type { TableStore } from '../table-store';

/**
 * Queues again every scan that was queued or being analysed (e.g. when the local server stopped
 * mid-way), so no upload is lost across a restart.
 * @returns how many scans were queued
 */
export async function resumeScans(deps: {
  store: TableStore;
  queue: ScanQueue;
  logger: Logger;
}): Promise<number> {
  const jobs = await new ReceiptRepository(deps.store).listUnfinishedScans();
  for (const job of jobs) await deps.queue.enqueue(job);
  if (jobs.length > 0) deps.logger.info('resumed unfinished scans', { count: jobs.length });
  return jobs.length;
}
