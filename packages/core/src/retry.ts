import { ConflictError, NotFoundError, TransactionError } from './errors';

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
