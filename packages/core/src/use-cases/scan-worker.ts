import type { AnalysisResult } from '../analysis';
import type { Analyzer, BlobStore, Logger, Notifier, ScanQueue } from '../ports';
import type { TableStore } from '../table-store';

/** The ports and settings of the scan worker. */
export interface ScanWorkerDeps {
  store: TableStore;
  blobs: BlobStore;
  /** Where a failed attempt is queued again, after a delay. */
  queue: ScanQueue;
  analyzer: Analyzer;
  /** Fills in brands and owners (e.g. `(r) => enrichAnalysis(r, enricher)`); optional. */
  enrich?: (result: AnalysisResult) => AnalysisResult | Promise<AnalysisResult>;
  notifier?: Notifier;
  logger: Logger;
  /** Attempts before a scan is marked 'Failed' (at least 1). */
  maxAttempts: number;
  /** Seconds to wait before attempt `attempt + 1`; default 10 s doubling, at most 5 minutes. */
  retryDelaySeconds?: (attempt: number) => number;
  /** How long a claim ('Analyzing') holds off other deliveries; default SCAN_CLAIM_LEASE_MS. */
  claimLeaseMs?: number;
  now?: () => Date;
}

export type ScanOutcome =
  /** The receipt was analysed and written. */
  | 'analysed'
  /** Nothing to do: already done, deleted, failed for good, or being done by another delivery. */
  | 'skipped'
  /**
   * Another delivery claimed this scan moments ago and may still be analysing it: nothing was done,
   * and the job must be delivered again later (it is then done, or the claim has expired).
   */
  | 'deferred'
  /** This attempt failed; the scan is queued again. */
  | 'retrying'
  /** The last attempt failed; the entry shows status 'Failed' and the reason. */
  | 'failed';

export interface ScanResult {
  outcome: ScanOutcome;
  receiptId?: string;
  reason?: string;
}
