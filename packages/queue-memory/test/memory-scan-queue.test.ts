import { afterEach, describe, expect, it } from 'vitest';
import {
  AnalyzerError,
  AppError,
  ConfigurationError,
  ValidationError,
  type Logger,
  type ScanJob,
} from '@receipts/core';
import { MemoryScanQueue, exponentialBackoff, type MemoryScanQueueOptions } from '../src';

const job = (fileName: string, userId = 'user-1'): ScanJob => ({ userId, fileName });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler that records its calls and fails as told. */
function recorder(fail: (job: ScanJob, attempt: number) => unknown = () => undefined, workMs = 0) {
  const calls: Array<{ fileName: string; userId: string; attempt: number }> = [];
  let running = 0;
  let maxRunning = 0;
  const handler = async (scan: ScanJob, attempt: number) => {
    calls.push({ ...scan, attempt });
    running++;
    maxRunning = Math.max(maxRunning, running);
    try {
      if (workMs > 0) await sleep(workMs);
      const failure = fail(scan, attempt);
      if (failure !== undefined) throw failure;
    } finally {
      running--;
    }
  };
  return { handler, calls, maxRunning: () => maxRunning };
}

const queues: MemoryScanQueue[] = [];
function queue(options: MemoryScanQueueOptions): MemoryScanQueue {
  const instance = new MemoryScanQueue({ retryDelayMs: () => 5, ...options });
  queues.push(instance);
  return instance;
}

afterEach(async () => {
  await Promise.all(queues.splice(0).map((instance) => instance.close()));
});

