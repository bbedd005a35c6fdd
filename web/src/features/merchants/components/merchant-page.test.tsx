import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAppData, makeMerchant, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';

describe('Merchant', () => {
  it('shows the summary and the receipts for this merchant with a totalled footer', async () => {
    const api = fakeApi({
      ...detailRoutes(
        makeAppData({
          reportMerchants: [
            makeMerchant({ merchant_total_amount: 20.75, merchant_last_visit: '2024-05-09' }),
          ],
          reportReceipts: [
            makeReceipt({ receipt_id: 'r1', total_amount: 12.5 }),
            makeReceipt({
              receipt_id: 'r2',
              total_amount: 8.25,
              transaction_date: '2024-05-09',
              transaction_time: '18:01:00',
            }),
            makeReceipt({ receipt_id: 'other', merchant_id: 'm9', total_amount: 99 }),
          ],
        }),
      ),
      'GET /api/listQueue': [],
    });
    renderApp('/Merchant?merchantId=m1', { state: signedInState() });
    const summary = await screen.findByRole('region', { name: 'Merchant summary' });
    for (const text of [
      'Colruyt',
      'Rue Neuve 1',
      'Brussels',
      '1000',
      'BE',
      '+32 2 123 45 67',
      '20.75 EUR',
      '2024-05-09',
    ]) {
      expect(within(summary).getAllByText(text).length).toBeGreaterThan(0);
    }
    for (const label of ['Total Amount', 'First Visit', 'Last Visit'])
      expect(within(summary).getByText(label)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Receipts for this Merchant' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => [h.textContent, h.style.width]),
    ).toEqual([
      ['Date', '53%'],
      ['Time', '20%'],
      ['Total Amount', '20%'],
    ]);
    // The receipts come a page at a time from the report query, filtered by this merchant.
    expect(await within(table).findByRole('link', { name: '2024-05-09' })).toHaveAttribute(
      'href',
      '/Receipt?receiptId=r2',
    );
    expect(within(table.querySelector('tfoot') as HTMLElement).getByText('20.75 EUR')).toBeInTheDocument();
    expect(within(table).queryByText('99.00')).not.toBeInTheDocument();
    // Besides the header's review count, one page of this merchant's receipts.
    const pages = api.callsTo('GET', '/api/report').filter((c) => c.query.review !== 'needed');
    expect(pages.map((c) => [c.query.table, c.query.merchant])).toEqual([['receipts', 'm1']]);
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);
  });

  it("falls back to 'Unknown Merchant' for receipts whose merchant row is missing", async () => {
    fakeApi({
      ...detailRoutes(makeAppData({ reportReceipts: [makeReceipt({ merchant_id: 'm7' })] })),
      'GET /api/listQueue': [],
    });
    renderApp('/Merchant?merchantId=m7', { state: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Unknown Merchant' })).toBeInTheDocument();
  });

  it('says the merchant is not found, with a way to the reports, rather than an empty summary', async () => {
    fakeApi({ ...detailRoutes(makeAppData()), 'GET /api/listQueue': [] });
    renderApp('/Merchant?merchantId=missing', { state: signedInState() });
    expect(await screen.findByText(/Merchant not found/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your reports' })).toHaveAttribute('href', '/Reports');
    expect(screen.queryByRole('region', { name: 'Merchant summary' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('renames a merchant with the etag it was read with', async () => {
    const api = fakeApi({
      ...detailRoutes(makeAppData({ reportMerchants: [makeMerchant({ etag: 'm-etag' })] })),
      'GET /api/listQueue': [],
      'POST /api/updateMerchant': { merchantId: 'm1', etag: 'm-etag-2' },
    });
    renderApp('/Merchant?merchantId=m1', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit merchant' }, { timeout: 5000 }));
    const form = screen.getByRole('form', { name: 'Edit merchant' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Colruyt Ixelles');
    await user.type(
      within(form).getByRole('textbox', { name: 'City' }),
      '{Control>}a{/Control}Ixelles{Enter}',
    );
    await waitFor(() => expect(api.callsTo('POST', '/api/updateMerchant')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/updateMerchant')[0]!.body).toEqual({
      userId: 'user-1',
      merchantId: 'm1',
      etag: 'm-etag',
      changes: { name: 'Colruyt Ixelles', city: 'Ixelles' },
    });
  });

  it('merges another merchant into this one only after asking', async () => {
    const api = fakeApi({
      ...detailRoutes(
        makeAppData({
          reportMerchants: [
            makeMerchant({ etag: 'm-etag' }),
            makeMerchant({ merchant_id: 'm2', name: 'COLRUYT LAGE PRIJZEN', etag: 'd-etag' }),
          ],
        }),
      ),
      'GET /api/listQueue': [],
      'POST /api/mergeMerchants': { merchantId: 'm1', etag: 'm-etag-2' },
    });
    renderApp('/Merchant?merchantId=m1', { state: signedInState() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit merchant' }, { timeout: 5000 }));
    const merge = screen.getByRole('form', { name: 'Merge merchants' });
    await user.selectOptions(within(merge).getByRole('combobox', { name: 'Same shop as' }), 'm2');
    await user.click(within(merge).getByRole('button', { name: 'Merge' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Merge these merchants?' });
    expect(dialog).toHaveTextContent('Every receipt of COLRUYT LAGE PRIJZEN moves to Colruyt');
    expect(api.callsTo('POST', '/api/mergeMerchants')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/mergeMerchants')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/mergeMerchants')[0]!.body).toEqual({
      userId: 'user-1',
      merchantId: 'm1',
      etag: 'm-etag',
      duplicateId: 'm2',
      duplicateEtag: 'd-etag',
    });
  });
});
