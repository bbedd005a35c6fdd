import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/free-port';

describe('freeLoopbackPort', () => {
  it('never hands out one port twice, even when asked for many side by side', async () => {
    const ports = await Promise.all(Array.from({ length: 60 }, () => freeLoopbackPort()));
    const more: number[] = [];
    for (let i = 0; i < 60; i++) more.push(await freeLoopbackPort());
    const all = [...ports, ...more];
    expect(new Set(all).size).toBe(all.length);
  });

  it('gives a port that can be bound on 127.0.0.1', async () => {
    const port = await freeLoopbackPort();
    const server = createServer();
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done());
    });
    await new Promise<void>((done) => server.close(() => done()));
  });
});
