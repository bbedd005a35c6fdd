import { createColumnHelper } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router';
import type { MerchantReportRow } from '@receipts/core/contract/reports';
import { BREAKPOINTS, useWindowWidth } from '../../../hooks/use-window-width';
import { formatQuantity, orDash } from '../../../lib/format';
import { CurrencyAmounts } from './brands-table';
import { openColumn } from './open-link';
import { ServerTable } from './server-table';

const column = createColumnHelper<MerchantReportRow>();

const columns = [
  column.accessor('name', {
    id: 'name',
    header: 'Merchant',
    meta: { width: '30%' },
    cell: (i) => (
      <RouterLink to={`/Merchant?merchantId=${encodeURIComponent(i.row.original.merchant_id)}`}>
        {i.getValue() || 'Unknown Merchant'}
      </RouterLink>
    ),
  }),
  column.accessor('city', {
    id: 'city',
    header: 'City',
    meta: { width: '18%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('visits', {
    id: 'visits',
    header: 'Visits',
    meta: { width: '12%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  column.accessor('total', {
    id: 'total',
    header: 'Total',
    meta: { width: '18%', numeric: true, total: 'money' },
    cell: (i) => <CurrencyAmounts amounts={i.row.original.totals_by_currency} />,
  }),
  column.accessor('last_visit', {
    id: 'lastVisit',
    header: 'Last visit',
    meta: { width: '16%', nowrap: true },
    cell: (i) => orDash(i.getValue()),
  }),
  openColumn<MerchantReportRow>((m) => ({
    to: `/Merchant?merchantId=${encodeURIComponent(m.merchant_id)}`,
    label: `Open merchant ${m.name}`,
  })),
];

/** The merchants table: name, city, visits, total per currency and last visit under the filter. */
export function MerchantsTable() {
  const width = useWindowWidth();
  return (
    <ServerTable
      table="merchants"
      ariaLabel="Merchants"
      columns={columns}
      getRowId={(m) => m.merchant_id}
      columnVisibility={{ city: width > BREAKPOINTS.medium }}
      emptyText="No merchants found."
    />
  );
}
