import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DashboardAnswer } from '@receipts/core/contract/dashboard';
import { makeEmptyDashboard, makeReceipt } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

function answer(overrides: Partial<DashboardAnswer> = {}): DashboardAnswer {
  const months = makeEmptyDashboard().months;
  months[11] = { month: '2024-04', totals: { EUR: 9.7, GBP: 3.6 }, receipts: 3 };
  months[10] = { month: '2024-03', totals: { EUR: 10 }, receipts: 1 };
  return {
    period: 'month',
    today: '2024-04-20',
    isCurrent: true,
    current: { from: '2024-04-01', to: '2024-04-30' },
    previous: { from: '2024-03-01', to: '2024-03-31' },
    spending: [
      { currency: 'EUR', current: 9.7, previous: 10, receipts: 2 },
      { currency: 'GBP', current: 3.6, previous: 0, receipts: 1 },
    ],
    months,
    topMerchants: [
      {
        id: 'm-colruyt',
        name: 'Colruyt',
        total: 5.5,
        currency_code: 'EUR',
        totals_by_currency: { EUR: 5.5 },
        count: 1,
      },
    ],
    topBrands: [
      {
        id: 'Coca-Cola',
        name: 'Coca-Cola',
        total: 2.5,
        currency_code: 'EUR',
        totals_by_currency: {},
        count: 1,
      },
    ],
    topCorporations: [
      {
        id: 'The Coca-Cola Company',
        name: 'The Coca-Cola Company',
        total: 2.5,
        currency_code: 'EUR',
        totals_by_currency: {},
        count: 1,
      },
      {
        id: 'Ahold Delhaize',
        name: 'Ahold Delhaize',
        total: 4,
        currency_code: 'EUR',
        totals_by_currency: { EUR: 4 },
        count: 2,
        through_shops: { count: 3, total: 61.2, currency_code: 'EUR', totals_by_currency: { EUR: 61.2 } },
      },
    ],
    categories: [
      { category: 'grocery', totals: { EUR: 5.5, GBP: 3.6 }, receipts: 2 },
      { category: null, totals: { EUR: 4.2 }, receipts: 1 },
    ],
    latestReceipts: [
      makeReceipt({ receipt_id: 'r9', merchant_name: 'Tesco', transaction_date: '2024-04-15' }),
    ],
    receiptCount: 6,
    needsReview: 2,
    version: 'v1',
    ...overrides,
  };
}