describe('MemoryScanQueue', () => {
  it('returns from enqueue before the handler runs, then runs the job once', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });

    const accepted = scans.enqueue(job('a.jpg'));
    expect(calls).toHaveLength(0);
    await accepted;
    await scans.drain();

    expect(calls).toEqual([{ userId: 'user-1', fileName: 'a.jpg', attempt: 1 }]);
  });

  it('runs one job at a time by default', async () => {
    const { handler, calls, maxRunning } = recorder(undefined, 10);
    const scans = queue({ handler });
    for (const name of ['a', 'b', 'c']) await scans.enqueue(job(name));
    await scans.drain();
    expect(calls.map((call) => call.fileName)).toEqual(['a', 'b', 'c']);
    expect(maxRunning()).toBe(1);
  });

  it('runs up to `concurrency` jobs at once and all of them', async () => {
    const { handler, calls, maxRunning } = recorder(undefined, 20);
    const scans = queue({ handler, concurrency: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await scans.enqueue(job(name));
    await scans.drain();
    expect(calls).toHaveLength(5);
    expect(maxRunning()).toBe(2);
  });

  it('retries a failed job with the backoff it is given until it succeeds', async () => {
    const delaysAsked: number[] = [];
    const giveUps: ScanJob[] = [];
    const { handler, calls } = recorder((_, attempt) => (attempt < 3 ? new Error('OCR busy') : undefined));
    const scans = queue({
      handler,
      retryDelayMs: (attempt) => {
        delaysAsked.push(attempt);
        return 5;
      },
      onGiveUp: async (scan) => {
        giveUps.push(scan);
      },
    });

    await scans.enqueue(job('a.jpg'));
    await scans.drain();

    expect(calls.map((call) => call.attempt)).toEqual([1, 2, 3]);
    expect(delaysAsked).toEqual([1, 2]);
    expect(giveUps).toEqual([]);
  });

  it('gives up after maxAttempts and reports the last error once', async () => {
    const giveUps: Array<{ scan: ScanJob; error: unknown }> = [];
    const { handler, calls } = recorder((_, attempt) => new Error(`failure ${attempt}`));
    const scans = queue({
      handler,
      maxAttempts: 4,
      onGiveUp: async (scan, error) => {
        giveUps.push({ scan, error });
      },
    });

    await scans.enqueue(job('a.jpg'));
    await scans.drain();

    expect(calls).toHaveLength(4);
    expect(giveUps).toHaveLength(1);
    expect(giveUps[0]!.scan).toEqual(job('a.jpg'));
    expect((giveUps[0]!.error as Error).message).toBe('failure 4');
  });

  it('does not retry an analyzer error that says another attempt cannot help', async () => {
    const giveUps: unknown[] = [];
    const { handler, calls } = recorder(() => new AnalyzerError('Not a receipt', { retryable: false }));
    const scans = queue({ handler, onGiveUp: async (_, error) => void giveUps.push(error) });

    await scans.enqueue(job('a.jpg'));
    await scans.drain();

    expect(calls).toHaveLength(1);
    expect(giveUps).toHaveLength(1);
    expect(giveUps[0]).toBeInstanceOf(AnalyzerError);
  });

  it('retries an analyzer error that may pass', async () => {
    const { handler, calls } = recorder((_, attempt) =>
      attempt === 1 ? new AnalyzerError('Service throttled', { retryable: true }) : undefined,
    );
    const scans = queue({ handler });
    await scans.enqueue(job('a.jpg'));
    await scans.drain();
    expect(calls.map((call) => call.attempt)).toEqual([1, 2]);
  });

  it('does not queue a job twice while it waits, but keeps other users and files apart', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });

    await scans.enqueue(job('a.jpg'));
    await scans.enqueue(job('a.jpg'));
    await scans.enqueue(job('a.jpg'), { delaySeconds: 0.01 });
    await scans.enqueue(job('b.jpg'));
    await scans.enqueue(job('a.jpg', 'user-2'));
    await scans.drain();

    expect(calls.map((call) => `${call.userId}/${call.fileName}`).sort()).toEqual([
      'user-1/a.jpg',
      'user-1/b.jpg',
      'user-2/a.jpg',
    ]);
  });

  it('does not add a job that waits for its retry', async () => {
    const { handler, calls } = recorder((_, attempt) => (attempt === 1 ? new Error('once') : undefined));
    const scans = queue({ handler, retryDelayMs: () => 30 });
    await scans.enqueue(job('a.jpg'));
    while (calls.length === 0) await sleep(1);
    await sleep(5);
    await scans.enqueue(job('a.jpg'));
    await scans.drain();
    expect(calls.map((call) => call.attempt)).toEqual([1, 2]);
  });

  it('runs a job once more when it is enqueued again while it runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const attempts: number[] = [];
    const scans = queue({
      handler: async (_, attempt) => {
        attempts.push(attempt);
        if (attempts.length === 1) await gate;
      },
    });

    await scans.enqueue(job('a.jpg'));
    while (attempts.length === 0) await sleep(1);
    await scans.enqueue(job('a.jpg'));
    await scans.enqueue(job('a.jpg'));
    release();
    await scans.drain();

    expect(attempts).toEqual([1, 1]);
  });

  it('starts a delayed job after the ones due now', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler, concurrency: 2 });
    await scans.enqueue(job('later.jpg'), { delaySeconds: 0.05 });
    await scans.enqueue(job('now.jpg'));
    await scans.drain();
    expect(calls.map((call) => call.fileName)).toEqual(['now.jpg', 'later.jpg']);
  });

  it('keeps working when recording a give-up fails, and logs it', async () => {
    const errors: string[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message) => void errors.push(message),
    };
    const { handler, calls } = recorder((scan) =>
      scan.fileName === 'bad.jpg' ? new Error('broken') : undefined,
    );
    const scans = queue({
      handler,
      maxAttempts: 1,
      logger,
      onGiveUp: async () => {
        throw new Error('table unavailable');
      },
    });

    await scans.enqueue(job('bad.jpg'));
    await scans.enqueue(job('good.jpg'));
    await scans.drain();

    expect(calls.map((call) => call.fileName)).toEqual(['bad.jpg', 'good.jpg']);
    expect(errors).toContain('recording a failed scan failed');
  });

  it('resolves drain at once when idle', async () => {
    const scans = queue({ handler: async () => {} });
    await expect(scans.drain()).resolves.toBeUndefined();
  });

  it('on close, finishes the running job, drops waiting ones and refuses new ones', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    let finished = false;
    const scans = queue({
      handler: async (scan) => {
        started.push(scan.fileName);
        await gate;
        finished = true;
      },
    });

    await scans.enqueue(job('running.jpg'));
    await scans.enqueue(job('queued.jpg'));
    await scans.enqueue(job('delayed.jpg'), { delaySeconds: 0.02 });
    while (started.length === 0) await sleep(1);

    const closing = scans.close();
    release();
    await closing;
    await sleep(40);

    expect(finished).toBe(true);
    expect(started).toEqual(['running.jpg']);
    const refused = await scans.enqueue(job('new.jpg')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('QueueClosed');
  });

  it('refuses malformed jobs and delays', async () => {
    const scans = queue({ handler: async () => {} });
    await expect(scans.enqueue({ userId: '', fileName: 'a.jpg' })).rejects.toBeInstanceOf(ValidationError);
    await expect(scans.enqueue({ userId: 'u' } as ScanJob)).rejects.toBeInstanceOf(ValidationError);
    await expect(scans.enqueue(job('a.jpg'), { delaySeconds: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(scans.enqueue(job('a.jpg'), { delaySeconds: Number.NaN })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('refuses nonsensical limits', () => {
    const handler = async () => {};
    expect(() => new MemoryScanQueue({ handler, concurrency: 0 })).toThrow(ConfigurationError);
    expect(() => new MemoryScanQueue({ handler, maxAttempts: 1.5 })).toThrow(ConfigurationError);
  });

  it('backs off 1 s, 4 s, 16 s by default', () => {
    expect([1, 2, 3].map(exponentialBackoff)).toEqual([1000, 4000, 16000]);
  });
});
