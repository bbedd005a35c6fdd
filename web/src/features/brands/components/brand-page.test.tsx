import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { makeAppData, makeBrand, makeItem, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';

describe('Brand', () => {
  it('shows the brand, its owning corporation and the receipts that contain it', async () => {
    const api = fakeApi({
      ...detailRoutes(
        makeAppData({
          brands: [
            makeBrand({
              name: 'Coca-Cola',
              owning_corporation: 'The Coca-Cola Company',
              purchases: 2,
              total: 5,
            }),
          ],
          reportReceipts: [
            makeReceipt({ receipt_id: 'r1' }),
            makeReceipt({ receipt_id: 'r2', transaction_date: '2024-06-02' }),
          ],
          reportProductItems: [
            makeItem({ item_id: 'a', receipt_id: 'r1', total_price: 2.5 }),
            makeItem({
              item_id: 'b',
              receipt_id: 'r2',
              total_price: 1.25,
              receipt_transaction_date: '2024-06-02',
            }),
            makeItem({
              item_id: 'c',
              receipt_id: 'r2',
              total_price: 1.25,
              receipt_transaction_date: '2024-06-02',
            }),
          ],
        }),
      ),
      'GET /api/listQueue': [],
    });
    renderApp('/Brand?brandId=Coca-Cola', { state: signedInState() });
    expect(await screen.findByText('The Coca-Cola Company')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Receipts with Coca-Cola' });
    // One row per item of the brand, each opening its receipt; the footer totals them all.
    const links = await within(table).findAllByRole('link', { name: '2024-06-02' });
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toHaveAttribute('href', '/Receipt?receiptId=r2');
    expect(within(table).getByText('2.50')).toBeInTheDocument();
    expect(within(table).getAllByText('1.25')).toHaveLength(2);
    expect(within(table.querySelector('tfoot') as HTMLElement).getByText('5.00 EUR')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/report').map((c) => [c.query.table, c.query.brand])).toEqual(
      expect.arrayContaining([
        ['brands', 'Coca-Cola'],
        ['items', 'Coca-Cola'],
      ]),
    );
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);
  });

  it("shows 'Brand not found' for an unknown brand", async () => {
    fakeApi({ ...detailRoutes(makeAppData()), 'GET /api/listQueue': [] });
    renderApp('/Brand?brandId=Nope', { state: signedInState() });
    expect(await screen.findByText('Brand not found')).toBeInTheDocument();
  });
});
