import { QueueDoesNotExist, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '@receipts/core';
import { ConfigurationError, ServiceUnavailableError, ValidationError } from '@receipts/core';
import { SqsScanQueue, parseScanJob } from '../src';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/scan-queue';
const client = new SQSClient({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});
const sqs = mockClient(client);

describe('SqsScanQueue', () => {
  let queue: SqsScanQueue;

  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    queue = new SqsScanQueue({ client, queueUrl: QUEUE_URL });
  });

  it('sends the job as a JSON message without a delay by default', async () => {
    await queue.enqueue({ userId: 'user-1', fileName: '1700000000000-receipt.jpg' });

    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: '{"userId":"user-1","fileName":"1700000000000-receipt.jpg"}',
    });
  });

  it('sends only userId and fileName, whatever else the object carries', async () => {
    const job = { userId: 'user-1', fileName: 'a.jpg', secret: 'x' } as { userId: string; fileName: string };
    await queue.enqueue(job);
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toEqual({
      userId: 'user-1',
      fileName: 'a.jpg',
    });
  });

  it('asks SQS for a delay in whole seconds, at most 900', async () => {
    await queue.enqueue({ userId: 'u', fileName: 'a.jpg' }, { delaySeconds: 4 });
    await queue.enqueue({ userId: 'u', fileName: 'b.jpg' }, { delaySeconds: 1.2 });
    await queue.enqueue({ userId: 'u', fileName: 'c.jpg' }, { delaySeconds: 3600 });
    await queue.enqueue({ userId: 'u', fileName: 'd.jpg' }, { delaySeconds: 0 });

    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.DelaySeconds)).toEqual([
      4, 2, 900, 0,
    ]);
  });

  it('refuses malformed jobs and delays before calling SQS', async () => {
    await expect(queue.enqueue({ userId: '', fileName: 'a.jpg' })).rejects.toBeInstanceOf(ValidationError);
    await expect(queue.enqueue({ userId: 'u', fileName: '../a.jpg' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      queue.enqueue({ userId: 'u', fileName: 'a.jpg' }, { delaySeconds: -5 }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('reports a missing queue as configuration and other failures as unavailable, with the cause', async () => {
    sqs.reset();
    sqs.on(SendMessageCommand).rejects(new QueueDoesNotExist({ message: 'gone', $metadata: {} }));
    await expect(queue.enqueue({ userId: 'u', fileName: 'a.jpg' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );

    const throttled = new Error('Rate exceeded');
    sqs.reset();
    sqs.on(SendMessageCommand).rejects(throttled);
    const error = await queue.enqueue({ userId: 'u', fileName: 'a.jpg' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as AppError).code).toBe('QueueUnavailable');
    expect((error as AppError).cause).toBe(throttled);
  });

  it('refuses a missing queue URL', () => {
    expect(() => new SqsScanQueue({ client, queueUrl: '' })).toThrow(ConfigurationError);
  });
});

describe('parseScanJob', () => {
  it('reads the body SqsScanQueue sends', async () => {
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({});
    await new SqsScanQueue({ client, queueUrl: QUEUE_URL }).enqueue({ userId: 'user-1', fileName: 'a.jpg' });
    const body = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody;

    expect(parseScanJob(body)).toEqual({ userId: 'user-1', fileName: 'a.jpg' });
  });

  it('drops unknown fields', () => {
    expect(parseScanJob('{"userId":"u","fileName":"a.jpg","extra":1}')).toEqual({
      userId: 'u',
      fileName: 'a.jpg',
    });
  });

  it('refuses bodies that are not a scan job, saying why', () => {
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /no body/],
      ['', /no body/],
      ['not json', /not JSON/],
      ['[1,2]', /object/],
      ['null', /object/],
      ['{"fileName":"a.jpg"}', /userId is required/],
      ['{"userId":"u","fileName":"../../etc/passwd"}', /plain file name/],
      ['{"userId":"u/../v","fileName":"a.jpg"}', /userId may contain only/],
    ];
    for (const [body, reason] of cases) {
      let caught: unknown;
      try {
        parseScanJob(body);
      } catch (error) {
        caught = error;
      }
      expect(caught, String(body)).toBeInstanceOf(ValidationError);
      expect((caught as Error).message, String(body)).toMatch(reason);
    }
  });
});
