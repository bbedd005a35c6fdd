import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportTable } from '@receipts/core/contract/reports';
import { makeBrand, makeItem, makeReceipt } from '../../../testing/data';
import { fakeApi, type RecordedCall } from '../../../testing/fake-api';
import { createQueryClient } from '../../../lib/query-client';
import { storeSession } from '../../../lib/session-storage';
import { renderApp, signedInState } from '../../../testing/render';
import { ReportsPage, receiptsLoader } from './reports-page';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

const bodyRows = (table: HTMLElement) =>
  within(table.querySelector('tbody') as HTMLElement)
    .getAllByRole('row')
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

const receipts = [
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
];

/** A page as the server answers it, for the fake /api/report. */
function page(table: ReportTable, rows: unknown[], over: Record<string, unknown> = {}) {
  return {
    table,
    rows,
    count: rows.length,
    totals: {},
    sums: {},
    sort: 'date',
    dir: 'desc',
    pageSize: 5,
    offset: 0,
    nextPageToken: null,
    previousPageToken: null,
    version: 'v1',
    ...over,
  };
}

const PAGES: Record<ReportTable, ReturnType<typeof page>> = {
  receipts: page('receipts', receipts, {
    totals: { EUR: 12.5, GBP: 7.25 },
    count: 12,
    nextPageToken: '5.abcdef01',
  }),
  merchants: page('merchants', [
    {
      merchant_id: 'm2',
      name: 'Tesco',
      city: 'London',
      owning_corporation: null,
      visits: 3,
      total: 20,
      currency_code: 'GBP',
      totals_by_currency: { GBP: 20 },
      first_visit: '2024-01-01',
      last_visit: '2024-05-03',
    },
  ]),
  brands: page('brands', [
    {
      ...makeBrand({ name: 'Heinz', purchases: 2, total: 3.3 }),
      currency_code: 'GBP',
      totals_by_currency: { GBP: 3.3, USD: 3.49 },
    },
  ]),
  corporations: page('corporations', [
    {
      name: 'Kraft Heinz',
      brands: ['Heinz'],
      purchases: 2,
      total: 3.3,
      currency_code: 'GBP',
      totals_by_currency: { GBP: 3.3 },
    },
    {
      name: 'Tesco PLC',
      brands: [],
      purchases: 0,
      total: 0,
      currency_code: null,
      totals_by_currency: {},
      through_shops: {
        merchants: ['Tesco'],
        visits: 3,
        total: 20,
        currency_code: 'GBP',
        totals_by_currency: { GBP: 20 },
      },
    },
  ]),
  items: page('items', [
    makeItem({ item_id: 'i2', description: 'Speculoos', brand: 'Lotus', total_price: 9.4 }),
  ]),
};

const reportApi = () =>
  fakeApi({
    'GET /api/report': (call: RecordedCall) => PAGES[call.query.table as ReportTable],
    'GET /api/listQueue': [],
  });

