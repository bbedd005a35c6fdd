import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { bindInvocation, getServices } from '../composition';
import { processScanBatch } from '../scan-batch';
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
 * The scan worker on AWS: the SQS queue's consumer, with partial batch failures (the event source
 * mapping must report `ReportBatchItemFailures`). The analyzer (ANALYZER) is loaded on first use.
 */
export async function handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  const services = await getServices();
  bindInvocation(services, context);
  return processScanBatch(event, await getWorker(), services.logger);
}
