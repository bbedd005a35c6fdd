import { createColumnHelper } from '@tanstack/react-table';
import type { ReportItem } from '@receipts/core/entities';
import { BREAKPOINTS, useWindowWidth } from '../../../hooks/use-window-width';
import { formatMoney, formatQuantity, orDash } from '../../../lib/format';
import { openColumn } from './open-link';
import { ServerTable } from './server-table';

const column = createColumnHelper<ReportItem>();

const columns = [
  column.accessor('description', { id: 'description', header: 'Description', meta: { width: '36%' } }),
  column.accessor('quantity', {
    id: 'quantity',
    header: 'Quantity',
    meta: { width: '12%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  column.accessor('total_price', {
    id: 'total',
    header: 'Total',
    meta: { width: '14%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
  column.accessor('receipt_transaction_date', {
    id: 'date',
    header: 'Date',
    meta: { width: '15%', nowrap: true },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('merchant_name', {
    id: 'merchant',
    header: 'Merchant',
    meta: { width: '23%' },
    cell: (i) => orDash(i.getValue()),
  }),
  openColumn<ReportItem>((item) => ({
    to: `/ProductItem?itemId=${encodeURIComponent(item.item_id)}`,
    label: `Open item ${item.description}`,
  })),
];

/** The product items table of spec §2: receipt date and merchant show on wide screens only. */
export function ItemsTable() {
  const width = useWindowWidth();
  const wide = width > BREAKPOINTS.medium;
  return (
    <ServerTable
      table="items"
      ariaLabel="Product items"
      columns={columns}
      getRowId={(i) => i.item_id}
      columnVisibility={{ date: wide, merchant: wide }}
      emptyText="No product items found."
    />
  );
}
