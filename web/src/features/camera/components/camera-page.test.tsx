import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('Camera (file picker)', () => {
  it('does nothing when no file is chosen', async () => {
    const api = fakeApi({ 'GET /api/listQueue': [] });
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    const input = await screen.findByLabelText('Receipt image file');
    fireEvent.change(input, { target: { files: [] } });
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/Camera');
    expect(screen.queryByText(/Processing receipt/)).not.toBeInTheDocument();
  });

  it('uploads the picked image, adds it to the pending list and returns to /, saying it is analysing', async () => {
    let queue: unknown[] = [];
    const api = fakeApi({
      'GET /api/listQueue': () => queue,
      'POST /api/upload': (call) => {
        const { fileName } = call.body as { fileName: string };
        queue = [{ fileName, image: '', status: 'false' }];
        return { status: 202, body: { fileName, status: 'false' } };
      },
    });
    const { router } = renderApp('/Camera', { state: signedInState() });
    const file = new File([PNG_BYTES], 'photo.png', { type: 'image/png' });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), file);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const upload = api.callsTo('POST', '/api/upload')[0];
    expect(upload?.authorization).toBe('Bearer test-token');
    expect(upload?.body).toMatchObject({
      userId: 'user-1',
      imgSrc: expect.stringMatching(/^data:image\/png;base64,/),
      // The person's day, for a receipt that prints no date.
      day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect((upload?.body as { fileName: string }).fileName).toMatch(/^\d{13}-receipt\.png$/);
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    const message = await screen.findByText('Receipt uploaded — analysing');
    expect(message.closest('[role="status"]')).not.toBeNull();
  });

  it("shows the server's message in plain words when the upload fails, and stays", async () => {
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': {
        status: 413,
        body: { error: 'PayloadTooLarge', message: 'The image is larger than 4 MB.' },
      },
    });
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    const file = new File([PNG_BYTES], 'photo.png', { type: 'image/png' });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The image is larger than 4 MB\.$/);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Camera');
  });

  it('says an image was uploaded before, links to that receipt, and names no server file', async () => {
    const message =
      'You already uploaded this image as "1710000000001-receipt.png" (receipt from Tesco on 2024-04-15). Open it from Reports instead of uploading it again.';
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': {
        status: 409,
        body: { error: 'DuplicateImage', message, receiptId: 'user-1~1710000000001-receipt.png' },
      },
    });
    const { router } = renderApp('/Camera?p=Upload', { state: signedInState() });
    const file = new File([PNG_BYTES], 'photo.png', { type: 'image/png' });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You already uploaded this image (receipt from Tesco on 2024-04-15). Open it from Reports instead of uploading it again.',
    );
    expect(screen.getByRole('link', { name: 'Open the receipt' })).toHaveAttribute(
      'href',
      `/Receipt?receiptId=${encodeURIComponent('user-1~1710000000001-receipt.png')}`,
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Camera');
  });

  it('shows the progress label with a seconds counter while the upload runs', async () => {
    let finish: () => void = () => undefined;
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/upload': () =>
        new Promise((resolve) => {
          finish = () => resolve({ fileName: 'x', status: 'false' });
        }),
    });
    renderApp('/Camera?p=Upload', { state: signedInState() });
    const file = new File([PNG_BYTES], 'photo.png', { type: 'image/png' });
    await userEvent.setup().upload(await screen.findByLabelText('Receipt image file'), file);
    expect(await screen.findByText('Processing receipt 0s')).toBeInTheDocument();
    expect(
      await screen.findByText('Processing receipt 1s', undefined, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow');
    finish();
  });
});

describe('Camera (live capture)', () => {
  it("logs 'Video permissions denied' and says what to do when the camera is refused", async () => {
    const getUserMedia = vi.fn(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    vi.stubGlobal(
      'navigator',
      // The real navigator's getters refuse an object made from it: onLine says what it would.
      Object.assign(Object.create(navigator, { onLine: { value: true } }), {
        mediaDevices: { getUserMedia, enumerateDevices: vi.fn() },
      }),
    );
    const api = fakeApi({ 'GET /api/listQueue': [], 'POST /api/log': { ok: true } });
    renderApp('/Camera?p=Camera', { state: signedInState() });
    expect(await screen.findByRole('alert')).toHaveTextContent('Camera permission was denied');
    await waitFor(() => expect(api.callsTo('POST', '/api/log')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/log')[0]?.body).toMatchObject({ event: 'Video permissions denied' });
    expect(screen.getByRole('link', { name: 'Upload a photo instead' })).toHaveAttribute(
      'href',
      '/Camera?p=Upload',
    );
    expect(getUserMedia).toHaveBeenCalledWith(
      expect.objectContaining({
        video: expect.objectContaining({ width: { ideal: 1920 }, height: { ideal: 1080 } }),
      }),
    );
  });
});
