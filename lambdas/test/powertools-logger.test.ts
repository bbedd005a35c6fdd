import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bindInvocation, createServices } from '../src/composition';
import { loadConfig } from '../src/config';
import { PowertoolsLogger } from '../src/powertools-logger';

const context = (awsRequestId: string): Context =>
  ({
    awsRequestId,
    functionName: 'ReceiptsApi-LogFunction',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:ReceiptsApi-LogFunction',
    memoryLimitInMB: '512',
    logGroupName: '/aws/lambda/ReceiptsApi-LogFunction',
    logStreamName: 'stream',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 10_000,
    done() {},
    fail() {},
    succeed() {},
  }) as Context;

/** The JSON lines Powertools writes (info and below to stdout, warn and error to stderr). */
function captureLines() {
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return lines;
}

describe('PowertoolsLogger', () => {
  beforeEach(() => {
    // Lambda sets these; Powertools reads them when the logger is made.
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
    vi.stubEnv('POWERTOOLS_DEV', '');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('tags each line with the request id, and the first invocation as the cold start', () => {
    const logger = new PowertoolsLogger();
    const lines = captureLines();
    bindInvocation({ logger }, context('request-1'));
    logger.info('request', { route: 'log', status: 200 });
    bindInvocation({ logger }, context('request-2'));
    logger.warn('request refused', { status: 400 });

    expect(lines).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'request',
        service: 'receipts',
        function_request_id: 'request-1',
        cold_start: true,
        route: 'log',
        status: 200,
      }),
      expect.objectContaining({
        level: 'WARN',
        message: 'request refused',
        function_request_id: 'request-2',
        cold_start: false,
        status: 400,
      }),
    ]);
  });

  it('writes an Error field with its name, message, stack and cause', () => {
    const logger = new PowertoolsLogger();
    const lines = captureLines();
    logger.error('request failed', {
      error: new TypeError('store unreachable', { cause: new Error('socket hang up') }),
    });
    expect(lines[0]).toMatchObject({
      level: 'ERROR',
      error: {
        name: 'TypeError',
        message: 'store unreachable',
        stack: expect.stringContaining('TypeError: store unreachable'),
        cause: { name: 'Error', message: 'socket hang up' },
      },
    });
  });

  it('writes nothing below its level', () => {
    const logger = new PowertoolsLogger({ level: 'warn' });
    const lines = captureLines();
    logger.debug('noise');
    logger.info('noise');
    logger.warn('kept');
    expect(lines.map((line) => line.message)).toEqual(['kept']);
  });
});

describe('the logger the composition root picks', () => {
  const local = {
    STORAGE_BACKEND: 'dynamodb',
    SCAN_QUEUE: 'sqs',
    SCAN_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/ScanJobs',
    DYNAMODB_TABLE: 'receipts',
    FIREBASE_PROJECT_ID: 'demo-receipts',
  };
  const build = (env: Record<string, string>) =>
    createServices(loadConfig(env), {
      store: {} as never,
      blobs: {} as never,
      identity: {} as never,
      notifier: {} as never,
    });

  it('is Powertools on Lambda and the JSON logger elsewhere', async () => {
    const cloud = await build({ ...local, AWS_LAMBDA_FUNCTION_NAME: 'ReceiptsApi-LogFunction' });
    const here = await build(local);
    try {
      expect(cloud.logger).toBeInstanceOf(PowertoolsLogger);
      expect(here.logger).not.toBeInstanceOf(PowertoolsLogger);
    } finally {
      await Promise.all([cloud.close(), here.close()]);
    }
  });
});
