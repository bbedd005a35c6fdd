import { AnalyzerError, type AnalysisResult, type Analyzer } from '@receipts/core';

/**
 * The real analyzer behind a gate the test opens and closes, so scans can be seen waiting in the queue
 * (a real OCR run takes well under a second), and told to fail one scan so the failed section and its
 * Retry button can be used.
 */
export class GatedAnalyzer implements Analyzer {
  readonly name: string;
  private open = true;
  private waiting: (() => void)[] = [];
  private failures = 0;

  constructor(private readonly inner: Analyzer) {
    this.name = `gated-${inner.name}`;
  }

  /** Scans that start from now on wait until {@link release}. */
  hold(): void {
    this.open = false;
  }

  /** Lets waiting and future scans run. */
  release(): void {
    this.open = true;
    for (const go of this.waiting.splice(0)) go();
  }

  /** The next `count` scans fail for good, with a reason the user can read. */
  failNext(count = 1): void {
    this.failures = count;
  }

  async analyze(
    image: Uint8Array,
    mimeType: string,
    source?: { bucket: string; key: string },
  ): Promise<AnalysisResult> {
    if (!this.open) await new Promise<void>((go) => this.waiting.push(go));
    if (this.failures > 0) {
      this.failures -= 1;
      throw new AnalyzerError('The receipt could not be read. Take the photo again in better light.', {
        code: 'TestFailure',
        retryable: false,
      });
    }
    return this.inner.analyze(image, mimeType, source);
  }

  async close(): Promise<void> {
    this.release();
    await this.inner.close?.();
  }
}
