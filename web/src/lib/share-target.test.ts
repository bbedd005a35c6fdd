import { Blob as NodeBlob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { PendingUpload } from './pending-uploads';
import { SHARE_FILES_FIELD, blobToDataUrl, receiveShare } from './share-target';

const ORIGIN = 'https://receipts.example';

/** The POST a browser makes when files are shared to the installed app (manifest share_target). */
function sharePost(files: (File | string)[]): Request {
  const form = new FormData();
  form.set('title', 'Shared from Photos');
  for (const file of files) form.append(SHARE_FILES_FIELD, file);
  return new Request(`${ORIGIN}/share-target`, { method: 'POST', body: form });
}

async function share(files: (File | string)[]) {
  const kept: PendingUpload[] = [];
  const clock = 1718000000000;
  const response = await receiveShare(
    sharePost(files),
    async (upload) => void kept.push(upload),
    () => clock,
  );
  return { kept, response };
}

describe('the share target of the service worker', () => {
  it('keeps every shared picture and PDF for upload, each under its own name, and opens the list', async () => {
    const photo = new File([Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])], 'IMG_0001.jpg', {
      type: 'image/jpeg',
    });
    const pdf = new File(['%PDF-1.4 receipt'], 'receipt.pdf', { type: 'application/pdf' });
    const { kept, response } = await share([photo, pdf]);

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${ORIGIN}/ReceiptImages?shared=2`);
    expect(kept).toEqual([
      {
        id: '1718000000000-shared',
        userId: null,
        dataUrl: 'data:image/jpeg;base64,/9j/4A==',
        raw: true,
        source: 'share',
        savedAt: 1718000000000,
      },
      {
        id: '1718000000001-shared',
        userId: null,
        dataUrl: `data:application/pdf;base64,${btoa('%PDF-1.4 receipt')}`,
        raw: true,
        source: 'share',
        savedAt: 1718000000001,
      },
    ]);
  });

  it('leaves out what is neither a picture nor a PDF, and says how many', async () => {
    const text = new File(['hello'], 'note.txt', { type: 'text/plain' });
    const { kept, response } = await share([text, 'just a string']);
    expect(kept).toEqual([]);
    expect(response.headers.get('location')).toBe(`${ORIGIN}/ReceiptImages?shared=0&skipped=2`);
  });

  it('still opens the app when the POST is not a form', async () => {
    const kept: PendingUpload[] = [];
    const response = await receiveShare(
      new Request(`${ORIGIN}/share-target`, { method: 'POST', body: 'nonsense' }),
      async (upload) => void kept.push(upload),
    );
    expect(kept).toEqual([]);
    expect(response.headers.get('location')).toBe(`${ORIGIN}/ReceiptImages?shared=0`);
  });

  it('encodes files of several megabytes without running out of stack', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    // jsdom's Blob cannot give its bytes; the worker's (like Node's) can.
    const dataUrl = await blobToDataUrl(new NodeBlob([bytes], { type: 'image/png' }) as Blob);
    expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64').equals(Buffer.from(bytes))).toBe(
      true,
    );
  });
});
