import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyzerError, type AnalysisResult, type Analyzer } from '@receipts/core';
import { FakeAnalyzer, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { jpegDataUrl, type ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

const MAX_SCAN_ATTEMPTS = 3;
/** What the scan use case is told to wait before attempt `attempt + 1`. */
const DELAY_SECONDS = (attempt: number) => attempt * 0.2;

/** The fake analyzer, failing as told per file and recording when each image was read. */
class FlakyAnalyzer implements Analyzer {
  readonly name = 'flaky';
  private readonly fake = new FakeAnalyzer();
  /** Reads per receipt merchant, with the time of each. */
  readonly reads = new Map<string, number[]>();
  /** Merchants whose receipts fail this many more times. */
  readonly failures = new Map<string, number>();

  async analyze(image: Uint8Array): Promise<AnalysisResult> {
    const merchant = (JSON.parse(new TextDecoder().decode(image.subarray(4))) as { merchant: string })
      .merchant;
    this.reads.set(merchant, [...(this.reads.get(merchant) ?? []), Date.now()]);
    const left = this.failures.get(merchant) ?? 0;
    if (left > 0) {
      this.failures.set(merchant, left - 1);
      throw new AnalyzerError('The analysis service is busy.', { retryable: true });
    }
    return this.fake.analyze(image);
  }
}

/**
 * Retries on the local stack are the scan use case's, as on Lambda: a failed attempt is recorded and
 * queued again with the use case's delay, and MAX_SCAN_ATTEMPTS counts analysis attempts.
 */
describe('scan retries on the local stack', () => {
  const analyzer = new FlakyAnalyzer();
  const delaysAsked: number[] = [];
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;

  const upload = async (merchant: string, fileName: string) => {
    const image = fakeReceiptImage({
      merchant,
      date: '2025-02-03',
      total: 4.5,
      items: [{ description: 'Bread', price: 4.5 }],
    });
    expect((await alice.upload(fileName, jpegDataUrl(image))).status).toBe(202);
  };

  beforeAll(async () => {
    env = await startTestStack({
      analyzer,
      enricher: null,
      maxScanAttempts: MAX_SCAN_ATTEMPTS,
      retryDelaySeconds: (attempt) => {
        delaysAsked.push(attempt);
        return DELAY_SECONDS(attempt);
      },
    });
    alice = await signUpClient(env.stack, 'alice@example.com', 'Alice');
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('analyses a scan whose first attempts failed, each retry after the delay the use case chose', async () => {
    analyzer.failures.set('Flaky Bakery', 2);
    await upload('Flaky Bakery', '1741000000001-receipt.jpg');
    await env.stack.idle();

    expect((await alice.listQueue()).body).toEqual([]);
    const receipts = (await alice.getAppData()).body.reportReceipts;
    expect(receipts.map((r) => r.merchant_name)).toEqual(['Flaky Bakery']);
    expect(delaysAsked).toEqual([1, 2]);
    const reads = analyzer.reads.get('Flaky Bakery')!;
    expect(reads).toHaveLength(3);
    // Never earlier than asked (a timer may fire a millisecond early by the clock's rounding).
    expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(DELAY_SECONDS(1) * 1000 - 2);
    expect(reads[2]! - reads[1]!).toBeGreaterThanOrEqual(DELAY_SECONDS(2) * 1000 - 2);
  });

  it('marks a scan Failed after MAX_SCAN_ATTEMPTS analysis attempts, with the reason', async () => {
    analyzer.failures.set('Busy Grocer', 10);
    await upload('Busy Grocer', '1741000000002-receipt.jpg');
    await env.stack.idle();

    expect(analyzer.reads.get('Busy Grocer')).toHaveLength(MAX_SCAN_ATTEMPTS);
    expect((await alice.listQueue()).body).toEqual([
      expect.objectContaining({
        fileName: '1741000000002-receipt.jpg',
        status: 'Failed',
        attempts: MAX_SCAN_ATTEMPTS,
        reason: expect.stringContaining('busy'),
      }),
    ]);
  });
});
