import { describe, expect, it } from 'vitest';
import { StoreError, silentLogger, type ScanJob } from '@receipts/core';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { processScanBatch } from '../src/scan-batch';

const record = (messageId: string, body: string): SQSRecord =>
  ({
    messageId,
    body,
    receiptHandle: 'h',
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn',
    awsRegion: 'eu-west-1',
  }) as SQSRecord;

describe('the SQS scan handler', () => {
  it('processes each job, drops what is not a job, and reports only unrecorded failures', async () => {
    const seen: ScanJob[] = [];
    const worker = {
      process: async (job: ScanJob) => {
        seen.push(job);
        if (job.fileName === 'down.jpg') throw new StoreError('table store unreachable');
        return { outcome: 'analysed' as const };
      },
    };
    const event: SQSEvent = {
      Records: [
        record('m1', JSON.stringify({ userId: 'alice', fileName: 'a.jpg' })),
        record('m2', 'not json'),
        record('m3', JSON.stringify({ userId: 'alice', fileName: '../etc/passwd' })),
        record('m4', JSON.stringify({ userId: 'bob', fileName: 'down.jpg' })),
      ],
    };
    const answer = await processScanBatch(event, worker, silentLogger);
    expect(seen).toEqual([
      { userId: 'alice', fileName: 'a.jpg' },
      { userId: 'bob', fileName: 'down.jpg' },
    ]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm4' }] });
  });

  it('hands a job that another delivery is analysing back to SQS for later', async () => {
    const worker = {
      process: async (job: ScanJob) => ({
        outcome: job.fileName === 'busy.jpg' ? ('deferred' as const) : ('skipped' as const),
      }),
    };
    const event: SQSEvent = {
      Records: [
        record('m1', JSON.stringify({ userId: 'alice', fileName: 'busy.jpg' })),
        record('m2', JSON.stringify({ userId: 'alice', fileName: 'done.jpg' })),
      ],
    };
    const answer = await processScanBatch(event, worker, silentLogger);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  });
});
