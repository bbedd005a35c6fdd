import { describe, expect, it } from 'vitest';
import {
  AnalyzerError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  listQueue,
  removeScan,
  retryScan,
  uploadReceipt,
} from '../../src';
import { STALE_SCAN_MS } from '../../src/contract/routes';
import { dataUrlOf, fakeReceiptImage, identity } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');
const fileName = '1714560000000-receipt.jpg';
const receipt = {
  merchant: 'LIDL Brussel',
  postal: '1000',
  date: '2024-04-02',
  total: 2.1,
  tax: 0.12,
  items: [{ description: 'COCA-COLA 1.5L', price: 2.1, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' }],
};

async function uploaded(world: Awaited<ReturnType<typeof createWorld>>) {
  await uploadReceipt(world.deps, alice, {
    userId: 'alice',
    fileName,
    imgSrc: dataUrlOf(fakeReceiptImage(receipt)),
  });
}

const aliceObjects = (world: Awaited<ReturnType<typeof createWorld>>) =>
  [...world.blobs.objects.keys()].filter((key) => key.startsWith('alice/'));

describe('removeScan', () => {
  it('removes a failed scan with its image, and only for its owner', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await uploaded(world);
    await world.drain();
    expect(aliceObjects(world)).not.toEqual([]);

    await expect(removeScan(world.deps, bob, { userId: 'alice', fileName })).rejects.toThrow(ForbiddenError);
    await expect(removeScan(world.deps, bob, { userId: 'bob', fileName })).rejects.toThrow(NotFoundError);
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toHaveLength(1);

    expect(await removeScan(world.deps, alice, { userId: 'alice', fileName })).toEqual({
      removed: true,
      fileName,
    });
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toEqual([]);
    expect(aliceObjects(world)).toEqual([]);
    await expect(removeScan(world.deps, alice, { userId: 'alice', fileName })).rejects.toMatchObject({
      code: 'ScanNotFound',
    });
  });

  it('refuses a scan the worker still owns, and takes it once it has not moved for STALE_SCAN_MS', async () => {
    const world = await createWorld();
    await uploaded(world);
    await expect(removeScan(world.deps, alice, { userId: 'alice', fileName })).rejects.toThrow(ConflictError);
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toHaveLength(1);

    world.advance(STALE_SCAN_MS + 1000);
    await removeScan(world.deps, alice, { userId: 'alice', fileName });
    expect(await listQueue(world.deps, alice, { userId: 'alice' })).toEqual([]);
    expect(aliceObjects(world)).toEqual([]);
    // The job still on the queue finds no entry and leaves nothing behind.
    expect(await world.drain()).toEqual([expect.objectContaining({ outcome: 'skipped' })]);
    expect(aliceObjects(world)).toEqual([]);
  });

  it('does not undo a retry that queued the scan again since it was read', async () => {
    const world = await createWorld();
    world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
    await uploaded(world);
    await world.drain();
    const results = await Promise.allSettled([
      retryScan(world.deps, alice, { userId: 'alice', fileName }),
      removeScan(world.deps, alice, { userId: 'alice', fileName }),
    ]);
    const [retried, removed] = results;
    // One of the two wins; whichever it is, the queue and the images agree with it.
    const queue = await listQueue(world.deps, alice, { userId: 'alice' });
    if (retried.status === 'fulfilled') {
      expect(removed.status).toBe('rejected');
      expect(queue).toEqual([expect.objectContaining({ fileName, status: 'false' })]);
      expect(aliceObjects(world)).toContain(`alice/${fileName}`);
    } else {
      expect(removed.status).toBe('fulfilled');
      expect(queue).toEqual([]);
      expect(aliceObjects(world)).toEqual([]);
    }
  });
});
