import {
  enrichAnalysis,
  processScan,
  type AnalysisResult,
  type Analyzer,
  type Enricher,
  type ScanJob,
  type ScanResult,
} from '@receipts/core';
import type { AppConfig } from './config';
import type { Services } from './composition';

/**
 * The configured analyzer, imported only when asked for: the API functions never load OCR or
 * Textract code.
 * @param config - ANALYZER picks `ocr` (local, offline) or `textract`; OCR_ENGINE the local OCR engine
 * @param options - OCR worker threads (default 1)
 */
export async function createAnalyzer(
  config: AppConfig,
  options: { ocrWorkers?: number } = {},
): Promise<Analyzer> {
  if (config.ANALYZER === 'textract') {
    const [{ TextractClient }, { TextractAnalyzer }] = await Promise.all([
      import('@aws-sdk/client-textract'),
      import('@receipts/analyzer-textract'),
    ]);
    return new TextractAnalyzer({ client: new TextractClient({}) });
  }
  const { OcrAnalyzer } = await import('@receipts/analyzer-ocr');
  return OcrAnalyzer.create({ workers: options.ocrWorkers ?? 1, engine: config.OCR_ENGINE });
}

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
    blobs: services.blobs,
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
