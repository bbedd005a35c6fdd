import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ConfigurationError, ValidationError, type Logger, type ScanJob } from '@receipts/core';
import { MemoryScanQueue, type MemoryScanQueueOptions } from '../src';

const job = (fileName: string, userId = 'user-1'): ScanJob => ({ userId, fileName });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler that records its calls (with the fake clock's time) and fails as told. */
function recorder(fail: (job: ScanJob, run: number) => unknown = () => undefined, workMs = 0) {
  const calls: Array<{ fileName: string; userId: string; at: number }> = [];
  let running = 0;
  let maxRunning = 0;
  const handler = async (scan: ScanJob) => {
    calls.push({ ...scan, at: Date.now() });
    running++;
    maxRunning = Math.max(maxRunning, running);
    try {
      if (workMs > 0) await wait(workMs);
      const failure = fail(scan, calls.filter((call) => call.fileName === scan.fileName).length);
      if (failure !== undefined) throw failure;
    } finally {
      running--;
    }
  };
  return { handler, calls, maxRunning: () => maxRunning };
}

const queues: MemoryScanQueue[] = [];
function queue(options: MemoryScanQueueOptions): MemoryScanQueue {
  const instance = new MemoryScanQueue(options);
  queues.push(instance);
  return instance;
}

/** Runs every timer (delays, the handler's own work) until the queue has nothing left to do. */
async function finish(scans: MemoryScanQueue): Promise<void> {
  const drained = scans.drain();
  await vi.runAllTimersAsync();
  await drained;
}

const START = Date.parse('2025-03-01T10:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});

afterEach(async () => {
  const closing = Promise.all(queues.splice(0).map((instance) => instance.close()));
  await vi.runAllTimersAsync();
  await closing;
  vi.useRealTimers();
});

describe('MemoryScanQueue', () => {
  it('returns from enqueue before the handler runs, then runs the job once', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });

    const accepted = scans.enqueue(job('a.jpg'));
    expect(calls).toHaveLength(0);
    await accepted;
    expect(calls).toHaveLength(0);
    await finish(scans);

    expect(calls).toEqual([{ userId: 'user-1', fileName: 'a.jpg', at: START }]);
  });

  it('runs one job at a time by default', async () => {
    const { handler, calls, maxRunning } = recorder(undefined, 10);
    const scans = queue({ handler });
    for (const name of ['a', 'b', 'c']) await scans.enqueue(job(name));
    await finish(scans);
    expect(calls.map((call) => [call.fileName, call.at - START])).toEqual([
      ['a', 0],
      ['b', 10],
      ['c', 20],
    ]);
    expect(maxRunning()).toBe(1);
  });

  it('runs up to `concurrency` jobs at once and all of them', async () => {
    const { handler, calls, maxRunning } = recorder(undefined, 20);
    const scans = queue({ handler, concurrency: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await scans.enqueue(job(name));
    await finish(scans);
    expect(calls).toHaveLength(5);
    expect(maxRunning()).toBe(2);
  });

  it('delivers a job when its delay has passed', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });
    await scans.enqueue(job('a.jpg'), { delaySeconds: 10 });

    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ userId: 'user-1', fileName: 'a.jpg', at: START + 10_000 }]);
  });

  it('runs a retry the handler queues for itself after the delay it asked for, not at once', async () => {
    // What the scan use case does: a failed attempt is recorded and enqueued again with a delay.
    const runs: number[] = [];
    const scans: MemoryScanQueue = queue({
      handler: async (scan) => {
        runs.push(Date.now() - START);
        if (runs.length < 3) await scans.enqueue(scan, { delaySeconds: 10 * runs.length });
      },
    });

    await scans.enqueue(job('a.jpg'));
    await finish(scans);

    expect(runs).toEqual([0, 10_000, 30_000]);
  });

  it('delivers a job whose handler threw again after the visibility timeout, and goes on with the others', async () => {
    const errors: Array<{ message: string; context: unknown }> = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message, context) => void errors.push({ message, context }),
    };
    const { handler, calls } = recorder((scan, run) =>
      scan.fileName === 'bad.jpg' && run < 3 ? new Error('table unavailable') : undefined,
    );
    const scans = queue({ handler, logger, visibilityTimeoutSeconds: 20 });

    await scans.enqueue(job('bad.jpg'));
    await scans.enqueue(job('good.jpg'));
    await finish(scans);

    expect(calls.map((call) => `${call.fileName}@${call.at - START}`)).toEqual([
      'bad.jpg@0',
      'good.jpg@0',
      'bad.jpg@20000',
      'bad.jpg@40000',
    ]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toEqual({
      message: 'scan job failed',
      context: { userId: 'user-1', fileName: 'bad.jpg', error: 'Error: table unavailable' },
    });
  });

  it("delivers a job again when its handler answers 'again' (another delivery holds the scan)", async () => {
    const runs: number[] = [];
    const scans = queue({
      visibilityTimeoutSeconds: 7,
      handler: async () => {
        runs.push(Date.now() - START);
        return runs.length === 1 ? 'again' : 'done';
      },
    });
    await scans.enqueue(job('a.jpg'));
    await finish(scans);
    expect(runs).toEqual([0, 7_000]);
  });

  it('hands a job to the dead-letter handler once maxReceiveCount deliveries failed, once', async () => {
    const { handler, calls } = recorder(() => new Error('table unavailable'));
    const deadLettered: Array<{ fileName: string; at: number }> = [];
    const scans = queue({
      handler,
      visibilityTimeoutSeconds: 10,
      maxReceiveCount: 3,
      deadLetter: async (scan) => void deadLettered.push({ fileName: scan.fileName, at: Date.now() - START }),
    });

    await scans.enqueue(job('a.jpg'));
    await finish(scans);

    expect(calls.map((call) => call.at - START)).toEqual([0, 10_000, 20_000]);
    expect(deadLettered).toEqual([{ fileName: 'a.jpg', at: 30_000 }]);
  });

  it('tries the dead-letter handler again after the visibility timeout for as long as it fails', async () => {
    const tries: number[] = [];
    const scans = queue({
      handler: async () => 'again',
      visibilityTimeoutSeconds: 5,
      maxReceiveCount: 1,
      deadLetter: async () => {
        tries.push(Date.now() - START);
        if (tries.length < 3) throw new Error('table unavailable');
      },
    });
    await scans.enqueue(job('a.jpg'));
    await finish(scans);
    expect(tries).toEqual([5_000, 10_000, 15_000]);
  });

  it('without a dead-letter handler, logs and drops a job once every delivery failed', async () => {
    const errors: string[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message) => void errors.push(message),
    };
    const { handler, calls } = recorder(() => new Error('down'));
    const scans = queue({ handler, logger, visibilityTimeoutSeconds: 1, maxReceiveCount: 2 });
    await scans.enqueue(job('a.jpg'));
    await finish(scans);
    expect(calls).toHaveLength(2);
    expect(errors).toEqual([
      'scan job failed',
      'scan job failed',
      'scan job dropped after every delivery failed',
    ]);
  });

  it('counts deliveries afresh for a job enqueued again (a new message), sooner than its redelivery', async () => {
    const { handler, calls } = recorder((_scan, run) => (run <= 2 ? new Error('down') : undefined));
    const deadLettered: string[] = [];
    const scans = queue({
      handler,
      visibilityTimeoutSeconds: 60,
      maxReceiveCount: 2,
      deadLetter: async (scan) => void deadLettered.push(scan.fileName),
    });
    await scans.enqueue(job('a.jpg'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
    // Its second delivery failed: the dead-letter handler is due in 60 s, unless it is queued anew.
    await scans.enqueue(job('a.jpg'), { delaySeconds: 1 });
    await finish(scans);
    expect(calls.map((call) => call.at - START)).toEqual([0, 60_000, 61_000]);
    expect(deadLettered).toEqual([]);
  });

  it('does not queue a job twice while it is due, but keeps other users and files apart', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });

    await scans.enqueue(job('a.jpg'));
    await scans.enqueue(job('a.jpg'));
    await scans.enqueue(job('a.jpg'), { delaySeconds: 5 });
    await scans.enqueue(job('b.jpg'));
    await scans.enqueue(job('a.jpg', 'user-2'));
    await finish(scans);

    expect(calls.map((call) => `${call.userId}/${call.fileName}@${call.at - START}`).sort()).toEqual([
      'user-1/a.jpg@0',
      'user-1/b.jpg@0',
      'user-2/a.jpg@0',
    ]);
  });

  it('brings a waiting job forward when it is enqueued with a shorter delay, and only then', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler });

    await scans.enqueue(job('a.jpg'), { delaySeconds: 60 });
    await scans.enqueue(job('a.jpg'), { delaySeconds: 120 });
    await vi.advanceTimersByTimeAsync(1_000);
    await scans.enqueue(job('a.jpg'), { delaySeconds: 4 });
    await finish(scans);

    expect(calls.map((call) => call.at - START)).toEqual([5_000]);
  });

  it('runs a job once more when it is enqueued again while it runs, after the shortest delay asked', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runs: number[] = [];
    const scans = queue({
      handler: async () => {
        runs.push(Date.now() - START);
        if (runs.length === 1) await gate;
      },
    });

    await scans.enqueue(job('a.jpg'));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([0]);
    await scans.enqueue(job('a.jpg'), { delaySeconds: 30 });
    await scans.enqueue(job('a.jpg'), { delaySeconds: 20 });
    await vi.advanceTimersByTimeAsync(1_000);
    release();
    await finish(scans);

    expect(runs).toEqual([0, 21_000]);
  });

  it('starts a delayed job after the ones due now', async () => {
    const { handler, calls } = recorder();
    const scans = queue({ handler, concurrency: 2 });
    await scans.enqueue(job('later.jpg'), { delaySeconds: 0.05 });
    await scans.enqueue(job('now.jpg'));
    await finish(scans);
    expect(calls.map((call) => [call.fileName, call.at - START])).toEqual([
      ['now.jpg', 0],
      ['later.jpg', 50],
    ]);
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
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['running.jpg']);

    const closing = scans.close();
    release();
    await closing;

    expect(finished).toBe(true);
    // The delayed job's timer is gone with the rest: nothing is left that could start it.
    expect(vi.getTimerCount()).toBe(0);
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

  it('refuses a nonsensical concurrency, visibility timeout or receive count', () => {
    const handler = async () => {};
    expect(() => new MemoryScanQueue({ handler, concurrency: 0 })).toThrow(ConfigurationError);
    expect(() => new MemoryScanQueue({ handler, concurrency: 1.5 })).toThrow(ConfigurationError);
    expect(() => new MemoryScanQueue({ handler, visibilityTimeoutSeconds: 0 })).toThrow(ConfigurationError);
    expect(() => new MemoryScanQueue({ handler, visibilityTimeoutSeconds: Number.NaN })).toThrow(
      ConfigurationError,
    );
    expect(() => new MemoryScanQueue({ handler, maxReceiveCount: 0 })).toThrow(ConfigurationError);
    expect(() => new MemoryScanQueue({ handler, maxReceiveCount: 2.5 })).toThrow(ConfigurationError);
  });
});
