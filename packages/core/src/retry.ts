import pRetry from 'p-retry';
import { ConflictError, NotFoundError, StoreError, TransactionError } from './errors';

/**
 * The one retry policy of optimistic writes: how many times a write that lost a race (a stale etag,
 * a row created or removed meanwhile) reads again and tries again, and how long it pauses between
 * tries. Every read-modify-write loop of the app goes through {@link retryOnConflict}.
 */
export const RETRY_LIMITS = {
  /** Tries of a write to one row that others write too (a user's row, a visit, a queue entry). */
  rowTries: 6,
  /** Tries of a write to rows every write of the user touches (report totals, quota counters). */
  busyRowTries: 30,
  /**
   * Longest pause between two tries, in milliseconds (each pause is random below a ceiling that
   * doubles from 2 ms with every try, up to this).
   */
  maxPauseMs: 50,
  /**
   * Longest pause between two tries of the quota counts on a user's row: when dozens of uploads
   * arrive at once, each try (a read of the row, one of the queue, a write) takes longer than the
   * usual pauses, so the uploads must spread further to stop undoing each other.
   */
  quotaMaxPauseMs: 250,
  /** Tries of a batch call that the store left partly done (throttled), see {@link retryThrottled}. */
  throttledTries: 8,
  /** First pause before trying a throttled batch again, in milliseconds; it doubles with each try. */
  throttledMinPauseMs: 50,
  /** Longest pause between two tries of a throttled batch call, in milliseconds. */
  throttledMaxPauseMs: 2_000,
  /**
   * Tries at cutting a receipt's text lines out of OpenCV's memory, which a cut alongside may grow
   * and so empty this one's crops (analyzer-ocr's `cutLines`).
   */
  cutLineTries: 3,
  /**
   * Ports asked of the system for one this process has not handed out lately (dev's
   * `freeLoopbackPort`); the last one is used even so.
   */
  freePortTries: 21,
  /** Starts of a local emulator on free ports, another port each time one was taken meanwhile (dev). */
  emulatorStartTries: 3,
} as const;

/**
 * Whether a write lost a race: another writer changed, created or removed the row first, alone or
 * within a transaction (which then applied nothing). Reading again and retrying may succeed.
 */
export function lostRace(error: unknown): boolean {
  return (
    error instanceof ConflictError ||
    error instanceof NotFoundError ||
    (error instanceof TransactionError && (error.lostRace || error.status === 404))
  );
}

export interface RetryOptions {
  /** Most tries in all (default {@link RETRY_LIMITS.rowTries}). */
  tries?: number;
  /** Which errors are a lost race worth another try (default {@link lostRace}). */
  retryOn?: (error: unknown) => boolean;
  /** Longest pause between two tries (default {@link RETRY_LIMITS.maxPauseMs}). */
  maxPauseMs?: number;
}

/**
 * Runs `attempt` (which reads what it writes, and writes by etag) until it succeeds, trying again
 * after a short random pause when it lost a race; any other error, or the last try's, is thrown.
 * @param attempt - called with the 0-based number of the try
 */
export async function retryOnConflict<T>(
  attempt: (tryNumber: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const tries = options.tries ?? RETRY_LIMITS.rowTries;
  const retryOn = options.retryOn ?? lostRace;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n + 1 >= tries || !retryOn(error)) throw error;
      const ceiling = Math.min(options.maxPauseMs ?? RETRY_LIMITS.maxPauseMs, 2 ** (n + 1));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

/**
 * The error a batch call throws when the store left part of it undone (throttled) and another try
 * should send the rest. Once the tries are spent it reaches the caller: HTTP 503, try again later.
 */
export class ThrottledError extends StoreError {
  constructor(message: string) {
    super(message, { code: 'Throttled', status: 503 });
  }
}

/**
 * Runs a batch call that a store may throttle (DynamoDB's unprocessed keys or items) until it
 * succeeds: `attempt` sends what is left and throws {@link ThrottledError} while something is, and
 * is tried again after an exponential, randomised pause (p-retry), up to
 * {@link RETRY_LIMITS.throttledTries} tries in all. Any other error is thrown at once.
 */
export async function retryThrottled<T>(attempt: () => Promise<T>): Promise<T> {
  return pRetry(attempt, {
    retries: RETRY_LIMITS.throttledTries - 1,
    minTimeout: RETRY_LIMITS.throttledMinPauseMs,
    maxTimeout: RETRY_LIMITS.throttledMaxPauseMs,
    randomize: true,
    shouldRetry: ({ error }) => error instanceof ThrottledError,
  });
}
