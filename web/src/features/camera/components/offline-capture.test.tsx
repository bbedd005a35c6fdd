import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keepPendingUpload, listPendingUploads } from '../../../lib/pending-uploads';
import { uploadName } from '../../../lib/queue';
import { uploadOrKeep } from '../api/upload-receipt';
import { sendPendingUploads } from './pending-upload-sender';
import { fakeApi } from '../../../testing/fake-api';
import { fakeAuth } from '../../../testing/fake-firebase';
import { renderApp, signedInState } from '../../../testing/render';

const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (name: string) => new File([PNG_BYTES], name, { type: 'image/png' });

/** Makes the browser say it is offline (or online again, firing 'online' as a browser does). */
function setOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

afterEach(() => {
  // Back to jsdom's own getter (always online).
  delete (window.navigator as { onLine?: boolean }).onLine;
  window.dispatchEvent(new Event('online'));
});

/** An /api/upload that accepts and remembers what it was sent. */
function acceptingUpload() {
  const received: string[] = [];
  const api = fakeApi({
    'GET /api/listQueue': () => {
      // As a browser does: with no connection, the call never leaves.
      if (!navigator.onLine) throw new TypeError('Failed to fetch');
      return received.map((fileName) => ({ fileName, image: '', status: 'false' }));
    },
    'POST /api/upload': (call) => {
      const { fileName } = call.body as { fileName: string };
      received.push(fileName);
      return { status: 202, body: { fileName, status: 'false' } };
    },
  });
  return { api, received };
}

describe('several files from the picker', () => {
  it('uploads each picked file as its own receipt under its own name, then goes Home', async () => {
    const { api, received } = acceptingUpload();
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    const input = await screen.findByLabelText('Receipt image file');
    expect(input).toHaveAttribute('multiple');
    await userEvent.setup().upload(input, [png('first.png'), png('second.png')]);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(2);
    expect(new Set(received).size).toBe(2);
    for (const name of received) expect(name).toMatch(/^\d{13}-receipt\.png$/);
    expect(await screen.findByRole('link', { name: '2 receipts in progress' })).toBeInTheDocument();
  });

  it("shows each file's progress and the server's words for the one it refused, and stays", async () => {
    let calls = 0;
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': (call) => {
        calls += 1;
        const { fileName } = call.body as { fileName: string };
        if (calls === 2) {
          return {
            status: 409,
            body: { error: 'DuplicateImage', message: 'You already uploaded this image.' },
          };
        }
        return { status: 202, body: { fileName, status: 'false' } };
      },
    });
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    await userEvent
      .setup()
      .upload(await screen.findByLabelText('Receipt image file'), [png('a.png'), png('b.png'), png('c.png')]);

    const list = await screen.findByRole('list', { name: 'Picked files' });
    await screen.findByText('3 of 3 files done');
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'a.pngUploaded',
      'b.pngYou already uploaded this image.',
      'c.pngUploaded',
    ]);
    expect(within(rows[1]!).getByRole('alert')).toHaveTextContent('You already uploaded this image.');
    expect(within(rows[0]!).getByRole('progressbar', { name: 'Upload of a.png' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Camera');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear the list' }));
    expect(screen.queryByRole('list', { name: 'Picked files' })).not.toBeInTheDocument();
  });
});

