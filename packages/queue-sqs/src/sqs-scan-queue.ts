import type { SQSClient } from '@aws-sdk/client-sqs';
import {
  ConfigurationError,
  ServiceUnavailableError,
  ValidationError,
  type ScanJob,
  type ScanQueue,
} from '@receipts/core';
import { fileNameSchema } from '@receipts/core/contract/requests';
import { idSchema } from '@receipts/core/contract/ids';

/** Options of {@link SqsScanQueue}. */
export interface SqsScanQueueOptions {
  /** A configured client; the queue never builds its own. */
  client: SQSClient;
  /** URL of the scan queue (its dead-letter queue is configured on the queue itself). */
  queueUrl: string;
}

/** SQS delays a message by at most 15 minutes. */
export const MAX_DELAY_SECONDS = 900;

const userIdField = idSchema('userId');
const fileNameField = fileNameSchema('fileName');

/** Checks a value against core's id and file name schemas; the reasons are meant for a person. */
function validateJob(value: unknown): { job: ScanJob } | { reasons: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { reasons: 'expected an object with userId and fileName.' };
  }
  const record = value as Record<string, unknown>;
  const userId = userIdField.safeParse(record.userId);
  const fileName = fileNameField.safeParse(record.fileName);
  if (userId.success && fileName.success) return { job: { userId: userId.data, fileName: fileName.data } };
  const issues = [...(userId.error?.issues ?? []), ...(fileName.error?.issues ?? [])];
  return { reasons: issues.map((issue) => issue.message).join(' ') };
}

/**
 * Reads the body of a scan message (what {@link SqsScanQueue} sends) into a job. The analyze function
 * calls this for each SQS record.
 *
 * @param body - the message body, JSON `{ "userId": …, "fileName": … }`
 * @throws ValidationError saying what is wrong when the body is not such a job
 */
export function parseScanJob(body: string | null | undefined): ScanJob {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new ValidationError('The scan message has no body.', { code: 'InvalidScanMessage' });
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new ValidationError('The scan message is not JSON.', { code: 'InvalidScanMessage', cause: error });
  }
  const result = validateJob(value);
  if ('reasons' in result) {
    throw new ValidationError(`The scan message is not a scan job: ${result.reasons}`, {
      code: 'InvalidScanMessage',
    });
  }
  return result.job;
}

/** The ScanQueue of the cloud: one SQS message per job, consumed by the analyze function. */
export class SqsScanQueue implements ScanQueue {
  private readonly client: SQSClient;
  private readonly queueUrl: string;

  /** @param options - the SQS client and the queue URL */
  constructor(options: SqsScanQueueOptions) {
    if (!options.queueUrl || options.queueUrl.trim() === '') {
      throw new ConfigurationError('The scan queue URL is not configured.', { code: 'MissingQueueUrl' });
    }
    this.client = options.client;
    this.queueUrl = options.queueUrl;
  }

  /**
   * Sends the job as a message.
   *
   * @param job - the user and the receipt image to analyse
   * @param options - `delaySeconds` postpones delivery; rounded up to whole seconds and capped at 900
   * @throws ValidationError when the job or the delay is malformed; ServiceUnavailableError (code `QueueUnavailable`)
   *   with the SDK error as cause when SQS refuses the message
   */
  async enqueue(job: ScanJob, options?: { delaySeconds?: number }): Promise<void> {
    const result = validateJob(job);
    if ('reasons' in result) {
      throw new ValidationError(`A scan job needs a valid userId and fileName: ${result.reasons}`, {
        code: 'InvalidScanJob',
      });
    }
    const delaySeconds = options?.delaySeconds;
    if (delaySeconds !== undefined && (!Number.isFinite(delaySeconds) || delaySeconds < 0)) {
      throw new ValidationError(`A scan job's delay must be zero or more seconds, not ${delaySeconds}.`, {
        code: 'InvalidScanJob',
      });
    }
    // Imported here rather than with the module: the worker and the dead-letter consumer import this
    // package for parseScanJob when they start, and should not load the SQS client with it.
    const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
    try {
      await this.client.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: JSON.stringify(result.job),
          ...(delaySeconds === undefined
            ? {}
            : { DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.ceil(delaySeconds)) }),
        }),
      );
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue') {
        throw new ConfigurationError(`The scan queue ${this.queueUrl} does not exist.`, {
          code: 'NoSuchQueue',
          cause: error,
        });
      }
      throw new ServiceUnavailableError('The scan could not be queued. Try again in a moment.', {
        code: 'QueueUnavailable',
        cause: error,
      });
    }
  }
}