describe('Reports', () => {
  afterEach(() => setWidth(1024));

  it('asks for the tables under the receipts once the receipts page has come', async () => {
    let answerReceipts: () => void = () => undefined;
    const receiptsHeld = new Promise<void>((resolve) => (answerReceipts = resolve));
    const api = fakeApi({
      'GET /api/report': async (call: RecordedCall) => {
        if (call.query.table === 'receipts' && call.query.pageSize === '5') await receiptsHeld;
        return PAGES[call.query.table as ReportTable];
      },
      'GET /api/listQueue': [],
    });
    const tables = () => api.callsTo('GET', '/api/report').map((c) => c.query.table);
    renderApp('/Reports', { state: signedInState() });
    await waitFor(() => expect(api.callsTo('GET', '/api/report')).toHaveLength(3));
    expect(tables()).toEqual(['receipts', 'receipts', 'receipts']);
    expect(screen.queryByRole('table', { name: 'Merchants' })).not.toBeInTheDocument();
    answerReceipts();
    expect(await screen.findByRole('table', { name: 'Product items' })).toBeInTheDocument();
    await waitFor(() => expect(tables()).toHaveLength(7));
    expect(tables().slice(3).sort()).toEqual(['brands', 'corporations', 'items', 'merchants']);
  });

  it('asks for the receipts page of the address on entering the screen, and the table shows that answer', async () => {
    const api = reportApi();
    const state = signedInState();
    storeSession({ userId: 'user-1', userEmail: 'ann@example.com' });
    const receiptPages = () =>
      api
        .callsTo('GET', '/api/report')
        .filter((c) => c.query.table === 'receipts' && c.query.pageSize === '5');
    const queryClient = createQueryClient();
    const address = '/Reports?q=tesco&receiptsSort=total&receiptsDir=asc&merchantsSort=name';
    // The loader only starts the call: it returns before the answer, and nothing is drawn yet.
    expect(receiptsLoader(queryClient)({ request: new Request(`http://localhost${address}`) })).toBeNull();
    await waitFor(() => expect(receiptPages()).toHaveLength(1));
    expect(receiptPages()[0]!.query).toEqual({
      userId: 'user-1',
      table: 'receipts',
      q: 'tesco',
      sort: 'total',
      dir: 'asc',
      pageSize: '5',
    });
    renderApp(address, { state, queryClient });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    await waitFor(() => expect(bodyRows(table)[1]?.[0]).toBe('Tesco'));
    await screen.findByRole('table', { name: 'Product items' });
    // The table asked for the very same page, so it took the loader's answer rather than asking again.
    expect(receiptPages()).toHaveLength(1);
  });

  it('asks the server for a page of each table, for the signed-in user, and shows the five tables', async () => {
    const api = reportApi();
    renderApp('/Reports', { state: signedInState() });
    for (const name of ['Receipts', 'Merchants', 'Brands', 'Corporations', 'Product items']) {
      expect(await screen.findByRole('table', { name })).toBeInTheDocument();
    }
    // The five tables, the header's count of receipts that need review (one row, the count) and the
    // currencies of all the person's receipts for the Currency filter (one row, the totals).
    await waitFor(() => expect(api.callsTo('GET', '/api/report')).toHaveLength(7));
    const tableCalls = api
      .callsTo('GET', '/api/report')
      .filter((c) => c.query.review === undefined && c.query.pageSize !== '1');
    expect(tableCalls.map((c) => c.query.table).sort()).toEqual(
      ['brands', 'corporations', 'items', 'merchants', 'receipts'].sort(),
    );
    expect(api.callsTo('GET', '/api/report').find((c) => c.query.review === 'needed')?.query).toMatchObject({
      table: 'receipts',
      pageSize: '1',
    });
    const receiptsCall = tableCalls.find((c) => c.query.table === 'receipts');
    expect(receiptsCall).toMatchObject({
      query: { userId: 'user-1', table: 'receipts', sort: 'date', dir: 'desc', pageSize: '5' },
      authorization: 'Bearer test-token',
    });
    expect(api.callsTo('GET', '/api/getAppData')).toHaveLength(0);
  });

  it("shows the server's totals per currency over the whole filter and the page count, and a red failed total", async () => {
    reportApi();
    renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    await within(table).findByText('7.25');
    expect(within(table).getByText('7.25').closest('span')).toHaveAttribute(
      'title',
      'The items do not add up to this total',
    );
    const totals = within(table.querySelector('tfoot') as HTMLElement).getAllByTestId('currency-total');
    expect(totals.map((t) => t.textContent)).toEqual(['12.50 EUR', '7.25 GBP']);
    expect(screen.getByRole('navigation', { name: 'Receipts pages' })).toHaveTextContent('1 of 3');
  });

  it('sorts on the server when a header is clicked and keeps the order in the URL', async () => {
    const api = reportApi();
    const { router } = renderApp('/Reports', { state: signedInState() });
    const table = await screen.findByRole('table', { name: 'Receipts' });
    await userEvent
      .setup()
      .click(within(within(table).getByRole('columnheader', { name: /Total/ })).getByRole('button'));
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/api/report')
          .some((c) => c.query.table === 'receipts' && c.query.sort === 'total' && c.query.dir === 'asc'),
      ).toBe(true),
    );
    expect(router.state.location.search).toContain('receiptsSort=total');
    expect(router.state.location.search).toContain('receiptsDir=asc');
  });

  it('pages with the token the server gave and keeps it in the URL', async () => {
    const api = reportApi();
    const { router } = renderApp('/Reports', { state: signedInState() });
    const pager = await screen.findByRole('navigation', { name: 'Receipts pages' });
    await waitFor(() => expect(within(pager).getByRole('button', { name: 'Next page' })).toBeEnabled());
    await userEvent.setup().click(within(pager).getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/report').some((c) => c.query.pageToken === '5.abcdef01')).toBe(true),
    );
    expect(router.state.location.search).toContain('receiptsPage=5.abcdef01');
  });

  it('searches as you type, after a pause, and puts the search in the URL', async () => {
    const api = reportApi();
    const { router } = renderApp('/Reports', { state: signedInState() });
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    // Keys typed back to back (no timer between them), so a busy machine cannot make a pause of its own.
    await userEvent.setup({ delay: null }).type(box, 'cola');
    await waitFor(() => expect(router.state.location.search).toContain('q=cola'));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/report').filter((c) => c.query.q !== undefined)).toHaveLength(5),
    );
    const searches = api.callsTo('GET', '/api/report').filter((c) => c.query.q !== undefined);
    // One search per pause, not one per key.
    expect(new Set(searches.map((c) => c.query.q))).toEqual(new Set(['cola']));
    expect(searches.map((c) => c.query.table).sort()).toEqual([
      'brands',
      'corporations',
      'items',
      'merchants',
      'receipts',
    ]);
  });

  it('keeps what is typed while the URL catches up with an earlier pause', async () => {
    const api = reportApi();
    // The app's router finishes a navigation after its route's data and code: here it waits for `held`.
    let held: Promise<void> = Promise.resolve();
    let release = () => {};
    const routes = [{ path: '/Reports', loader: () => held.then(() => null), Component: ReportsPage }];
    const { router } = renderApp('/Reports', { state: signedInState(), routes });
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    held = new Promise((resolve) => (release = resolve));
    const user = userEvent.setup();
    await user.type(box, 'hei');
    // The pause sent "hei"; the person types on before the URL has it.
    await waitFor(() => expect(router.state.navigation.location?.search ?? '').toContain('q=hei'));
    // Typed on at once (well within the pause), and the URL lands right after.
    act(() => {
      fireEvent.change(box, { target: { value: 'heinz' } });
      release();
    });
    await waitFor(() => expect(router.state.location.search).toContain('q=heinz'));
    expect(box).toHaveValue('heinz');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/report').some((c) => c.query.q === 'heinz')).toBe(true),
    );
  });

  it('reads the filter of a bookmarked URL', async () => {
    const api = reportApi();
    renderApp('/Reports?currency=GBP&from=2024-01-01&receiptsSort=merchant&receiptsDir=asc', {
      state: signedInState(),
    });
    await screen.findByRole('table', { name: 'Receipts' });
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/api/report')
          .find((c) => c.query.table === 'receipts' && c.query.pageSize !== '1')?.query,
      ).toMatchObject({
        currency: 'GBP',
        from: '2024-01-01',
        sort: 'merchant',
        dir: 'asc',
      }),
    );
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveValue('GBP');
  });

  it("offers the person's own currencies and a list of categories, not free text", async () => {
    reportApi();
    renderApp('/Reports', { state: signedInState() });
    const currency = await screen.findByRole('combobox', { name: 'Currency' });
    await waitFor(() =>
      expect([...currency.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'All currencies',
        ...Object.keys(PAGES.receipts.totals).sort(),
      ]),
    );
    const category = screen.getByRole('combobox', { name: 'Category' });
    const categories = [...category.querySelectorAll('option')].map((o) => o.textContent);
    expect(categories).toEqual(
      expect.arrayContaining(['All categories', 'Grocery', 'Restaurant', 'Another category…']),
    );

    // A category of one's own: typed, filtered on, and offered in the list from then on.
    const user = userEvent.setup();
    await user.selectOptions(category, 'Another category…');
    await user.type(screen.getByRole('textbox', { name: 'Category' }), 'Garden{Enter}');
    const own = await screen.findByRole('combobox', { name: 'Category' });
    expect(own).toHaveValue('garden');
    expect([...own.querySelectorAll('option')].map((o) => o.textContent)).toContain('Garden');
  });

  it('shows currency and category only wider than 900, and region only wider than 1200', async () => {
    reportApi();
    setWidth(800);
    renderApp('/Reports', { state: signedInState() });
    // The table is read again each time: it may be drawn anew as the page's data arrives.
    const table = () => screen.getByRole('table', { name: 'Receipts' });
    await screen.findByRole('table', { name: 'Receipts' });
    await waitFor(() => expect(headers(table())).toEqual(['Merchant', 'Date', 'Total', 'Open']));
    act(() => setWidth(1300));
    await waitFor(() =>
      expect(headers(table())).toEqual([
        'Merchant',
        'Date',
        'Currency',
        'Category',
        'Region',
        'Total',
        'Open',
      ]),
    );
  });

  it('shows merchants, brands with one amount per currency, and corporations linking to their page', async () => {
    reportApi();
    renderApp('/Reports', { state: signedInState() });
    const merchants = await screen.findByRole('table', { name: 'Merchants' });
    await waitFor(() =>
      expect(bodyRows(merchants)[0]?.slice(0, 5)).toEqual([
        'Tesco',
        'London',
        '3',
        '20.00 GBP',
        '2024-05-03',
      ]),
    );
    const brands = screen.getByRole('table', { name: 'Brands' });
    await waitFor(() => expect(bodyRows(brands)[0]?.[3]).toBe('3.30 GBP3.49 USD'));
    const corporations = screen.getByRole('table', { name: 'Corporations' });
    await waitFor(() =>
      expect(
        within(corporations).getByRole('link', { name: 'Open corporation Kraft Heinz' }),
      ).toHaveAttribute('href', '/Corporation?name=Kraft%20Heinz'),
    );
    // What went through its brands and through its shops, in their own columns.
    const headers = within(corporations)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Spent on its brands', 'Spent at its shops']));
    const shops = headers.indexOf('Spent at its shops');
    expect(bodyRows(corporations).map((row) => row[shops])).toEqual(['—', '20.00 GBP3 visits']);
    expect(screen.getByText(/An item of its brand bought at its own shop is in both/)).toBeInTheDocument();
  });

  it("lists a corporation's brands on its page", async () => {
    const api = reportApi();
    renderApp('/Corporation?name=Kraft%20Heinz', { state: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Kraft Heinz' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Brands' });
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/report')[0]?.query).toMatchObject({
        table: 'brands',
        corporation: 'Kraft Heinz',
      }),
    );
  });

  it("shows the server's message when a table cannot be loaded", async () => {
    fakeApi({
      'GET /api/report': {
        status: 400,
        body: { error: 'InvalidRequest', message: 'Invalid query: sort must be one of date.' },
      },
      'GET /api/listQueue': [],
    });
    renderApp('/Reports?receiptsSort=colour', { state: signedInState() });
    // In words for a person, not the server's words for a developer.
    const alert = (await screen.findAllByRole('alert'))[0]!;
    expect(alert).toHaveTextContent('This address is incomplete or out of date');
    expect(alert).not.toHaveTextContent('Invalid query');
  });
});
