import { describe, expect, it, vi } from 'vitest';
import { STALE_SCAN_MS } from '@receipts/core/contract/routes';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { uploadName } from '../../../lib/queue';
import { makeQueueEntry } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

describe('Images in progress', () => {
  it("lists 'Now analyzing', 'Queued' and failed scans with their reason and a Retry button", async () => {
    const entries = [
      makeQueueEntry({ fileName: '1714550000001-receipt.jpg', status: 'Analyzing' }),
      makeQueueEntry({ fileName: '1714550000002-receipt.jpg', status: 'false' }),
      makeQueueEntry({ fileName: '1714550000003-receipt.jpg', status: 'false' }),
      makeQueueEntry({
        fileName: '1714550000004-receipt.jpg',
        status: 'Failed',
        reason: 'No text could be read from the image.',
      }),
    ];
    let queue = entries;
    const api = fakeApi({
      'GET /api/listQueue': () => queue,
      'POST /api/retryScan': (call) => {
        queue = queue.map((e) =>
          e.fileName === (call.body as { fileName: string }).fileName
            ? { ...e, status: 'false' as const }
            : e,
        );
        return { fileName: '1714550000004-receipt.jpg', status: 'false' };
      },
    });
    renderApp('/ReceiptImages', { state: signedInState() });

    const analyzing = await screen.findByRole('region', { name: 'Now analyzing' });
    expect(within(analyzing).getAllByRole('listitem')).toHaveLength(1);
    expect(within(analyzing).getByText(uploadName(false, 1714550000001))).toBeInTheDocument();
    const queued = screen.getByRole('region', { name: 'Queued' });
    expect(within(queued).getAllByRole('listitem')).toHaveLength(2);
    const failed = screen.getByRole('region', { name: 'Failed' });
    expect(within(failed).getByText('No text could be read from the image.')).toBeInTheDocument();

    await userEvent
      .setup()
      .click(within(failed).getByRole('button', { name: `Retry ${uploadName(false, 1714550000004)}` }));
    await waitFor(() => expect(api.callsTo('POST', '/api/retryScan')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/retryScan')[0]?.body).toEqual({
      userId: 'user-1',
      fileName: '1714550000004-receipt.jpg',
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Failed' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Queued' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('removes a failed scan with Remove, without flagging a new report', async () => {
    let queue = [
      makeQueueEntry({
        fileName: '1714550000001-receipt.jpg',
        status: 'Analyzing',
        updated_at: new Date().toISOString(),
      }),
      makeQueueEntry({ fileName: '1714550000004-receipt.jpg', status: 'Failed', reason: 'Unreadable.' }),
    ];
    const api = fakeApi({
      'GET /api/listQueue': () => queue,
      'DELETE /api/removeScan': (call) => {
        queue = queue.filter((e) => e.fileName !== call.query.fileName);
        return { removed: true, fileName: call.query.fileName };
      },
    });
    renderApp('/ReceiptImages', { state: signedInState() });
    const failed = await screen.findByRole('region', { name: 'Failed' });
    expect(
      within(failed).getByRole('button', { name: `Retry ${uploadName(false, 1714550000004)}` }),
    ).toBeInTheDocument();
    await userEvent
      .setup()
      .click(within(failed).getByRole('button', { name: `Remove ${uploadName(false, 1714550000004)}` }));

    await waitFor(() => expect(screen.queryByRole('region', { name: 'Failed' })).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/removeScan')[0]?.query).toEqual({
      userId: 'user-1',
      fileName: '1714550000004-receipt.jpg',
    });
    expect(screen.getByRole('region', { name: 'Now analyzing' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports' })).toBeInTheDocument();
  });

  it("shows the server's words when Remove is refused, and keeps the scan", async () => {
    fakeApi({
      'GET /api/listQueue': [makeQueueEntry({ fileName: '1714550000004-receipt.jpg', status: 'Failed' })],
      'DELETE /api/removeScan': {
        status: 409,
        body: { error: 'AlreadyQueued', message: '"1714550000004-receipt.jpg" is queued or being analysed.' },
      },
    });
    renderApp('/ReceiptImages', { state: signedInState() });
    const failed = await screen.findByRole('region', { name: 'Failed' });
    await userEvent.setup().click(within(failed).getByRole('button', { name: /^Remove / }));
    expect(await within(failed).findByRole('alert')).toHaveTextContent('is queued or being analysed.');
    expect(within(failed).getAllByRole('listitem')).toHaveLength(1);
  });

  it('offers Retry and Remove on a scan that has not moved for 15 minutes, and not on a fresh one', async () => {
    const longAgo = new Date(Date.now() - STALE_SCAN_MS - 60_000).toISOString();
    fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({ fileName: '1714550000001-receipt.jpg', status: 'Analyzing', updated_at: longAgo }),
        makeQueueEntry({
          fileName: '1714550000002-receipt.jpg',
          status: 'false',
          updated_at: new Date().toISOString(),
        }),
      ],
    });
    renderApp('/ReceiptImages', { state: signedInState() });
    const analyzing = await screen.findByRole('region', { name: 'Now analyzing' });
    expect(within(analyzing).getByText(/Not moved for over 15 minutes/)).toBeInTheDocument();
    expect(
      within(analyzing).getByRole('button', { name: `Retry ${uploadName(false, 1714550000001)}` }),
    ).toBeEnabled();
    expect(
      within(analyzing).getByRole('button', { name: `Remove ${uploadName(false, 1714550000001)}` }),
    ).toBeEnabled();
    const queued = screen.getByRole('region', { name: 'Queued' });
    expect(within(queued).queryByRole('button')).not.toBeInTheDocument();
    expect(within(queued).queryByText(/Not moved/)).not.toBeInTheDocument();
  });

  it('shows a PDF upload as a PDF icon with a link that opens it, not a broken image', async () => {
    const pdf = `data:application/pdf;base64,${btoa('%PDF-1.4 receipt')}`;
    fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({
          fileName: '1714550000003-receipt.pdf',
          status: 'Failed',
          content_type: 'application/pdf',
          image: '/api/getImage?userId=user-1&blobName=1714550000003-receipt.pdf',
        }),
      ],
      'GET /api/getImage': pdf,
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const created = vi.fn(() => 'blob:receipt');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    renderApp('/ReceiptImages', { state: signedInState() });
    const failed = await screen.findByRole('region', { name: 'Failed' });
    expect(
      within(failed).getByRole('img', { name: `PDF receipt ${uploadName(true, 1714550000003)}` }),
    ).toBeInTheDocument();
    expect(within(failed).queryByRole('img', { name: /^Receipt / })).not.toBeInTheDocument();
    await userEvent
      .setup()
      .click(
        await within(failed).findByRole('button', { name: `Open PDF ${uploadName(true, 1714550000003)}` }),
      );
    expect(open).toHaveBeenCalledWith('blob:receipt', '_blank');
    const blob = (created.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('application/pdf');
    const text = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsText(blob);
    });
    expect(text).toBe('%PDF-1.4 receipt');
  });

  it('asks again for an image the server has not stored yet, and shows it once it has', async () => {
    // An upload's queue entry is written before its image: for a moment the image is not there.
    const photo = 'data:image/jpeg;base64,/9j/4AAQ';
    let stored = false;
    const api = fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({
          fileName: '1714550000005-receipt.jpg',
          status: 'false',
          image: '/api/getImage?userId=user-1&blobName=1714550000005-receipt.jpg',
        }),
      ],
      'GET /api/getImage': () => {
        const answer = stored
          ? photo
          : { status: 404, body: { error: 'ImageNotFound', message: 'There is no receipt image.' } };
        stored = true;
        return answer;
      },
    });
    renderApp('/ReceiptImages', { state: signedInState() });
    const picture = await screen.findByRole(
      'img',
      { name: `Receipt ${uploadName(false, 1714550000005)}` },
      { timeout: 3_000 },
    );
    expect(picture).toHaveAttribute('src', photo);
    expect(api.callsTo('GET', '/api/getImage')).toHaveLength(2);
  });

  it('shows a PDF upload by the picture of its first page, and opens the PDF itself from it', async () => {
    const page = 'data:image/png;base64,iVBORw0KGgo=';
    const pdf = `data:application/pdf;base64,${btoa('%PDF-1.4 two pages')}`;
    const api = fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({
          fileName: '1714550000004-receipt.pdf',
          status: 'Failed',
          content_type: 'application/pdf',
          image: '/api/getImage?userId=user-1&blobName=1714550000004-receipt.pdf',
        }),
      ],
      'GET /api/getImage': (call) => (call.query['preview'] === '1' ? page : pdf),
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const created = vi.fn(() => 'blob:receipt');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    renderApp('/ReceiptImages', { state: signedInState() });
    const failed = await screen.findByRole('region', { name: 'Failed' });
    const picture = await within(failed).findByRole('img', {
      name: `First page of PDF receipt ${uploadName(true, 1714550000004)}`,
    });
    expect(picture).toHaveAttribute('src', page);
    expect(api.callsTo('GET', '/api/getImage').map((c) => c.query['preview'])).toEqual(['1']);
    await userEvent
      .setup()
      .click(within(failed).getByRole('button', { name: `Open PDF ${uploadName(true, 1714550000004)}` }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:receipt', '_blank'));
    const last = api.callsTo('GET', '/api/getImage').at(-1)!;
    expect(last.query).toEqual({ userId: 'user-1', blobName: '1714550000004-receipt.pdf' });
    expect((created.mock.calls[0] as unknown as [Blob])[0].type).toBe('application/pdf');
  });

  it('goes to /Reports when the queue is empty', async () => {
    fakeApi({ 'GET /api/listQueue': [] });
    const { router } = renderApp('/ReceiptImages', { state: signedInState() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/Reports'));
  });

  it("shows the server's message when the queue cannot be read", async () => {
    fakeApi({
      'GET /api/listQueue': { status: 403, body: { error: 'Forbidden', message: 'userId is not yours.' } },
    });
    renderApp('/ReceiptImages', { state: signedInState() });
    expect(await screen.findByRole('alert')).toHaveTextContent('userId is not yours.');
  });
});
