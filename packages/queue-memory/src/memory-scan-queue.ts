import {
  AnalyzerError,
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
  /** Processes one job; a rejection is a failed attempt. `attempt` counts from 1. */
  handler: (job: ScanJob, attempt: number) => Promise<void>;
  /** Jobs processed at the same time; default 1. */
  concurrency?: number;
  /** Attempts per job, the first included; default 3. */
  maxAttempts?: number;
  /** Wait before the next attempt, given the number of the attempt that failed; default {@link exponentialBackoff}. */
  retryDelayMs?: (attempt: number) => number;
  /** Called once when a job failed for the last time, with the last error. */
  onGiveUp?: (job: ScanJob, error: unknown) => Promise<void>;
  logger?: Logger;
}

/** 1 s after the first failure, then 4 s, 16 s, … */
export function exponentialBackoff(attempt: number): number {
  return 1000 * 4 ** (attempt - 1);
}

interface Entry {
  job: ScanJob;
  key: string;
  attempt: number;
}

type State = 'ready' | 'waiting' | 'running';

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
  return error instanceof Error ? error.message : String(error);
}

/**
 * The in-process ScanQueue of the local server: jobs run in the background, at most `concurrency` at
 * a time, and failed attempts are retried with backoff. Nothing here survives a restart — the queue
 * table does, and the server re-enqueues what it finds there when it starts.
 */
export class MemoryScanQueue implements ScanQueue {
  private readonly handler: MemoryScanQueueOptions['handler'];
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly onGiveUp: MemoryScanQueueOptions['onGiveUp'];
  private readonly logger: Logger;

  private readonly ready: Entry[] = [];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly states = new Map<string, State>();
  /** Jobs enqueued again while they ran: one more run follows, so a retry asked for then is not lost. */
  private readonly rerun = new Set<string>();
  private idleWaiters: Array<() => void> = [];
  private active = 0;
  private closed = false;

  /**
   * @param options - the handler, limits, backoff, give-up callback and logger
   * @throws ConfigurationError when concurrency or maxAttempts is not a whole number of at least 1
   */
  constructor(options: MemoryScanQueueOptions) {
    this.handler = options.handler;
    this.concurrency = positiveInteger(options.concurrency, 1, 'concurrency');
    this.maxAttempts = positiveInteger(options.maxAttempts, 3, 'maxAttempts');
    this.retryDelayMs = options.retryDelayMs ?? exponentialBackoff;
    this.onGiveUp = options.onGiveUp;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Accepts a job and returns at once; the handler runs later, never inside this call. A job whose
   * (userId, fileName) is already waiting is not added twice; one enqueued while it runs runs once
   * more afterwards.
   *
   * @param job - the user and the receipt image to analyse
   * @param options - `delaySeconds` postpones the first attempt
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
    const key = JSON.stringify([job.userId, job.fileName]);
    const state = this.states.get(key);
    if (state === 'running') {
      this.rerun.add(key);
      return;
    }
    if (state !== undefined) {
      this.logger.debug('scan job already queued', { userId: job.userId, fileName: job.fileName });
      return;
    }
    this.schedule(
      { job: { userId: job.userId, fileName: job.fileName }, key, attempt: 1 },
      delaySeconds * 1000,
    );
  }

  /** Resolves once no job is running, ready or waiting for a retry (tests). */
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
    const dropped = this.ready.length + this.timers.size;
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const entry of this.ready) this.states.delete(entry.key);
    for (const key of this.timers.keys()) this.states.delete(key);
    this.timers.clear();
    this.ready.length = 0;
    this.rerun.clear();
    if (dropped > 0) this.logger.info('scan queue closed with jobs not started', { dropped });
    this.notifyIfIdle();
    await this.drain();
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (delayMs > 0) {
      this.states.set(entry.key, 'waiting');
      const timer = setTimeout(() => {
        this.timers.delete(entry.key);
        this.states.set(entry.key, 'ready');
        this.ready.push(entry);
        this.pump();
      }, delayMs);
      this.timers.set(entry.key, timer);
      return;
    }
    this.states.set(entry.key, 'ready');
    this.ready.push(entry);
    // Deferred so that enqueue() never runs the handler itself.
    setImmediate(() => this.pump());
  }

  private pump(): void {
    while (!this.closed && this.active < this.concurrency && this.ready.length > 0) {
      void this.run(this.ready.shift()!);
    }
    this.notifyIfIdle();
  }

  private async run(entry: Entry): Promise<void> {
    const { job, key, attempt } = entry;
    this.active++;
    this.states.set(key, 'running');
    try {
      await this.handler(job, attempt);
      this.states.delete(key);
    } catch (error) {
      this.states.delete(key);
      await this.failed(entry, error);
    } finally {
      this.active--;
      if (this.rerun.delete(key) && !this.states.has(key) && !this.closed) {
        this.schedule({ job, key, attempt: 1 }, 0);
      }
      this.pump();
    }
  }

  private async failed({ job, key, attempt }: Entry, error: unknown): Promise<void> {
    const retryable = !(error instanceof AnalyzerError && !error.retryable);
    if (retryable && attempt < this.maxAttempts && !this.closed) {
      const delayMs = Math.max(0, this.retryDelayMs(attempt));
      this.logger.warn('scan attempt failed; retrying', {
        ...job,
        attempt,
        delayMs,
        error: messageOf(error),
      });
      this.schedule({ job, key, attempt: attempt + 1 }, delayMs);
      return;
    }
    this.logger.error('scan failed; giving up', { ...job, attempt, retryable, error: messageOf(error) });
    if (!this.onGiveUp) return;
    try {
      await this.onGiveUp(job, error);
    } catch (giveUpError) {
      this.logger.error('recording a failed scan failed', { ...job, error: messageOf(giveUpError) });
    }
  }

  private isIdle(): boolean {
    return this.active === 0 && this.ready.length === 0 && this.timers.size === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
