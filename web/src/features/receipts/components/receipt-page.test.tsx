import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAppData, makeItem, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';

const receipt = makeReceipt({
  receipt_id: 'r1',
  document_url: 'users/user-1/1714550000000-receipt.jpg',
  total_amount: 4.6,
});
const data = makeAppData({
  reportReceipts: [receipt],
  reportProductItems: [
    makeItem({ item_id: 'i1', description: 'Coca-Cola 1.5L', quantity: 2, total_price: 2.5 }),
    makeItem({ item_id: 'i2', description: 'Baguette', total_price: 2.1, brand: null }),
  ],
});

/** Delete asks first: the toolbar button opens the dialog, whose Delete button goes ahead. */
async function confirmDelete() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Delete receipt' }, { timeout: 5000 }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete this receipt?' }, { timeout: 5000 });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
}

describe('Receipt', () => {
  it('shows the merchant summary, this receipt and its products with a total', async () => {
    const api = fakeApi({ ...detailRoutes(data), 'GET /api/listQueue': [] });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const summary = await screen.findByRole('region', { name: 'Merchant summary' });
    expect(within(summary).getByRole('heading', { name: 'Colruyt' })).toBeInTheDocument();
    expect(within(summary).getByText('Rue Neuve 1')).toBeInTheDocument();
    expect(within(summary).getByText('4.60 EUR')).toBeInTheDocument();
    const facts = screen.getByRole('region', { name: 'This Receipt' });
    for (const text of ['4.60 EUR', '2024-05-01', '10:15:00', 'receipt', 'grocery']) {
      expect(within(facts).getByText(text)).toBeInTheDocument();
    }
    expect(within(facts).getByText('Category')).toBeInTheDocument();
    const products = screen.getByRole('table', { name: 'Receipt Products' });
    expect(
      within(products)
        .getAllByRole('columnheader')
        .map((h) => [h.textContent, h.style.width]),
    ).toEqual([
      ['Description', '53%'],
      ['Quantity', '20%'],
      ['Unit Price', '20%'],
    ]);
    expect(within(products).getByRole('link', { name: 'Baguette' })).toHaveAttribute(
      'href',
      '/ProductItem?itemId=i2',
    );
    expect(within(products.querySelector('tfoot') as HTMLElement).getByText('4.60 EUR')).toBeInTheDocument();
    // One small answer for the whole screen, never the user's whole report data.
    expect(api.callsTo('GET', '/api/receiptDetail').map((c) => c.query)).toEqual([
      { userId: 'user-1', receiptId: 'r1' },
    ]);
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);
    expect(api.callsTo('GET', '/api/listMerchants')).toEqual([]);
  });

  it('opens the stored image in a modal no wider than 900px and 80vw', async () => {
    const api = fakeApi({
      ...detailRoutes(data),
      'GET /api/listQueue': [],
      'GET /api/getImage': 'data:image/png;base64,iVBORw0KGgo=',
    });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'View receipt image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipt image' });
    const image = await within(dialog).findByRole('img', { name: /Receipt from Colruyt/ });
    expect(image).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(getComputedStyle(dialog).maxWidth).toBe('min(900px, 80vw)');
    expect(api.callsTo('GET', '/api/getImage')[0]?.query).toEqual({
      userId: 'user-1',
      blobName: '1714550000000-receipt.jpg',
      preview: '1',
    });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens the analysis result as a JSON tree', async () => {
    fakeApi({ ...detailRoutes(data), 'GET /api/listQueue': [] });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'View analysis JSON' }));
    const dialog = await screen.findByRole('dialog', { name: 'Analysis result' });
    expect(within(dialog).getByRole('tree', { name: 'Analysis result' })).toBeInTheDocument();
    expect(within(dialog).getByText('receipt')).toBeInTheDocument();
    expect(within(dialog).getByText('items')).toBeInTheDocument();
  });

  it('deletes: shows the busy label, then the success bar at the merchant screen', async () => {
    let release: () => void = () => undefined;
    const api = fakeApi({
      // Another receipt from the same merchant keeps the merchant.
      ...detailRoutes({
        ...data,
        reportReceipts: [...data.reportReceipts, makeReceipt({ receipt_id: 'r0' })],
      }),
      'GET /api/listQueue': [],
      'DELETE /api/deleteReceiptData': () =>
        new Promise((resolve) => {
          release = () => resolve({ deleted: true, receiptId: 'r1' });
        }),
    });
    const { router } = renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await confirmDelete();
    expect(await screen.findByText('Deleting receipt and data')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Receipt Products' })).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/Merchant'));
    expect(router.state.location.search).toBe('?merchantId=m1');
    const bar = await screen.findByRole('status');
    expect(bar).toHaveTextContent('Receipt and data deleted successfully.');
    expect(api.callsTo('DELETE', '/api/deleteReceiptData')[0]?.query).toEqual({
      receiptId: 'r1',
      userId: 'user-1',
      blobName: '1714550000000-receipt.jpg',
    });
    await userEvent.setup().click(within(bar).getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText('Receipt and data deleted successfully.')).not.toBeInTheDocument();
  });

  it("goes to the reports, with the success bar, when the merchant's last receipt is deleted", async () => {
    fakeApi({
      ...detailRoutes(data),
      'GET /api/listQueue': [],
      'DELETE /api/deleteReceiptData': { deleted: true, receiptId: 'r1' },
    });
    const { router } = renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await confirmDelete();
    await waitFor(() => expect(router.state.location.pathname).toBe('/Reports'));
    expect(await screen.findByRole('status')).toHaveTextContent('Receipt and data deleted successfully.');
    expect(screen.queryByText('Unknown Merchant')).not.toBeInTheDocument();
  });

  it("shows the error bar with the server's message when the delete fails, still going to the merchant", async () => {
    fakeApi({
      ...detailRoutes(data),
      'GET /api/listQueue': [],
      'DELETE /api/deleteReceiptData': {
        status: 500,
        body: { error: 'StoreError', message: 'Transaction Failed' },
      },
    });
    const { router } = renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await confirmDelete();
    const bar = await screen.findByRole('alert');
    expect(bar).toHaveTextContent('Error deleting receipt and data.');
    expect(bar).toHaveTextContent('Transaction Failed');
    expect(router.state.location.pathname).toBe('/Merchant');
  });

  it('asks before deleting, and Cancel deletes nothing', async () => {
    const api = fakeApi({ ...detailRoutes(data), 'GET /api/listQueue': [] });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete receipt' }, { timeout: 5000 }));
    const dialog = await screen.findByRole(
      'alertdialog',
      { name: 'Delete this receipt?' },
      { timeout: 5000 },
    );
    expect(dialog).toHaveTextContent('Colruyt on 2024-05-01');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/deleteReceiptData')).toEqual([]);
    expect(screen.getByRole('table', { name: 'Receipt Products' })).toBeInTheDocument();
  });

  it('saves a corrected total with the etag it was read with, sending only what changed', async () => {
    let current = data;
    const api = fakeApi({
      ...detailRoutes(() => current),
      'GET /api/listQueue': [],
      'GET /api/listBrands': [{ name: 'Coca-Cola', owning_corporation: 'The Coca-Cola Company' }],
      'GET /api/getImage': 'data:image/png;base64,iVBORw0KGgo=',
      'POST /api/saveReceipt': () => {
        current = {
          ...data,
          reportReceipts: [{ ...receipt, total_amount: 46, etag: 'etag-2', edited: ['total_amount'] }],
        };
        return { receiptId: 'r1', etag: 'etag-2' };
      },
    });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit receipt' }, { timeout: 5000 }));
    const form = await screen.findByRole('form', { name: 'Edit receipt' });
    expect(await screen.findByRole('img', { name: /Receipt from Colruyt/ })).toBeInTheDocument();
    // Amounts with two decimals, and one Save for the receipt and all its items.
    const total = within(form).getByRole('textbox', { name: 'Total' });
    expect(total).toHaveValue('4.60');
    expect(within(form).getByRole('group', { name: 'Item Baguette' })).toBeInTheDocument();
    expect(
      within(form)
        .getAllByRole('button', { name: /^Save/ })
        .map((b) => b.textContent),
    ).toEqual(['Save changes']);
    await user.clear(total);
    await user.type(total, '46{Enter}');
    await waitFor(() => expect(api.callsTo('POST', '/api/saveReceipt')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/saveReceipt')[0]!.body).toEqual({
      userId: 'user-1',
      receiptId: 'r1',
      etag: 'etag-r1',
      changes: { total_amount: 46 },
    });
    const facts = screen.getByRole('region', { name: 'This Receipt' });
    expect(await within(facts).findByText('46.00 EUR')).toBeInTheDocument();
    expect(screen.getByLabelText('Edited by you')).toHaveTextContent('Values you set: Total.');
    expect(within(form).getByRole('textbox', { name: 'Total' })).toHaveValue('46.00');
  });

  it('removes an item and edits another with the one Save, sending the full item list', async () => {
    const api = fakeApi({
      ...detailRoutes(data),
      'GET /api/listQueue': [],
      'GET /api/listBrands': [],
      'GET /api/getImage': 'data:image/png;base64,iVBORw0KGgo=',
      'POST /api/saveReceipt': { receiptId: 'r1', etag: 'etag-2' },
    });
    renderApp('/Receipt?receiptId=r1&edit=1', { state: signedInState() });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Edit receipt' }, { timeout: 5000 });
    await user.click(within(form).getByRole('button', { name: 'Remove Baguette' }));
    expect(within(form).getByRole('group', { name: 'Item Baguette' })).toHaveTextContent(
      'removed when you save',
    );
    const cola = within(form).getByRole('group', { name: 'Item Coca-Cola 1.5L' });
    await user.clear(within(cola).getByRole('textbox', { name: 'Total price' }));
    await user.type(within(cola).getByRole('textbox', { name: 'Total price' }), '2.60');
    expect(api.callsTo('POST', '/api/saveReceipt')).toEqual([]);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/saveReceipt')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/saveReceipt')[0]!.body).toMatchObject({
      etag: 'etag-r1',
      changes: {},
      items: [
        {
          itemId: 'i1',
          item: { description: 'Coca-Cola 1.5L', quantity: 2, total_price: 2.6 },
        },
      ],
    });
  });

  it('keeps the edit when the receipt was changed elsewhere, and says what changed', async () => {
    let current = data;
    const api = fakeApi({
      ...detailRoutes(() => current),
      'GET /api/listQueue': [],
      'GET /api/listBrands': [],
      'GET /api/getImage': 'data:image/png;base64,iVBORw0KGgo=',
      'POST /api/saveReceipt': ({ body }) => {
        if ((body as { etag: string }).etag === 'etag-r1') {
          // Another device saved first.
          current = { ...data, reportReceipts: [{ ...receipt, doc_type: 'invoice', etag: 'etag-2' }] };
          return {
            status: 409,
            body: {
              error: 'StaleEdit',
              message: 'This receipt was changed elsewhere; reload to see the new values',
            },
          };
        }
        return { receiptId: 'r1', etag: 'etag-3' };
      },
    });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit receipt' }, { timeout: 5000 }));
    const form = await screen.findByRole('form', { name: 'Edit receipt' });
    await user.type(within(form).getByRole('textbox', { name: 'Category' }), 's{Enter}');
    const notice = await within(form).findByLabelText('Changed elsewhere', {}, { timeout: 5000 });
    expect(notice).toHaveTextContent('Your changes are kept');
    expect(notice).toHaveTextContent('Document type: receipt → invoice');
    expect(within(form).queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
    // The person's own value stays; the one changed elsewhere comes in.
    expect(within(form).getByRole('textbox', { name: 'Category' })).toHaveValue('grocerys');
    expect(within(form).getByRole('textbox', { name: 'Document type' })).toHaveValue('invoice');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/saveReceipt')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/saveReceipt')[1]!.body).toEqual({
      userId: 'user-1',
      receiptId: 'r1',
      etag: 'etag-2',
      changes: { receipt_type: 'grocerys' },
    });
  });

  it('says why a receipt needs review and clears it with Mark reviewed', async () => {
    let current = makeAppData({
      ...data,
      reportReceipts: [{ ...receipt, needs_review: true, review_reasons: ['total_check_fails'] }],
    });
    const api = fakeApi({
      ...detailRoutes(() => current),
      'GET /api/listQueue': [],
      'POST /api/markReviewed': () => {
        current = data;
        return { receiptId: 'r1', etag: 'etag-2' };
      },
    });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const bar = await screen.findByLabelText('Needs review', {}, { timeout: 5000 });
    expect(bar).toHaveTextContent("The receipt's own figures don't agree with the total");
    await userEvent.setup().click(within(bar).getByRole('button', { name: 'Mark reviewed' }));
    await waitFor(() => expect(screen.queryByLabelText('Needs review')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/markReviewed')[0]!.body).toEqual({
      userId: 'user-1',
      receiptId: 'r1',
      etag: 'etag-r1',
    });
  });

  it('notes a date taken from the upload without asking for review, and opens the date to edit', async () => {
    const dated = makeAppData({
      ...data,
      reportReceipts: [{ ...receipt, needs_review: false, review_reasons: ['date_from_upload'] }],
    });
    fakeApi({ ...detailRoutes(() => dated), 'GET /api/listQueue': [] });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    const note = await screen.findByLabelText('Date from the upload', {}, { timeout: 5000 });
    expect(note).toHaveTextContent('No date printed: the upload date is used');
    expect(screen.queryByLabelText('Needs review')).not.toBeInTheDocument();
    await userEvent.setup().click(within(note).getByRole('button', { name: 'Edit date' }));
    const form = await screen.findByRole('form', { name: 'Edit receipt' });
    expect(within(form).getByLabelText('Date')).toBeInTheDocument();
  });

  describe('a possible duplicate', () => {
    const first = makeReceipt({ receipt_id: 'r0', transaction_date: '2024-05-01', total_amount: 4.6 });
    const second = {
      ...receipt,
      possible_duplicate_of: 'r0',
      needs_review: true,
      review_reasons: ['possible_duplicate'],
    };
    const withDuplicate = makeAppData({ ...data, reportReceipts: [first, second] });

    it('warns with a link to the other receipt, and "Keep both" clears the warning', async () => {
      let current = withDuplicate;
      const api = fakeApi({
        ...detailRoutes(() => current),
        'GET /api/listQueue': [],
        'POST /api/keepBothReceipts': () => {
          current = makeAppData({ ...data, reportReceipts: [first, receipt] });
          return { receiptId: 'r1', etag: 'etag-2' };
        },
      });
      renderApp('/Receipt?receiptId=r1', { state: signedInState() });
      const bar = await screen.findByLabelText('Possible duplicate', {}, { timeout: 5000 });
      expect(bar).toHaveTextContent(
        'You already have a receipt from Colruyt on 2024-05-01 10:15 for 4.60 EUR',
      );
      expect(within(bar).getByRole('link', { name: 'open that receipt' })).toHaveAttribute(
        'href',
        '/Receipt?receiptId=r0',
      );
      expect(screen.getByLabelText('Needs review')).toHaveTextContent(
        'It looks like another receipt you have',
      );
      await userEvent.setup().click(within(bar).getByRole('button', { name: 'Keep both' }));
      await waitFor(() => expect(screen.queryByLabelText('Possible duplicate')).not.toBeInTheDocument());
      expect(api.callsTo('POST', '/api/keepBothReceipts')[0]!.body).toEqual({
        userId: 'user-1',
        receiptId: 'r1',
        etag: 'etag-r1',
      });
    });

    it('"Delete this one" asks first, deletes this receipt and opens the other', async () => {
      const api = fakeApi({
        ...detailRoutes(withDuplicate),
        'GET /api/listQueue': [],
        'DELETE /api/deleteReceiptData': { deleted: true, receiptId: 'r1' },
      });
      const { router } = renderApp('/Receipt?receiptId=r1', { state: signedInState() });
      const user = userEvent.setup();
      const bar = await screen.findByLabelText('Possible duplicate', {}, { timeout: 5000 });
      await user.click(within(bar).getByRole('button', { name: 'Delete this one' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete this receipt?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(router.state.location.search).toBe('?receiptId=r0'));
      expect(api.callsTo('DELETE', '/api/deleteReceiptData')[0]?.query).toMatchObject({ receiptId: 'r1' });
    });

    it('shows no warning when the other receipt is gone', async () => {
      fakeApi({
        ...detailRoutes(makeAppData({ ...data, reportReceipts: [second] })),
        'GET /api/listQueue': [],
      });
      renderApp('/Receipt?receiptId=r1', { state: signedInState() });
      await screen.findByRole('region', { name: 'This Receipt' }, { timeout: 5000 });
      expect(screen.queryByLabelText('Possible duplicate')).not.toBeInTheDocument();
    });
  });

  it('shows the analysis as the analyzer wrote it in the JSON viewer', async () => {
    fakeApi({
      ...detailRoutes(data),
      'GET /api/listQueue': [],
      'GET /api/getAnalysis': { fileName: 'r1-receipt.jpg', result: { analyzer: 'ocr', receipt: {} } },
    });
    renderApp('/Receipt?receiptId=r1', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'View analysis JSON' }));
    const dialog = await screen.findByRole('dialog', { name: 'Analysis result' });
    expect(await within(dialog).findByText('As the analyzer read it.')).toBeInTheDocument();
    expect(within(dialog).getByText('result')).toBeInTheDocument();
  });

  it('says so when the receipt is not in the data', async () => {
    fakeApi({ ...detailRoutes(data), 'GET /api/listQueue': [] });
    renderApp('/Receipt?receiptId=gone', { state: signedInState() });
    expect(await screen.findByText(/Receipt not found/)).toBeInTheDocument();
  });
});
