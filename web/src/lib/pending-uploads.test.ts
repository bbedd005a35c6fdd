import { describe, expect, it } from 'vitest';
import {
  closePendingUploads,
  keepPendingUpload,
  listPendingUploads,
  onPendingUploadsChange,
  refusePendingUpload,
  removePendingUpload,
  type PendingUpload,
} from './pending-uploads';

const JPEG = 'data:image/jpeg;base64,/9j/4AAQ';

function upload(overrides: Partial<PendingUpload> = {}): PendingUpload {
  return {
    id: '1718000000000-receipt.jpg',
    userId: 'user-1',
    dataUrl: JPEG,
    raw: false,
    source: 'capture',
    savedAt: 1718000000000,
    ...overrides,
  };
}

describe('receipts kept on the device', () => {
  it('keeps an upload across a reopen of the database, as when the tab is closed and opened again', async () => {
    await keepPendingUpload(upload());
    await closePendingUploads();
    expect(await listPendingUploads('user-1')).toEqual([upload()]);
  });

  it("lists a user's own and the shared uploads, oldest first, never another user's", async () => {
    await keepPendingUpload(upload({ id: 'b', savedAt: 2 }));
    await keepPendingUpload(upload({ id: 'shared', userId: null, source: 'share', raw: true, savedAt: 3 }));
    await keepPendingUpload(upload({ id: 'a', savedAt: 1 }));
    await keepPendingUpload(upload({ id: 'other', userId: 'user-2', savedAt: 0 }));
    expect((await listPendingUploads('user-1')).map((u) => u.id)).toEqual(['a', 'b', 'shared']);
    expect((await listPendingUploads('user-2')).map((u) => u.id)).toEqual(['other', 'shared']);
  });

  it("records the server's refusal on an upload and forgets a removed one", async () => {
    await keepPendingUpload(upload({ id: 'a' }));
    await keepPendingUpload(upload({ id: 'b' }));
    await refusePendingUpload('a', 'You already uploaded this image.');
    await removePendingUpload('b');
    expect(await listPendingUploads('user-1')).toEqual([
      upload({ id: 'a', refusal: 'You already uploaded this image.' }),
    ]);
    // A refusal for an upload already gone changes nothing.
    await refusePendingUpload('b', 'late');
    expect(await listPendingUploads('user-1')).toHaveLength(1);
  });

  it('tells listeners of every change until they unsubscribe', async () => {
    let changes = 0;
    const stop = onPendingUploadsChange(() => (changes += 1));
    await keepPendingUpload(upload());
    await refusePendingUpload(upload().id, 'no');
    await removePendingUpload(upload().id);
    expect(changes).toBe(3);
    stop();
    await keepPendingUpload(upload());
    expect(changes).toBe(3);
  });
});
