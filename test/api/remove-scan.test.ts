import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { jpegDataUrl, type ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

/** DELETE /api/removeScan through HTTP against the local stack (Azurite, Auth emulator, OCR worker). */
describe('removing a failed scan', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let alice: ApiClient;
  let bob: ApiClient;
  const fileName = '1741000000000-receipt.jpg';

  const remove = (client: ApiClient, query: Record<string, string>) =>
    client.call<ErrorAnswer>('DELETE', '/api/removeScan', { query });

  beforeAll(async () => {
    env = await startTestStack();
    [alice, bob] = await Promise.all([
      signUpClient(env.stack, 'alice@example.com', 'Alice'),
      signUpClient(env.stack, 'bob@example.com', 'Bob'),
    ]);
    // JPEG magic bytes pass the upload check; the image itself is unreadable, so the scan fails.
    const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    expect((await alice.upload(fileName, jpegDataUrl(broken))).status).toBe(202);
    expect(await alice.waitForQueue()).toEqual([expect.objectContaining({ fileName, status: 'Failed' })]);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("refuses another user's scan, bad input and no token, and leaves the scan as it was", async () => {
    const foreign = await remove(bob, { userId: alice.userId, fileName });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/your own data/);
    expect((await remove(bob, { userId: bob.userId, fileName })).status).toBe(404);
    const traversal = await remove(alice, { userId: alice.userId, fileName: '../other/x.jpg' });
    expect(traversal.status).toBe(400);
    expect(traversal.body.message).toMatch(/plain file name/);
    expect((await remove(alice, { userId: alice.userId })).status).toBe(400);
    expect((await remove(alice.withToken(null), { userId: alice.userId, fileName })).status).toBe(401);

    expect((await alice.listQueue()).body).toHaveLength(1);
    expect(await env.stack.services.blobs.list(`${alice.userId}/`)).toContain(`${alice.userId}/${fileName}`);
  });

  it('removes the queue entry and its image for the owner', async () => {
    const answer = await remove(alice, { userId: alice.userId, fileName });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ removed: true, fileName });
    expect((await alice.listQueue()).body).toEqual([]);
    expect(await env.stack.services.blobs.list(`${alice.userId}/`)).toEqual([]);
    expect((await alice.getImage(fileName)).status).toBe(404);
    expect((await remove(alice, { userId: alice.userId, fileName })).status).toBe(404);
  });
});
