import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAppData, makeQueueEntry } from '../../../testing/data';
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
    expect(within(analyzing).getByText('1714550000001-receipt.jpg')).toBeInTheDocument();
    const queued = screen.getByRole('region', { name: 'Queued' });
    expect(within(queued).getAllByRole('listitem')).toHaveLength(2);
    const failed = screen.getByRole('region', { name: 'Failed' });
    expect(within(failed).getByText('No text could be read from the image.')).toBeInTheDocument();

    await userEvent
      .setup()
      .click(within(failed).getByRole('button', { name: 'Retry 1714550000004-receipt.jpg' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/retryScan')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/retryScan')[0]?.body).toEqual({
      userId: 'user-1',
      fileName: '1714550000004-receipt.jpg',
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Failed' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Queued' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('goes to /Reports when the queue is empty', async () => {
    fakeApi({ 'GET /api/listQueue': [], 'GET /api/getAppData': makeAppData() });
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
