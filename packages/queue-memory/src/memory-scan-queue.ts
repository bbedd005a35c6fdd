import {
  AppError,
  ConfigurationError,
  ValidationError,
  silentLogger,
  type Logger,
  type ScanJob,
  type ScanQueue,
} from '@receipts/core';

/**
 * What the handler made of a delivery: `'done'` (or nothing) takes the job off the queue; `'again'`
 * leaves it there to be delivered again after the visibility timeout, as SQS does with a message its
 * consumer reports failed.
 */
export type DeliveryOutcome = 'done' | 'again';

/** Options of {@link MemoryScanQueue}. */
export interface MemoryScanQueueOptions {
  /**
   * Processes one job. The scan use case records a failed attempt and enqueues the job again with
   * a delay, as it does on SQS. A rejection (even that failed) or `'again'` (another delivery holds
   * the scan) leaves the job on the queue: it is delivered again after `visibilityTimeoutSeconds`,
   * up to `maxReceiveCount` deliveries, and then handed to `deadLetter`.
   */
  handler: (job: ScanJob) => Promise<DeliveryOutcome | void>;
  /**
   * What the cloud's dead-letter consumer does with a job: called once a job's `maxReceiveCount`
   * deliveries all failed, and again after the visibility timeout for as long as it rejects. Without
   * it such a job is logged and dropped.
   */
  deadLetter?: (job: ScanJob) => Promise<unknown>;
  /** Jobs processed at the same time; default 1. */
  concurrency?: number;
  /** Seconds before a failed delivery is made again (SQS's visibility timeout); default 30. */
  visibilityTimeoutSeconds?: number;
  /** Deliveries of a job before it goes to `deadLetter` (SQS's maxReceiveCount); default 5. */
  maxReceiveCount?: number;
  logger?: Logger;
}

interface Entry {
  job: ScanJob;
  key: string;
  /** Deliveries to the handler so far (SQS's ApproximateReceiveCount). */
  receives: number;
  /** Every delivery failed: the job now goes to the dead-letter handler. */
  deadLettered: boolean;
}

/** A job waiting for its delay, due at `dueAt` (ms since the epoch). */
interface Waiting {
  entry: Entry;
  dueAt: number;
  timer: ReturnType<typeof setTimeout>;
}

function positiveNumber(value: number | undefined, fallback: number, name: string, whole: boolean): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result <= 0 || (whole && !Number.isInteger(result))) {
    const kind = whole ? 'a whole number of at least 1' : 'a number of seconds above 0';
    throw new ConfigurationError(`The scan queue's ${name} must be ${kind}, not ${value}.`, {
      code: 'InvalidQueueOption',
    });
  }
  return result;
}

const freshEntry = (job: ScanJob, key: string): Entry => ({ job, key, receives: 0, deadLettered: false });

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The in-process ScanQueue of the local server: jobs run in the background, at most `concurrency` at
 * a time, each when its `delaySeconds` have passed. A failed attempt is queued again by the scan use
 * case, with the delay it chooses; a delivery that could not even record its failure is made again
 * after the visibility timeout and, after `maxReceiveCount` of them, goes to the dead-letter handler,
 * as SQS with its redrive policy does. Nothing here survives a restart — the queue table does, and
 * the server re-enqueues what it finds there when it starts.
 */
export class MemoryScanQueue implements ScanQueue {
  private readonly handler: MemoryScanQueueOptions['handler'];
  private readonly deadLetter: MemoryScanQueueOptions['deadLetter'];
  private readonly concurrency: number;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number;
  private readonly logger: Logger;

