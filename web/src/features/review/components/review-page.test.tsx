import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAppData, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';

const flagged = (id: string, analyzedAt: string, reasons: string[]) =>
  makeReceipt({ receipt_id: id, needs_review: true, review_reasons: reasons, analyzed_at: analyzedAt });

describe('Needs review', () => {
  it('lists flagged receipts newest first with their reasons, counts them in the header, and empties as they are reviewed', async () => {
    let receipts = [
      flagged('old', '2024-05-01T10:00:00Z', ['no_date']),
      makeReceipt({ receipt_id: 'fine' }),
      flagged('new', '2024-05-02T10:00:00Z', ['total_check_fails', 'low_confidence']),
    ];
    const api = fakeApi({
      // The list and the header's count are the receipts report filtered by review=needed.
      ...detailRoutes(() => makeAppData({ reportReceipts: receipts })),
      'GET /api/listQueue': [],
      'POST /api/markReviewed': (call) => {
        const { receiptId } = call.body as { receiptId: string };
        receipts = receipts.map((r) => (r.receipt_id === receiptId ? { ...r, needs_review: false } : r));
        return { receiptId, etag: 'etag-2' };
      },
    });
    renderApp('/Review', { state: signedInState() });
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/api/report')
          .some((c) => c.query.review === 'needed' && c.query.sort === 'analyzed'),
      ).toBe(true),
    );
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);
    const list = await screen.findByRole('list', { name: 'Receipts that need review' }, { timeout: 5000 });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(
      "The receipt's own figures don't agree with the total. The total or the date rests on little evidence",
    );
    expect(rows[1]).toHaveTextContent('No date was found');
    expect(within(rows[0]!).getByRole('link', { name: 'Correct' })).toHaveAttribute(
      'href',
      '/Receipt?receiptId=new&edit=1',
    );
    expect(screen.getByRole('link', { name: '2 receipts need review' })).toHaveAttribute('href', '/Review');

    const user = userEvent.setup();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Mark reviewed' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/markReviewed')[0]!.body).toEqual({
      userId: 'user-1',
      receiptId: 'new',
      etag: 'etag-new',
    });
    expect(await screen.findByRole('link', { name: '1 receipt needs review' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark reviewed' }));
    expect(await screen.findByText(/Nothing to review/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /need(s)? review/ })).not.toBeInTheDocument();
  });

  it('deletes a receipt from the list after asking, with its image', async () => {
    let receipts = [
      flagged('photo', '2024-05-02T10:00:00Z', ['no_date']),
      flagged('kept', '2024-05-01T10:00:00Z', ['no_date']),
    ].map((r) => ({ ...r, document_url: `users/user-1/${r.receipt_id}-receipt.jpg` }));
    const api = fakeApi({
      ...detailRoutes(() => makeAppData({ reportReceipts: receipts })),
      'GET /api/listQueue': [],
      'DELETE /api/deleteReceiptData': (call) => {
        receipts = receipts.filter((r) => r.receipt_id !== call.query.receiptId);
        return { deleted: true, receiptId: call.query.receiptId };
      },
    });
    renderApp('/Review', { state: signedInState() });
    const list = await screen.findByRole('list', { name: 'Receipts that need review' }, { timeout: 5000 });
    const user = userEvent.setup();
    const first = within(list).getAllByRole('listitem')[0]!;
    await user.click(within(first).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete this receipt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/deleteReceiptData')).toEqual([]);

    await user.click(within(first).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete this receipt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo('DELETE', '/api/deleteReceiptData').map((c) => c.query)).toEqual([
      { userId: 'user-1', receiptId: 'photo', blobName: 'photo-receipt.jpg' },
    ]);
    expect(within(list).getByRole('listitem')).toHaveTextContent('Colruyt');
  });
});
