import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createColumnHelper } from '@tanstack/react-table';
import { formatMoney } from '../../lib/format';
import { DataTable } from './data-table';

interface Row {
  id: string;
  name: string;
  amount: number;
  currency: string | null;
}

const column = createColumnHelper<Row>();
const columns = [
  column.accessor('name', { header: 'Name', meta: { width: '60%' } }),
  column.accessor('amount', {
    header: 'Amount',
    meta: { width: '40%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

function rows(count: number, currency: string | null = 'EUR'): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `row-${i + 1}`,
    name: `Item ${String(i + 1).padStart(2, '0')}`,
    amount: (i + 1) * 1.1,
    currency,
  }));
}

function renderTable(data: Row[]) {
  render(
    <DataTable
      ariaLabel="Things"
      data={data}
      columns={columns}
      getRowId={(r) => r.id}
      currencyOf={(r) => r.currency}
    />,
  );
  return screen.getByRole('table', { name: 'Things' });
}

function bodyNames(table: HTMLElement): string[] {
  const body = table.querySelector('tbody');
  if (!body) throw new Error('no tbody');
  return within(body)
    .getAllByRole('row')
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

describe('DataTable', () => {
  it('shows 5 rows per page with an "N of M" indicator and pages forward and back', async () => {
    const user = userEvent.setup();
    const table = renderTable(rows(12));
    expect(bodyNames(table)).toEqual(['Item 01', 'Item 02', 'Item 03', 'Item 04', 'Item 05']);
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(bodyNames(table)).toEqual(['Item 06', 'Item 07', 'Item 08', 'Item 09', 'Item 10']);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(bodyNames(table)).toEqual(['Item 11', 'Item 12']);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('keeps the page when the data changes, and shows the last page left when rows go', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <DataTable ariaLabel="Things" data={rows(12)} columns={columns} getRowId={(r) => r.id} />,
    );
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();

    // A reload brings a new array with one more row (a scan finished): still on page 3.
    rerender(<DataTable ariaLabel="Things" data={rows(13)} columns={columns} getRowId={(r) => r.id} />);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Things' });
    expect(bodyNames(table)).toEqual(['Item 11', 'Item 12', 'Item 13']);

    rerender(<DataTable ariaLabel="Things" data={rows(7)} columns={columns} getRowId={(r) => r.id} />);
    expect(screen.getByText('2 of 2')).toBeInTheDocument();
    expect(bodyNames(table)).toEqual(['Item 06', 'Item 07']);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(screen.getByText('1 of 2')).toBeInTheDocument();
  });

  it('sorts ascending on the first click of a header and toggles to descending on the next', async () => {
    const user = userEvent.setup();
    const data = [
      { id: 'a', name: 'Banana', amount: 3, currency: 'EUR' },
      { id: 'b', name: 'apple', amount: 1, currency: 'EUR' },
      { id: 'c', name: 'Cherry', amount: 2, currency: 'EUR' },
    ];
    const table = renderTable(data);
    const amountHeader = screen.getByRole('columnheader', { name: /Amount/ });
    expect(amountHeader).toHaveAttribute('aria-sort', 'none');

    await user.click(within(amountHeader).getByRole('button'));
    expect(amountHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(bodyNames(table)).toEqual(['apple', 'Cherry', 'Banana']);

    await user.click(within(amountHeader).getByRole('button'));
    expect(amountHeader).toHaveAttribute('aria-sort', 'descending');
    expect(bodyNames(table)).toEqual(['Banana', 'Cherry', 'apple']);

    await user.click(within(amountHeader).getByRole('button'));
    expect(amountHeader).toHaveAttribute('aria-sort', 'ascending');
  });

  it('sorts from the keyboard', async () => {
    const user = userEvent.setup();
    const table = renderTable([
      { id: 'a', name: 'B', amount: 1, currency: 'EUR' },
      { id: 'b', name: 'A', amount: 2, currency: 'EUR' },
    ]);
    within(screen.getByRole('columnheader', { name: /Name/ }))
      .getByRole('button')
      .focus();
    await user.keyboard('{Enter}');
    expect(bodyNames(table)).toEqual(['A', 'B']);
  });

  it('totals every row, not just the page shown, with 2 decimals and the currency', () => {
    const table = renderTable(rows(7));
    const footer = table.querySelector('tfoot');
    if (!footer) throw new Error('no total row');
    // 1.1 + 2.2 + ... + 7.7 = 30.8
    expect(within(footer).getByText('Total')).toBeInTheDocument();
    expect(
      within(footer)
        .getAllByTestId('currency-total')
        .map((e) => e.textContent),
    ).toEqual(['30.80 EUR']);
    expect(within(table.querySelector('tbody') as HTMLElement).getByText('1.10')).toBeInTheDocument();
  });

  it('never adds different currencies together', () => {
    const table = renderTable([
      { id: 'a', name: 'Paris', amount: 10.5, currency: 'EUR' },
      { id: 'b', name: 'London', amount: 4.25, currency: 'GBP' },
      { id: 'c', name: 'Brussels', amount: 5, currency: 'EUR' },
      { id: 'd', name: 'Unknown', amount: 1, currency: null },
    ]);
    const totals = within(table.querySelector('tfoot') as HTMLElement)
      .getAllByTestId('currency-total')
      .map((e) => e.textContent);
    expect(totals).toEqual(['15.50 EUR', '4.25 GBP', '1.00']);
    expect(totals.join()).not.toContain('20.75');
  });

  it('says when there are no rows and still shows "1 of 1"', () => {
    render(<DataTable ariaLabel="Empty" data={[]} columns={columns} emptyText="No receipts yet." />);
    expect(screen.getByText('No receipts yet.')).toBeInTheDocument();
    expect(screen.getByText('1 of 1')).toBeInTheDocument();
  });

  it('hides the columns the window is too narrow for', () => {
    render(
      <DataTable ariaLabel="Narrow" data={rows(1)} columns={columns} columnVisibility={{ amount: false }} />,
    );
    expect(screen.queryByRole('columnheader', { name: /Amount/ })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveStyle({ width: '60%' });
  });
});