describe('capture with no connection', () => {
  it('keeps a photo picked offline on the device, shows it waiting, and uploads it when the connection returns', async () => {
    const { api, received } = acceptingUpload();
    setOnline(false);
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), png('offline.png'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/ReceiptImages'));
    const kept = await screen.findByRole('region', { name: 'On this device' });
    expect(within(kept).getByText('Waiting for connection')).toBeInTheDocument();
    expect(
      await screen.findByText('No connection: the scans on the server show when it returns.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(0);
    const [stored] = await listPendingUploads('user-1');
    expect(stored).toMatchObject({ userId: 'user-1', source: 'capture', raw: false });
    expect(stored!.dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();

    await act(async () => setOnline(true));
    await waitFor(() => expect(received).toEqual([stored!.id]));
    expect(api.callsTo('POST', '/api/upload')[0]?.body).toMatchObject({ imgSrc: stored!.dataUrl });
    await waitFor(async () => expect(await listPendingUploads('user-1')).toEqual([]));
    expect(await screen.findByText('1 receipt kept on this device uploaded — analysing')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'On this device' })).not.toBeInTheDocument();
  });

  it('keeps the photo when the upload cannot reach the server though the browser says online', async () => {
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), png('lost.png'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ReceiptImages'));
    expect(await screen.findByText('No connection: the receipt is kept on this device')).toBeInTheDocument();
    expect(await listPendingUploads('user-1')).toHaveLength(1);
  });

  it("sends what was kept when the app starts, and shows the server's refusal on the entry with Remove", async () => {
    await keepPendingUpload({
      id: '1718000000000-receipt.png',
      userId: 'user-1',
      dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
      raw: false,
      source: 'capture',
      savedAt: 1718000000000,
    });
    const message =
      'You already uploaded this image as "1710000000001-receipt.png". Open it from Reports instead of uploading it again.';
    const api = fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': { status: 409, body: { error: 'DuplicateImage', message } },
    });
    renderApp('/ReceiptImages', { state: signedInState() });

    const kept = await screen.findByRole('region', { name: 'On this device' });
    expect(await within(kept).findByRole('alert')).toHaveTextContent(
      `Not uploaded: ${message.replace(' as "1710000000001-receipt.png"', '')}`,
    );
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(1);
    expect(await screen.findByRole('link', { name: '1 scan needs attention' })).toBeInTheDocument();
    // A refused upload is not sent again by itself.
    await act(async () => setOnline(true));
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(1);

    await userEvent
      .setup()
      .click(within(kept).getByRole('button', { name: `Remove ${uploadName(false, 1718000000000)}` }));
    await waitFor(async () => expect(await listPendingUploads('user-1')).toEqual([]));
  });

  it('uploads a file shared to the app (kept by the service worker) for whoever is signed in', async () => {
    await keepPendingUpload({
      id: '1718000000000-shared',
      userId: null,
      dataUrl: 'data:application/pdf;base64,JVBERi0xLjQ=',
      raw: true,
      source: 'share',
      savedAt: 1718000000000,
    });
    const { api, received } = acceptingUpload();
    renderApp('/ReceiptImages?shared=1', { state: signedInState() });
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatch(/^\d{13}-receipt\.pdf$/);
    expect(api.callsTo('POST', '/api/upload')[0]?.body).toMatchObject({
      userId: 'user-1',
      imgSrc: 'data:application/pdf;base64,JVBERi0xLjQ=',
    });
    await waitFor(async () => expect(await listPendingUploads(null)).toEqual([]));
  });

  it("does not upload another person's kept photos", async () => {
    await keepPendingUpload({
      id: '1718000000000-receipt.png',
      userId: 'someone-else',
      dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
      raw: false,
      source: 'capture',
      savedAt: 1718000000000,
    });
    const api = fakeApi({ 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState() });
    await act(async () => setOnline(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(0);
    expect(await listPendingUploads('someone-else')).toHaveLength(1);
  });
});

describe('a connection that hangs', () => {
  // Called without the app around them: the person is signed in as the app would have them.
  beforeEach(() => {
    fakeAuth.user = { uid: 'user-1', email: 'ann@example.com', displayName: 'Ann' };
  });

  it('keeps the photo when the server does not answer in time, and nothing is left once it is sent', async () => {
    fakeApi({ 'POST /api/upload': () => new Promise<never>(() => undefined) });
    const request = {
      userId: 'user-1',
      imgSrc: 'data:image/png;base64,iVBORw0KGgo=',
      fileName: '1718000000001-receipt.png',
      label: 'till.png',
    };
    expect(await uploadOrKeep(request, 20)).toEqual({ kind: 'kept' });
    expect(await listPendingUploads('user-1')).toMatchObject([
      { id: '1718000000001-receipt.png', label: 'till.png', dataUrl: request.imgSrc },
    ]);

    // Sent once the server answers: the server already had it from the try that timed out.
    const api = fakeApi({
      'POST /api/upload': {
        status: 409,
        body: {
          error: 'DuplicateImage',
          message: 'You already uploaded this image.',
          receiptId: 'user-1#1718000000001-receipt.png',
        },
      },
    });
    const result = await sendPendingUploads('user-1');
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(1);
    expect(result).toMatchObject({ refused: 0, stopped: false });
    expect(await listPendingUploads('user-1')).toEqual([]);
  });

  it('takes a refusal of the very same upload name (queued by the try that timed out) as sent', async () => {
    await keepPendingUpload({
      id: '1718000000003-receipt.png',
      userId: 'user-1',
      dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
      raw: false,
      source: 'capture',
      savedAt: 1718000000003,
    });
    fakeApi({
      'POST /api/upload': {
        status: 409,
        body: {
          error: 'AlreadyQueued',
          message: '"1718000000003-receipt.png" is already queued for analysis.',
        },
      },
    });
    expect(await sendPendingUploads('user-1')).toMatchObject({ refused: 0, stopped: false });
    expect(await listPendingUploads('user-1')).toEqual([]);
  });

  it('leaves nothing on the device when the server takes the photo at once', async () => {
    fakeApi({
      'POST /api/upload': (call) => ({
        status: 202,
        body: { fileName: (call.body as { fileName: string }).fileName, status: 'false' },
      }),
    });
    const request = {
      userId: 'user-1',
      imgSrc: 'data:image/png;base64,iVBORw0KGgo=',
      fileName: '1718000000002-receipt.png',
    };
    expect(await uploadOrKeep(request)).toMatchObject({ kind: 'uploaded' });
    expect(await listPendingUploads('user-1')).toEqual([]);
  });
});
