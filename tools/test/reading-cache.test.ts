import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskReadingCache } from '../src/eval/reading-cache';

describe('DiskReadingCache', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('gives back a stored reading in a later run, and nothing for a reading never made', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'receipt-eval-cache-'));
    dirs.push(dir);
    const first = new DiskReadingCache(path.join(dir, 'readings'));
    expect(await first.get('paddle-abc')).toBeUndefined();
    await first.set('paddle-abc', [{ text: 'TOTAL 14.10', confidence: 0.98 }]);
    const again = new DiskReadingCache(path.join(dir, 'readings'));
    expect(await again.get('paddle-abc')).toEqual([{ text: 'TOTAL 14.10', confidence: 0.98 }]);
    expect([first.misses, again.hits]).toEqual([1, 1]);
    expect(await readdir(path.join(dir, 'readings'))).toEqual(['paddle-abc.json']);
  });
});
