import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeAppData, makeBrand, makeItem, makeMerchant, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

describe('Reports', () => {
  afterEach(() => setWidth(1024));

  const data = makeAppData({
    reportReceipts: [
      makeReceipt({ receipt_id: 'r1', merchant_name: 'Colruyt', total_amount: 12.5, total_checks_out: true }),
      makeReceipt({
        receipt_id: 'r2',
        merchant_id: 'm2',
        merchant_name: 'Tesco',
        total_amount: 7.25,
        currency_code: 'GBP',
        transaction_date: '2024-05-03',
        total_checks_out: false,
      }),
    ],
    reportMerchants: [makeMerchant(), makeMerchant({ merchant_id: 'm2', name: 'Tesco' })],
    brands: [
      makeBrand({ name: 'Coca-Cola', purchases: 2, total: 5 }),
      makeBrand({ name: 'Never Bought', purchases: 0, total: 0 }),
      makeBrand({ name: 'Lotus', purchases: 1, total: 9.4 }),
    ],
    reportProductItems: [
      makeItem(),
      makeItem({ item_id: 'i2', description: 'Speculoos', brand: 'Lotus', total_price: 9.4 }),
    ],
  });

  it('loads the data on entry and shows the three tables stacked', async () => {
    const api = fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    renderApp('/Reports', { state: signedInState() });
    expect(await screen.findByRole('table', { name: 'Receipts' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Brands' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Product items' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/getAppData')[0]).toMatchObject({
      query: { userId: 'user-1' },
      authorization: 'Bearer test-token',
    });
  });

  it('shows the receipt total in red when its check fails, and keeps EUR and GBP totals apart', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    const bad = within(table).getByText('7.25');
    expect(bad.closest('span')).toHaveAttribute('title', 'The items do not add up to this total');
    expect(within(table).getByText('12.50').closest('[title]')).toBeNull();
    const totals = within(table.querySelector('tfoot') as HTMLElement).getAllByTestId('currency-total');
    expect(totals.map((t) => t.textContent).sort()).toEqual(['12.50 EUR', '7.25 GBP']);
  });

  it('shows currency and category only wider than 900, and region only wider than 1200', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    setWidth(800);
    renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    expect(headers(table)).toEqual(['Merchant', 'Date', 'Total', 'Open']);
    act(() => setWidth(1000));
    expect(headers(table)).toEqual(['Merchant', 'Date', 'Currency', 'Category', 'Total', 'Open']);
    act(() => setWidth(1300));
    expect(headers(table)).toEqual(['Merchant', 'Date', 'Currency', 'Category', 'Region', 'Total', 'Open']);
    const items = screen.getByRole('table', { name: 'Product items' });
    expect(headers(items)).toEqual(['Description', 'Quantity', 'Total', 'Date', 'Merchant', 'Open']);
    act(() => setWidth(360));
    expect(headers(items)).toEqual(['Description', 'Quantity', 'Total', 'Open']);
  });

  it('shows the currency code beside each total below 900 px, where the currency column is hidden', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    setWidth(390);
    renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    const totals = () =>
      within(table)
        .getAllByRole('row')
        .slice(1, 3)
        .map((row) => within(row).getAllByRole('cell').at(-2)?.textContent);
    expect(totals()).toEqual(expect.arrayContaining(['12.50 EUR', expect.stringMatching(/^7\.25 GBP/)]));
    act(() => setWidth(1000));
    expect(totals()).toEqual(expect.arrayContaining(['12.50', expect.stringMatching(/^7\.25(?! GBP)/)]));
  });

  it('links the receipts on their own page', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    renderApp('/Reports', { state: signedInState() });
    const section = await screen.findByRole('region', { name: 'Receipts' });
    expect(within(section).getByRole('link', { name: 'All receipts' })).toHaveAttribute('href', '/Receipts');
  });

  it('lists only brands with purchases, sorted by total descending', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    renderApp('/Reports', { state: signedInState() });
    const brands = await screen.findByRole('table', { name: 'Brands' });
    const names = within(brands.querySelector('tbody') as HTMLElement)
      .getAllByRole('row')
      .map((r) => within(r).getAllByRole('cell')[0]?.textContent);
    expect(names).toEqual(['Lotus', 'Coca-Cola']);
    expect(within(brands).getByRole('link', { name: 'Open brand Lotus' })).toHaveAttribute(
      'href',
      '/Brand?brandId=Lotus',
    );
  });

  it('shows a brand bought in several currencies one amount per currency, and orders abroad-only brands by amount', async () => {
    fakeApi({
      'GET /api/getAppData': makeAppData({
        brands: [
          makeBrand({ name: 'Heinz', purchases: 2, total: 3.3, totals_by_currency: { GBP: 3.3, USD: 3.49 } }),
          makeBrand({ name: 'Dove', purchases: 1, total: 0, totals_by_currency: { USD: 4.99 } }),
          makeBrand({ name: 'Coca-Cola', purchases: 1, total: 0, totals_by_currency: { USD: 3.98 } }),
        ],
      }),
      'GET /api/listQueue': [],
    });
    renderApp('/Reports', { state: signedInState() });
    const brands = await screen.findByRole('table', { name: 'Brands' });
    const rows = within(brands.querySelector('tbody') as HTMLElement)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.map((r) => [r[0], r[2]])).toEqual([
      ['Heinz', '3.30 GBP3.49 USD'],
      ['Dove', '4.99 USD'],
      ['Coca-Cola', '3.98 USD'],
    ]);
    const totals = within(brands.querySelector('tfoot') as HTMLElement).getAllByTestId('currency-total');
    expect(totals.map((t) => t.textContent)).toEqual(['3.30 GBP', '12.46 USD']);
  });

  it('opens the merchant from its name and the receipt from the open icon', async () => {
    fakeApi({ 'GET /api/getAppData': data, 'GET /api/listQueue': [] });
    const { router } = renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    expect(within(table).getByRole('link', { name: 'Tesco' })).toHaveAttribute(
      'href',
      '/Merchant?merchantId=m2',
    );
    await userEvent
      .setup()
      .click(within(table).getByRole('link', { name: 'Open receipt from Tesco on 2024-05-03' }));
    await waitFor(() => expect(router.state.location.search).toBe('?receiptId=r2'));
    expect(await screen.findByRole('heading', { name: 'This Receipt' })).toBeInTheDocument();
  });

  it("shows the server's message when the data cannot be loaded", async () => {
    fakeApi({
      'GET /api/getAppData': {
        status: 500,
        body: { error: 'StoreError', message: 'The table store did not answer.' },
      },
      'GET /api/listQueue': [],
    });
    renderApp('/Reports', { state: signedInState() });
    expect(await screen.findByRole('alert')).toHaveTextContent('The table store did not answer.');
  });
});
