import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { FakeAnalyzer, dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { GatedAnalyzer } from '../e2e/support/gated-analyzer';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

const image = (total: number, padding = 0) =>
  dataUrlOf(
    fakeReceiptImage({
      merchant: `Shop ${'x'.repeat(padding)}`,
      date: '2024-04-02',
      total,
      items: [{ description: 'BREAD', price: total }],
    }),
  );

/**
 * Per-user quotas through HTTP against the local stack: scans pending at once, uploads per day and
 * bytes stored, each refused with 429 and a message that says when (or how) the user may go on.
 */
describe('upload quotas', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  const analyzer = new GatedAnalyzer(new FakeAnalyzer());
  let carol: ApiClient;
  let dave: ApiClient;
  let erin: ApiClient;

  beforeAll(async () => {
    env = await startTestStack({
      analyzer,
      enricher: null,
      quotas: { uploadsPerDay: 4, pendingScans: 2, storedMb: 1 },
    });
    [carol, dave, erin] = await Promise.all([
      signUpClient(env.stack, 'carol@example.com', 'Carol'),
      signUpClient(env.stack, 'dave@example.com', 'Dave'),
      signUpClient(env.stack, 'erin@example.com', 'Erin'),
    ]);
  });
  afterAll(async () => {
    analyzer.release();
    await env?.stop();
  });

  const expect429 = (answer: { status: number; body: unknown; headers: Headers }, message: RegExp) => {
    expect(answer.status).toBe(429);
    expect((answer.body as ErrorAnswer).message).toMatch(message);
  };

  it('refuses more scans pending at once than allowed, and takes more once they are done', async () => {
    analyzer.hold();
    expect((await carol.upload('1-receipt.jpg', image(1))).status).toBe(202);
    expect((await carol.upload('2-receipt.jpg', image(2))).status).toBe(202);
    const refused = await carol.upload('3-receipt.jpg', image(3));
    expect429(refused, /2 receipts waiting to be analysed.*when some have finished/);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another user is not held back by Carol's queue.
    expect((await dave.upload('1-receipt.jpg', image(1))).status).toBe(202);
    analyzer.release();
    expect(await carol.waitForQueue()).toEqual([]);
    expect((await carol.upload('3-receipt.jpg', image(3))).status).toBe(202);
    await carol.waitForQueue();
  });

  it('refuses uploads past the daily count until the next UTC day', async () => {
    expect((await carol.upload('4-receipt.jpg', image(4))).status).toBe(202);
    await carol.waitForQueue();
    const refused = await carol.upload('5-receipt.jpg', image(5));
    expect429(refused, /uploaded 4 receipts today.*again in .* \(at 00:00 UTC\)/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
  });

  it('refuses an upload past the stored bytes, and takes it again once receipts are deleted', async () => {
    const big = image(1, 600 * 1024);
    const another = image(2, 600 * 1024);
    expect((await erin.upload('1-receipt.jpg', big)).status).toBe(202);
    await erin.waitForQueue();
    expect429(await erin.upload('2-receipt.jpg', another), /take 0\.6 MB of the 1 MB .*Delete receipts/);
    expect((await erin.deleteReceipt(`${erin.userId}~1-receipt.jpg`, '1-receipt.jpg')).status).toBe(200);
    expect((await erin.upload('2-receipt.jpg', another)).status).toBe(202);
    await erin.waitForQueue();
  });
});
