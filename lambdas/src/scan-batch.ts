import type { Logger, ScanJob } from '@receipts/core';
import { parseScanJob } from '@receipts/queue-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { ScanWorker } from './worker';

/**
 * Runs a batch of SQS scan messages through the worker. Retries with backoff are queued by the scan
 * use case itself, so a message is reported failed (redelivered by SQS, then moved to the dead-letter
 * queue) only when even the failure could not be recorded, or when another delivery of the same scan
 * is under way (the scan is 'deferred'). A message that is not a scan job is
 * dropped: it would never become one.
 */
export async function processScanBatch(
  event: SQSEvent,
  worker: Pick<ScanWorker, 'process'>,
  logger: Logger,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: ScanJob;
    try {
      job = parseScanJob(record.body);
    } catch (error) {
      logger.error('scan message dropped', { messageId: record.messageId, error: String(error) });
      continue;
    }
    try {
      const result = await worker.process(job);
      logger.info('scan message done', { messageId: record.messageId, ...job, outcome: result.outcome });
      // Another delivery holds the scan: SQS hands this one out again after the visibility timeout,
      // when that run has finished (and this one is skipped) or died (and this one analyses).
      if (result.outcome === 'deferred') batchItemFailures.push({ itemIdentifier: record.messageId });
    } catch (error) {
      logger.error('scan message failed; SQS will deliver it again', {
        messageId: record.messageId,
        ...job,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
