import { describe, expect, it } from 'vitest';
import { SessionPool } from '../src/paddle-ocr';

const crashing = new URL('./fixtures/crashing-session.mjs', import.meta.url);

describe('SessionPool', () => {
  it('answers runs from its thread, and fails every run once the thread stops, without hanging', async () => {
    const pool = await SessionPool.start(1, {}, crashing);
    const answer = await pool.run('recognition', new Float32Array([1, 2]), [1, 2]);
    expect([...answer.data]).toEqual([2, 4]);
    // The second job ends the thread: the run under way and the one waiting behind it are rejected.
    const [during, waiting] = await Promise.allSettled([
      pool.run('recognition', new Float32Array([1]), [1]),
      pool.run('recognition', new Float32Array([1]), [1]),
    ]);
    expect(during).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/stopped/) },
    });
    expect(waiting.status).toBe('rejected');
    expect(pool.usable).toBe(false);
    await expect(pool.run('recognition', new Float32Array([1]), [1])).rejects.toThrow(/stopped/);
    await pool.close();
  });

  it('does not start when a thread cannot', async () => {
    const missing = new URL('./fixtures/no-such-session.mjs', import.meta.url);
    await expect(SessionPool.start(2, {}, missing)).rejects.toThrow();
  });
});
