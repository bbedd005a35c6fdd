import { LRUCache } from 'lru-cache';
import type { AppData } from '../entities';
import type { ReportCache } from '../ports';
import type { FirstPages, ReceiptHeads } from './first-pages';
import type { SharesPart } from './share-parts';
import type { ReportIndex } from './index-build';

/** What a process holds of one user's read models, each tagged with its data version. */
export interface HeldReports {
  /** The report data (getAppData), the base the others are made from. */
  data?: AppData;
  /** The report index (built from `data`), which answers every query. */
  index?: ReportIndex;
  /** The first rows of the receipts and items tables in each order (see first-pages.ts). */
  pages?: FirstPages;
  /** The data version at which no first pages could be used (none, or the change log is too short). */
  noPagesAt?: string;
  /** The receipts' first pages made without the items, while no first pages could be used. */
  receiptHeads?: ReceiptHeads;
  /**
   * Parts of what each receipt adds to those tables, by part, to patch the first pages after a write
   * (a part is used only while its version is the one the first pages name for it).
   */
  parts?: Map<number, SharesPart>;
}

/** The report cache the use cases take (see {@link ReportCache}). */
export type ReportsCache = ReportCache<HeldReports>;

/** Users whose read models a process holds by default. */
export const DEFAULT_CACHED_USERS = 8;

/**
 * A report cache in this process's memory: the `maxUsers` most recently served users (an LRU), and
 * the builds under way. Make one per process (the composition root) or per test.
 */
export function createReportCache(options: { maxUsers?: number } = {}): ReportsCache {
  const held = new LRUCache<string, HeldReports>({ max: options.maxUsers ?? DEFAULT_CACHED_USERS });
  const running = new Map<string, Promise<unknown>>();
  return {
    get: (userId) => held.get(userId),
    set: (userId, value) => void held.set(userId, value),
    delete: (userId) => void held.delete(userId),
    clear: () => held.clear(),
    shared<T>(key: string, work: () => Promise<T>): Promise<T> {
      const pending = running.get(key) as Promise<T> | undefined;
      if (pending) return pending;
      const started = work().finally(() => running.delete(key));
      running.set(key, started);
      return started;
    },
  };
}

/** The user's held read models, made and remembered when the process holds none. */
export function heldOf(cache: ReportsCache, userId: string): HeldReports {
  let held = cache.get(userId);
  if (!held) {
    held = {};
    cache.set(userId, held);
  }
  return held;
}
