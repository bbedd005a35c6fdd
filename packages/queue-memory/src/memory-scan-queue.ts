import {
  AppError,
  ConfigurationError,
  ValidationError,
  silentLogger,
  type Logger,
  type ScanJob,
  type ScanQueue,
} from '@receipts/core';

/** Options of {@link MemoryScanQueue}. */
export interface MemoryScanQueueOptions {
  /**
   * Processes one job. Retries are not the queue's business: the scan use case records a failed
   * attempt and enqueues the job again with a delay, as it does on SQS. A rejection means even that
   * failed; it is logged and the job dropped (the scan sweep finds the entry and queues it again).
   */
  handler: (job: ScanJob) => Promise<unknown>;
  /** Jobs processed at the same time; default 1. */
  concurrency?: number;
  logger?: Logger;
}

interface Entry {
  job: ScanJob;
  key: string;
}

/** A job waiting for its delay, due at `dueAt` (ms since the epoch). */
interface Waiting {
  entry: Entry;
  dueAt: number;
  timer: ReturnType<typeof setTimeout>;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < 1) {
    throw new ConfigurationError(
      `The scan queue's ${name} must be a whole number of at least 1, not ${value}.`,
      {
        code: 'InvalidQueueOption',
      },
    );
  }
  return result;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The in-process ScanQueue of the local server: jobs run in the background, at most `concurrency` at
 * a time, each when its `delaySeconds` have passed. Like SQS it only delivers: a failed attempt is
 * queued again by the scan use case, with the delay it chooses. Nothing here survives a restart —
 * the queue table does, and the server re-enqueues what it finds there when it starts.
 */
export class MemoryScanQueue implements ScanQueue {
  private readonly handler: MemoryScanQueueOptions['handler'];
  private readonly concurrency: number;
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
   * @param options - the handler, the concurrency and the logger
   * @throws ConfigurationError when concurrency is not a whole number of at least 1
   */
  constructor(options: MemoryScanQueueOptions) {
    this.handler = options.handler;
    this.concurrency = positiveInteger(options.concurrency, 1, 'concurrency');
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
    this.schedule({ job: { userId: job.userId, fileName: job.fileName }, key }, delayMs);
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
      void this.run(entry);
    }
    this.notifyIfIdle();
  }

  private async run(entry: Entry): Promise<void> {
    const { job, key } = entry;
    this.running.add(key);
    try {
      await this.handler(job);
    } catch (error) {
      this.logger.error('scan job failed and was dropped; the scan sweep queues it again', {
        ...job,
        error: messageOf(error),
      });
    } finally {
      this.running.delete(key);
      const delayMs = this.rerun.get(key);
      this.rerun.delete(key);
      if (delayMs !== undefined && !this.closed) this.schedule(entry, delayMs);
      this.pump();
    }
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
