import type { ScanJob } from '@receipts/core';
import { parseScanJob } from '@receipts/queue-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getServices } from '../composition';
import { createScanWorker, type ScanWorker } from '../worker';

let worker: Promise<ScanWorker> | undefined;

function getWorker(): Promise<ScanWorker> {
  worker ??= getServices()
    .then((services) => createScanWorker(services))
    .catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
  return worker;
}

/**
 * The scan worker on AWS: the SQS queue's consumer. Each message is one scan job; retries with
 * backoff are queued by the use case itself, so a message is reported failed (and redelivered by
 * SQS, then moved to the dead-letter queue) only when even the failure could not be recorded.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const services = await getServices();
  const scanWorker = await getWorker();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: ScanJob;
    try {
      job = parseScanJob(record.body);
    } catch (error) {
      // A message that is not a job will never become one: drop it rather than retry it.
      services.logger.error('scan message dropped', { messageId: record.messageId, error: String(error) });
      continue;
    }
    try {
      const result = await scanWorker.process(job);
      services.logger.info('scan message done', {
        messageId: record.messageId,
        ...job,
        outcome: result.outcome,
      });
    } catch (error) {
      services.logger.error('scan message failed; SQS will deliver it again', {
        messageId: record.messageId,
        ...job,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
