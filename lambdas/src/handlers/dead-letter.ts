import { failDeadLetteredScan, type ScanJob } from '@receipts/core';
import { parseScanJob } from '@receipts/queue-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { bindInvocation, getServices } from '../composition';

/**
 * The consumer of the scan queue's dead-letter queue: each job there had every delivery fail
 * without recording why, so its scan is marked 'Failed' with a reason the user can read (and Retry).
 * A message that is not a scan job is logged and dropped; a store error leaves the message for
 * another try.
 */
export async function handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  const services = await getServices();
  bindInvocation(services, context);
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: ScanJob;
    try {
      job = parseScanJob(record.body);
    } catch (error) {
      services.logger.error('dead-letter message dropped', {
        messageId: record.messageId,
        error: String(error),
      });
      continue;
    }
    try {
      await failDeadLetteredScan(services, job);
    } catch (error) {
      services.logger.error('dead-lettered scan not marked', { ...job, error: String(error) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
