import {
  enrichAnalysis,
  processScan,
  type AnalysisResult,
  type Analyzer,
  type ScanJob,
  type ScanResult,
} from '@receipts/core';
import type { Services } from './composition';
import { loadedPort } from './lazy-port';

/** The scan worker of a process: analyses one job at a time per call. */
export interface ScanWorker {
  readonly analyzer: Analyzer;
  process(job: ScanJob): Promise<ScanResult>;
}

/**
 * Wires the scan use case to the services: their analyzer and brand enricher (see createServices;
 * `services.close()` frees the analyzer).
 * @param services - store, blobs, queue (for retries), notifier, logger, analyzer and settings
 * @param options - the retry backoff, and how long a scan's claim holds (the local stack's, shorter
 *   than its queue's visibility timeout)
 */
export async function createScanWorker(
  services: Services,
  options: { retryDelaySeconds?: (attempt: number) => number; claimLeaseMs?: number } = {},
): Promise<ScanWorker> {
  const [analyzer, enricher, blobs] = await Promise.all([
    services.analyzer(),
    services.enricher(),
    // The adapter itself: the scan reads `locate` (where Textract finds the image), which a port
    // loaded on first use cannot answer before it is loaded.
    loadedPort(services.blobs),
  ]);
  const deps = {
    store: services.store,
    blobs,
    queue: services.queue,
    analyzer,
    ...(enricher ? { enrich: (result: AnalysisResult) => enrichAnalysis(result, enricher) } : {}),
    notifier: services.notifier,
    logger: services.logger,
    maxAttempts: services.config.MAX_SCAN_ATTEMPTS,
    ...(options.retryDelaySeconds ? { retryDelaySeconds: options.retryDelaySeconds } : {}),
    ...(options.claimLeaseMs ? { claimLeaseMs: options.claimLeaseMs } : {}),
  };
  return { analyzer, process: (job) => processScan(deps, job) };
}
