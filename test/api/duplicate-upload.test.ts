import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { FakeAnalyzer, dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';
import { STORE_BACKENDS } from '../support/store-backends';

const tesco = dataUrlOf(
  fakeReceiptImage({
    merchant: 'Tesco',
    date: '2024-04-15',
    total: 3.2,
    currency: 'GBP',
    items: [{ description: 'MILK', price: 3.2 }],
  }),
);

const backends = STORE_BACKENDS;

/**
 * POST /api/upload of an image the user already uploaded, through HTTP against the local stack on
 * both table stores: refused with 409 naming the earlier receipt, analysed once, and taken again
 * after the receipt is deleted.
 */
describe.each(backends)('uploading the same image twice on $name', ({ storageBackend }) => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  const analyzer = new FakeAnalyzer();
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    env = await startTestStack({ storageBackend, analyzer, enricher: null });
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
    ]);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('keeps one of two uploads of the same bytes at once; the other is a 409 naming it', async () => {
    const answers: { status: number; body: unknown }[] = await Promise.all([
      alice.upload('1710000000001-receipt.jpg', tesco),
      alice.upload('1710000000002-receipt.jpg', tesco),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const kept = answers.find((a) => a.status === 202)!.body as { fileName: string };
    const refused = answers.find((a) => a.status === 409)!.body as ErrorAnswer;
    expect(refused).toMatchObject({
      error: 'DuplicateImage',
      receiptId: `${alice.userId}~${kept.fileName}`,
      message: expect.stringContaining(`You already uploaded this image as "${kept.fileName}"`),
    });
    expect(await alice.waitForQueue()).toEqual([]);
    expect(analyzer.calls).toBe(1);
    const images = await env.stack.services.blobs.list(`${alice.userId}/`);
    expect(images.filter((key) => !key.endsWith('.analysis.json'))).toEqual([
      `${alice.userId}/${kept.fileName}`,
    ]);

    // Once analysed, the answer says which receipt it is.
    const again: { status: number; body: unknown } = await alice.upload('1710000000003-receipt.jpg', tesco);
    expect(again.status).toBe(409);
    expect((again.body as ErrorAnswer).message).toBe(
      `You already uploaded this image as "${kept.fileName}" (receipt from Tesco on 2024-04-15). Open it from Reports instead of uploading it again.`,
    );
    expect((again.body as ErrorAnswer).receiptId).toBe(`${alice.userId}~${kept.fileName}`);

    // Another user's copy of the same image is that user's own.
    expect((await bob.upload('1710000000001-receipt.jpg', tesco)).status).toBe(202);
    await bob.waitForQueue();
    expect(analyzer.calls).toBe(2);

    // After the receipt is deleted, the image may be uploaded again.
    expect((await alice.deleteReceipt(`${alice.userId}~${kept.fileName}`, kept.fileName)).status).toBe(200);
    expect((await alice.upload('1710000000003-receipt.jpg', tesco)).status).toBe(202);
    await alice.waitForQueue();
    expect(analyzer.calls).toBe(3);
  });

  it('flags a second photo of the same receipt as a possible duplicate; "Keep both" is the owner\'s alone', async () => {
    const photo = (n: number) =>
      dataUrlOf(
        fakeReceiptImage({
          merchant: 'Aldi',
          date: '2024-06-01',
          total: 18.4,
          currency: 'EUR',
          items: [{ description: 'COFFEE', price: 18.4 }],
          photo: `photo ${n}`,
        }),
      );
    expect((await alice.upload('1720000000001-receipt.jpg', photo(1))).status).toBe(202);
    await alice.waitForQueue();
    expect((await alice.upload('1720000000002-receipt.jpg', photo(2))).status).toBe(202);
    await alice.waitForQueue();
    const firstId = `${alice.userId}~1720000000001-receipt.jpg`;
    const secondId = `${alice.userId}~1720000000002-receipt.jpg`;
    const receiptOf = async (id: string) =>
      (await alice.getAppData()).body.reportReceipts.find((r) => r.receipt_id === id)!;
    const second = await receiptOf(secondId);
    expect(second).toMatchObject({
      possible_duplicate_of: firstId,
      needs_review: true,
      review_reasons: ['possible_duplicate'],
    });
    expect((await receiptOf(firstId)).possible_duplicate_of).toBeNull();

    const keep = { userId: alice.userId, receiptId: secondId, etag: second.etag };
    const bad = await alice.call<ErrorAnswer>('POST', '/api/keepBothReceipts', {
      body: { ...keep, etag: 5 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/etag/);
    const stranger = await bob.call('POST', '/api/keepBothReceipts', { body: keep });
    expect(stranger.status).toBe(403);
    expect((await receiptOf(secondId)).possible_duplicate_of).toBe(firstId);

    expect((await alice.call('POST', '/api/keepBothReceipts', { body: keep })).status).toBe(200);
    expect(await receiptOf(secondId)).toMatchObject({
      possible_duplicate_of: null,
      needs_review: false,
      review_reasons: [],
    });
  });
});