describe('Home signed in', () => {
  it("shows the period's spending against the last, top lists with links, categories and latest receipts", async () => {
    const api = fakeApi({ 'GET /api/dashboard': answer(), 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState() });
    const spending = await screen.findByRole('region', { name: 'Spending this month' });
    expect(within(spending).getByText('9.70 EUR')).toBeInTheDocument();
    expect(within(spending).getByText('0.30 EUR less than last month (10.00 EUR, −3%).')).toBeInTheDocument();
    expect(within(spending).getByText('3.60 GBP')).toBeInTheDocument();
    expect(within(spending).getByText('Nothing spent last month.')).toBeInTheDocument();

    expect(
      within(screen.getByRole('region', { name: 'Top merchants' })).getByRole('link', { name: 'Colruyt' }),
    ).toHaveAttribute('href', '/Merchant?merchantId=m-colruyt');
    expect(
      within(screen.getByRole('region', { name: 'Top brands' })).getByRole('link', { name: 'Coca-Cola' }),
    ).toHaveAttribute('href', '/Brand?brandId=Coca-Cola');
    expect(
      within(screen.getByRole('region', { name: 'Top corporations' })).getByRole('link', {
        name: 'The Coca-Cola Company',
      }),
    ).toHaveAttribute('href', '/Corporation?name=The%20Coca-Cola%20Company');
    // A corporation that owns shops: its brands and its shops apart, never one sum of the two.
    const owners = screen.getByRole('region', { name: 'Top corporations' });
    const ahold = within(owners).getByRole('link', { name: 'Ahold Delhaize' }).closest('li')!;
    expect(ahold).toHaveTextContent('Its brands (2 items)4.00 EUR');
    expect(ahold).toHaveTextContent('At its shops (3 visits)61.20 EUR');
    expect(ahold).not.toHaveTextContent('65.20');
    expect(within(owners).getByText(/so the two are not added/)).toBeInTheDocument();

    const categories = screen.getByRole('region', { name: 'By category' });
    expect(within(categories).getByText('Grocery (2 receipts)')).toBeInTheDocument();
    expect(within(categories).getByText('5.50 EUR · 3.60 GBP')).toBeInTheDocument();
    expect(within(categories).getByText('No category (1 receipt)')).toBeInTheDocument();

    expect(
      within(screen.getByRole('region', { name: 'Latest receipts' })).getByRole('link', {
        name: 'Tesco, 2024-04-15',
      }),
    ).toHaveAttribute('href', '/Receipt?receiptId=r9');
    expect(screen.getByRole('link', { name: 'Scan a receipt' })).toHaveAttribute('href', '/Camera?p=Camera');
    expect(screen.getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/Camera?p=Upload');
    expect(screen.getByRole('link', { name: '0 scans pending' })).toHaveAttribute('href', '/ReceiptImages');
    expect(screen.getByRole('link', { name: '2 receipts need review' })).toHaveAttribute('href', '/Review');

    const [call] = api.callsTo('GET', '/api/dashboard');
    expect(call!.query).toMatchObject({ userId: 'user-1', period: 'month' });
    expect(call!.query.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('gives the month chart a summary and every figure in a table', async () => {
    fakeApi({ 'GET /api/dashboard': answer(), 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState() });
    const months = await screen.findByRole('region', { name: 'Last 12 months' });
    const charts = within(months).getAllByRole('img');
    expect(charts.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Bar chart of spending per month in EUR, May 2023 to Apr 2024. Highest: Mar 2024, 10.00 EUR. This month: 9.70 EUR.',
      'Bar chart of spending per month in GBP, May 2023 to Apr 2024. Highest: Apr 2024, 3.60 GBP. This month: 3.60 GBP.',
    ]);
    await userEvent.click(within(months).getByText('Show the months as a table'));
    const table = within(months).getByRole('table', { name: 'Spending per month' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Month', 'Receipts', 'EUR', 'GBP']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(
      within(rows[12]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '9.70', '3.60']);
    expect(within(rows[12]!).getByRole('rowheader')).toHaveTextContent('Apr 2024');
  });

  it('switches the period and asks the server for it', async () => {
    const api = fakeApi({
      'GET /api/dashboard': (call) =>
        call.query.period === 'year'
          ? answer({
              period: 'year',
              current: { from: '2024-01-01', to: '2024-12-31' },
              spending: [{ currency: 'EUR', current: 25.7, previous: 1.5, receipts: 4 }],
            })
          : answer(),
      'GET /api/listQueue': [],
    });
    const { router } = renderApp('/', { state: signedInState() });
    await screen.findByRole('region', { name: 'Spending this month' });
    await userEvent.click(screen.getByRole('radio', { name: 'Year' }));
    const year = await screen.findByRole('region', { name: 'Spending this year' });
    expect(within(year).getByText('25.70 EUR')).toBeInTheDocument();
    expect(within(year).getByText(/more than last year/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?period=year');
    expect(api.callsTo('GET', '/api/dashboard').map((c) => c.query.period)).toEqual(['month', 'year']);
  });

  it('goes back and forth through the periods, and to any month', async () => {
    const api = fakeApi({
      'GET /api/dashboard': (call) =>
        call.query.at === '2024-03-01'
          ? answer({
              isCurrent: false,
              today: '2024-03-01',
              current: { from: '2024-03-01', to: '2024-03-31' },
              previous: { from: '2024-02-01', to: '2024-02-29' },
              spending: [{ currency: 'EUR', current: 10, previous: 4, receipts: 1 }],
            })
          : answer(),
      'GET /api/listQueue': [],
    });
    const { router } = renderApp('/', { state: signedInState() });
    await screen.findByRole('region', { name: 'Spending this month' }, { timeout: 5000 });
    const periods = screen.getByRole('navigation', { name: 'Periods' });
    expect(within(periods).getByRole('button', { name: 'Next month' })).toBeDisabled();
    await userEvent.click(within(periods).getByRole('button', { name: 'Previous month' }));
    const march = await screen.findByRole('region', { name: 'Spending in March 2024' });
    expect(within(march).getByText('10.00 EUR')).toBeInTheDocument();
    expect(within(march).getByText(/more than the month before/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?at=2024-03-01');
    expect(api.callsTo('GET', '/api/dashboard').at(-1)!.query).toMatchObject({
      period: 'month',
      at: '2024-03-01',
    });
    // Next from March: April, the month that holds today here.
    await userEvent.click(within(periods).getByRole('button', { name: 'Next month' }));
    await screen.findByRole('region', { name: 'Spending this month' });
    expect(router.state.location.search).toBe('?at=2024-04-01');
  });

  it('shows a first-step card instead of empty charts for an empty account', async () => {
    fakeApi({ 'GET /api/dashboard': makeEmptyDashboard(), 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Scan your first receipt' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Scan a receipt' })).toHaveAttribute('href', '/Camera?p=Camera');
    expect(screen.getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/Camera?p=Upload');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Last 12 months' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: 'Period' })).not.toBeInTheDocument();
  });

  it('says why when the figures cannot be loaded', async () => {
    fakeApi({
      'GET /api/dashboard': {
        status: 500,
        body: { error: 'Internal', message: 'The server had a problem.' },
      },
      'GET /api/listQueue': [],
    });
    renderApp('/', { state: signedInState() });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/problem/));
  });

  it('keeps the signed-out Home as it was', async () => {
    const api = fakeApi({});
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Receipt Tracker' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/Login');
    expect(api.callsTo('GET', '/api/dashboard')).toHaveLength(0);
  });
});
