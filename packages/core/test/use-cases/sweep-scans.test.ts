import { describe, expect, it } from 'vitest';
import {
  DEAD_LETTER_REASON,
  LOST_SCAN_MS,
  SCAN_CLAIM_LEASE_MS,
  STUCK_SCAN_REASON,
  failDeadLetteredScan,
  listQueue,
  sweepScans,
  uploadReceipt,
  repositories,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const image = (photo: string) =>
  dataUrlOf(fakeReceiptImage({ merchant: 'LIDL', date: '2024-04-02', total: 2, items: [], photo }));

async function worldWithScans(...fileNames: string[]) {
  const world = await createWorld();
  for (const fileName of fileNames)
    await uploadReceipt(world.deps, alice, { userId: 'alice', fileName, imgSrc: image(fileName) });
  world.queue.jobs.length = 0; // the jobs are lost
  return world;
}

describe('the scan queue sweeper', () => {
  it('queues again a scan left queued with no job, once, and only after a while', async () => {
    const world = await worldWithScans('lost.jpg');
    expect(await sweepScans(world.deps)).toEqual({ requeued: 0, failed: 0 });
    world.advance(LOST_SCAN_MS + 1000);
    expect(await sweepScans(world.deps)).toEqual({ requeued: 1, failed: 0 });
    expect(world.queue.jobs.map((j) => j.job)).toEqual([{ userId: 'alice', fileName: 'lost.jpg' }]);
    // The entry was touched: the next sweep leaves it to the job it queued.
    expect(await sweepScans(world.deps)).toEqual({ requeued: 0, failed: 0 });
    expect((await world.drain()).map((r) => r.outcome)).toEqual(['analysed']);
  });

  it('fails a scan stuck in Analyzing past its lease, with a reason the user can read', async () => {
    const world = await worldWithScans('stuck.jpg', 'fresh.jpg');
    const repos = repositories(world.store);
    const stuck = (await repos.scans.getQueueEntry('alice', 'stuck.jpg'))!;
    await repos.scans.saveQueueEntry({ ...stuck.entry, status: 'Analyzing', attempts: 1 }, stuck.etag);
    world.advance(SCAN_CLAIM_LEASE_MS + 1000);
    const fresh = (await repos.scans.getQueueEntry('alice', 'fresh.jpg'))!;
    await repos.scans.saveQueueEntry(
      { ...fresh.entry, status: 'Analyzing', attempts: 1, updated_at: world.deps.now().toISOString() },
      fresh.etag,
    );
    expect(await sweepScans(world.deps)).toEqual({ requeued: 0, failed: 1 });
    const entries = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entries.find((e) => e.fileName === 'stuck.jpg')).toMatchObject({
      status: 'Failed',
      reason: STUCK_SCAN_REASON,
    });
    expect(entries.find((e) => e.fileName === 'fresh.jpg')).toMatchObject({ status: 'Analyzing' });
  });

  it('marks a dead-lettered scan Failed with a reason, and leaves a finished one alone', async () => {
    const world = await worldWithScans('dead.jpg');
    expect(await failDeadLetteredScan(world.deps, { userId: 'alice', fileName: 'dead.jpg' })).toBe(true);
    const [entry] = await listQueue(world.deps, alice, { userId: 'alice' });
    expect(entry).toMatchObject({ status: 'Failed', reason: DEAD_LETTER_REASON });
    expect(await failDeadLetteredScan(world.deps, { userId: 'alice', fileName: 'dead.jpg' })).toBe(false);
    expect(await failDeadLetteredScan(world.deps, { userId: 'alice', fileName: 'gone.jpg' })).toBe(false);
  });
});
