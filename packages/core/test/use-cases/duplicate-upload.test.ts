import { describe, expect, it } from 'vitest';
import {
  AnalyzerError,
  DuplicateImageError,
  deleteReceiptData,
  listQueue,
  removeScan,
  uploadReceipt,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');
const tesco = dataUrlOf(
  fakeReceiptImage({
    merchant: 'Tesco',
    date: '2024-04-15',
    total: 4.5,
    items: [{ description: 'MILK', price: 4.5 }],
  }),
);
const lidl = dataUrlOf(
  fakeReceiptImage({
    merchant: 'LIDL',
    date: '2024-04-16',
    total: 2.1,
    items: [{ description: 'BREAD', price: 2.1 }],
  }),
);

type World = Awaited<ReturnType<typeof createWorld>>;
const upload = (world: World, who: typeof alice, fileName: string, imgSrc: string) =>
  uploadReceipt(world.deps, who, { userId: who.uid, fileName, imgSrc });

describe('uploading an image twice', () => {
  it('refuses the same bytes under another name with a 409 naming the analysed receipt, and analyses it once', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg', tesco);
    await world.drain();
    expect(world.analyzer.calls).toBe(1);

    const refused = await upload(world, alice, '2-receipt.jpg', tesco).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DuplicateImageError);
    expect(refused).toMatchObject({
      code: 'DuplicateImage',
      receiptId: 'alice~1-receipt.jpg',
      fileName: '1-receipt.jpg',
      message:
        'You already uploaded this image as "1-receipt.jpg" (receipt from Tesco on 2024-04-15). Open it from Reports instead of uploading it again.',
    });
    // Nothing of the refused upload is kept or queued.
    expect(world.queue.jobs).toEqual([]);
    expect([...world.blobs.objects.keys()].filter((k) => k.includes('2-receipt'))).toEqual([]);
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toEqual([]);
    await world.drain();
    expect(world.analyzer.calls).toBe(1);
  });

  it('says the earlier upload is still being analysed when it is', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg', tesco);
    await expect(upload(world, alice, '2-receipt.jpg', tesco)).rejects.toMatchObject({
      code: 'DuplicateImage',
      message: expect.stringMatching(/as "1-receipt\.jpg"; it is being analysed/),
    });
    expect(world.queue.jobs).toHaveLength(1);
  });

  it('takes different bytes, and the same bytes from another user', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg', tesco);
    expect(await upload(world, alice, '2-receipt.jpg', lidl)).toEqual({
      fileName: '2-receipt.jpg',
      status: 'false',
    });
    expect(await upload(world, bob, '1-receipt.jpg', tesco)).toMatchObject({ status: 'false' });
    expect(await upload(world, bob, '9-receipt.jpg', lidl)).toMatchObject({ status: 'false' });
    await world.drain();
    expect(world.analyzer.calls).toBe(4);
  });

  it('takes the image again once its receipt is deleted', async () => {
    const world = await createWorld();
    await upload(world, alice, '1-receipt.jpg', tesco);
    await world.drain();
    await deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId: 'alice~1-receipt.jpg' });
    expect(await upload(world, alice, '2-receipt.jpg', tesco)).toMatchObject({ status: 'false' });
    await world.drain();
    // And the new receipt holds it now.
    await expect(upload(world, alice, '3-receipt.jpg', tesco)).rejects.toMatchObject({
      receiptId: 'alice~2-receipt.jpg',
    });
  });

  it('names a failed scan, and takes the image again once that scan is removed', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world, alice, '1-receipt.jpg', tesco);
    await world.drain();
    await expect(upload(world, alice, '2-receipt.jpg', tesco)).rejects.toMatchObject({
      message: expect.stringMatching(/analysis failed\. Retry or remove it under Images in progress/),
    });
    // The failed scan itself may be uploaded again under its own name.
    expect(await upload(world, alice, '1-receipt.jpg', tesco)).toMatchObject({ status: 'false' });
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await world.drain();

    await removeScan(world.deps, alice, { userId: 'alice', fileName: '1-receipt.jpg' });
    expect(await upload(world, alice, '2-receipt.jpg', tesco)).toMatchObject({ status: 'false' });
  });

  it('frees the old bytes when a failed scan is replaced by another image under its name', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await upload(world, alice, '1-receipt.jpg', tesco);
    await world.drain();
    await upload(world, alice, '1-receipt.jpg', lidl);
    expect(await upload(world, alice, '2-receipt.jpg', tesco)).toMatchObject({ status: 'false' });
  });

  it('of two uploads of the same bytes at once, keeps one', async () => {
    const world = await createWorld();
    const answers = await Promise.allSettled([
      upload(world, alice, 'a-receipt.jpg', tesco),
      upload(world, alice, 'b-receipt.jpg', tesco),
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const refused = answers.find((a) => a.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(DuplicateImageError);
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toHaveLength(1);
    expect(world.queue.jobs).toHaveLength(1);
  });
});
