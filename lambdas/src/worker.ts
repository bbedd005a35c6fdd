import {
  enrichAnalysis,
  processScan,
  type AnalysisResult,
  type Analyzer,
  type Enricher,
  type ScanJob,
  type ScanResult,
} from '@receipts/core';
import { createAnalyzer, type Services } from './composition';
import { loadedPort } from './lazy-port';

/** The scan worker of a process: analyses one job at a time per call. */
export interface ScanWorker {
  readonly analyzer: Analyzer;
  process(job: ScanJob): Promise<ScanResult>;
  /** Frees the analyzer (OCR threads). */
  close(): Promise<void>;
}

/**
 * Wires the scan use case to the services, the analyzer and the brand enricher.
 * @param services - store, blobs, queue (for retries), notifier, logger and settings
 * @param options - an analyzer to use instead of the configured one; the retry backoff
 */
export async function createScanWorker(
  services: Services,
  options: {
    analyzer?: Analyzer;
    /** The brand dictionary; default the shipped one, null for none. */
    enricher?: Enricher | null;
    retryDelaySeconds?: (attempt: number) => number;
  } = {},
): Promise<ScanWorker> {
  const [analyzer, enricher] = await Promise.all([
    options.analyzer ?? createAnalyzer(services.config),
    options.enricher !== undefined
      ? options.enricher
      : import('@receipts/enricher-brands').then(({ DictionaryEnricher }) => new DictionaryEnricher()),
  ]);
  const deps = {
    store: services.store,
    // The adapter itself: the scan reads `locate` (where Textract finds the image), which a port
    // loaded on first use cannot answer before it is loaded.
    blobs: await loadedPort(services.blobs),
    queue: services.queue,
    analyzer,
    ...(enricher ? { enrich: (result: AnalysisResult) => enrichAnalysis(result, enricher) } : {}),
    notifier: services.notifier,
    logger: services.logger,
    maxAttempts: services.config.MAX_SCAN_ATTEMPTS,
    ...(options.retryDelaySeconds ? { retryDelaySeconds: options.retryDelaySeconds } : {}),
  };
  return {
    analyzer,
    process: (job) => processScan(deps, job),
    close: async () => {
      await analyzer.close?.();
    },
  };
}