  private readonly ready: Entry[] = [];
  private readonly readyKeys = new Set<string>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly running = new Set<string>();
  /**
   * Jobs enqueued again while they ran, with the earliest delay asked for (ms): one more run follows,
   * that long after the run ends, so a retry the handler queues for itself keeps its delay.
   */
  private readonly rerun = new Map<string, number>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  /**
   * @param options - the handlers, the concurrency, the redelivery settings and the logger
   * @throws ConfigurationError when concurrency or maxReceiveCount is not a whole number of at least
   *   1, or the visibility timeout is not a positive number of seconds
   */
  constructor(options: MemoryScanQueueOptions) {
    this.handler = options.handler;
    this.deadLetter = options.deadLetter;
    this.concurrency = positiveNumber(options.concurrency, 1, 'concurrency', true);
    this.visibilityMs =
      positiveNumber(options.visibilityTimeoutSeconds, 30, 'visibility timeout', false) * 1000;
    this.maxReceiveCount = positiveNumber(options.maxReceiveCount, 5, 'maxReceiveCount', true);
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Accepts a job and returns at once; the handler runs later, never inside this call. A job whose
   * (userId, fileName) is already due is not added twice; one waiting for its delay is brought
   * forward when this enqueue asks for less; one enqueued while it runs runs once more afterwards,
   * after the delay asked for.
   *
   * @param job - the user and the receipt image to analyse
   * @param options - `delaySeconds` postpones the delivery (0 by default)
   * @throws ValidationError when the job or the delay is malformed; AppError (code `QueueClosed`) after close()
   */
  async enqueue(job: ScanJob, options?: { delaySeconds?: number }): Promise<void> {
    if (
      typeof job !== 'object' ||
      job === null ||
      typeof job.userId !== 'string' ||
      job.userId === '' ||
      typeof job.fileName !== 'string' ||
      job.fileName === ''
    ) {
      throw new ValidationError('A scan job needs a userId and a fileName.', { code: 'InvalidScanJob' });
    }
    const delaySeconds = options?.delaySeconds ?? 0;
    if (!Number.isFinite(delaySeconds) || delaySeconds < 0) {
      throw new ValidationError(`A scan job's delay must be zero or more seconds, not ${delaySeconds}.`, {
        code: 'InvalidScanJob',
      });
    }
    if (this.closed) {
      throw new AppError('The scan queue is shut down and takes no more jobs.', { code: 'QueueClosed' });
    }
    const delayMs = delaySeconds * 1000;
    const key = JSON.stringify([job.userId, job.fileName]);
    if (this.running.has(key)) {
      this.rerun.set(key, Math.min(delayMs, this.rerun.get(key) ?? Infinity));
      return;
    }
    if (this.readyKeys.has(key)) {
      this.logger.debug('scan job already queued', { userId: job.userId, fileName: job.fileName });
      return;
    }
    const waiting = this.waiting.get(key);
    if (waiting) {
      if (Date.now() + delayMs >= waiting.dueAt) {
        this.logger.debug('scan job already queued', { userId: job.userId, fileName: job.fileName });
        return;
      }
      clearTimeout(waiting.timer);
      this.waiting.delete(key);
    }
    this.schedule(freshEntry({ userId: job.userId, fileName: job.fileName }, key), delayMs);
  }

  /** Resolves once no job is running, due or waiting for its delay (tests, `idle()` of the local stack). */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Takes no more jobs, drops the ones not started (the queue table keeps them for the next start)
   * and resolves when the running ones have finished.
   */
  async close(): Promise<void> {
    this.closed = true;
    const dropped = this.ready.length + this.waiting.size + this.rerun.size;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.ready.length = 0;
    this.readyKeys.clear();
    this.rerun.clear();
    if (dropped > 0) this.logger.info('scan queue closed with jobs not started', { dropped });
    this.notifyIfIdle();
    await this.drain();
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.waiting.delete(entry.key);
        this.makeReady(entry);
        this.pump();
      }, delayMs);
      this.waiting.set(entry.key, { entry, dueAt: Date.now() + delayMs, timer });
      return;
    }
    this.makeReady(entry);
    // Deferred so that enqueue() never runs the handler itself.
    setImmediate(() => this.pump());
  }

  private makeReady(entry: Entry): void {
    this.readyKeys.add(entry.key);
    this.ready.push(entry);
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      this.readyKeys.delete(entry.key);
      if (!entry.deadLettered) entry.receives += 1;
      void this.run(entry);
    }
    this.notifyIfIdle();
  }

  private async run(entry: Entry): Promise<void> {
    const { job, key } = entry;
    this.running.add(key);
    let failed = false;
    try {
      if (entry.deadLettered) await this.deadLetter!(job);
      else failed = (await this.handler(job)) === 'again';
    } catch (error) {
      failed = true;
      this.logger.error(entry.deadLettered ? 'dead-lettered scan job not handled' : 'scan job failed', {
        ...job,
        error: messageOf(error),
      });
    } finally {
      this.running.delete(key);
      const delayMs = this.rerun.get(key);
      this.rerun.delete(key);
      if (!this.closed) {
        // A job enqueued while it ran is a new message: it runs once more, and stands in for this
        // delivery if it failed.
        if (delayMs !== undefined) this.schedule(freshEntry(job, key), delayMs);
        else if (failed) this.deliverAgain(entry);
      }
      this.pump();
    }
  }

  /**
   * A delivery that failed: made again after the visibility timeout, or once every delivery has
   * failed, handed to the dead-letter handler after it.
   */
  private deliverAgain(entry: Entry): void {
    const { job, key } = entry;
    if (entry.deadLettered || entry.receives < this.maxReceiveCount) {
      this.schedule(entry, this.visibilityMs);
      return;
    }
    if (!this.deadLetter) {
      this.logger.error('scan job dropped after every delivery failed', { ...job, receives: entry.receives });
      return;
    }
    this.logger.warn('scan job dead-lettered after every delivery failed', {
      ...job,
      receives: entry.receives,
    });
    this.schedule({ job, key, receives: entry.receives, deadLettered: true }, this.visibilityMs);
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.ready.length === 0 && this.waiting.size === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
