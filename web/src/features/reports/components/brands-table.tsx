import { createColumnHelper } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router';
import type { BrandReportRow, CorporationReportRow } from '@receipts/core/report-api';
import { formatMoney, formatQuantity, orDash } from '../../../lib/format';
import { openColumn } from './open-link';
import { ServerTable } from './server-table';

/** Each currency's amount with its code, one per line, e.g. '3.30 GBP' and '3.49 USD'. */
export function CurrencyAmounts({ amounts }: { amounts: Record<string, number> }) {
  return Object.entries(amounts).map(([currency, amount]) => (
    <span key={currency} style={{ display: 'block' }}>
      {`${formatMoney(amount)} ${currency}`.trim()}
    </span>
  ));
}

const brand = createColumnHelper<BrandReportRow>();

const brandColumns = [
  brand.accessor('name', { id: 'name', header: 'Brand', meta: { width: '35%' } }),
  brand.accessor('owning_corporation', {
    id: 'corporation',
    header: 'Corporation',
    meta: { width: '25%' },
    cell: (i) =>
      i.getValue() ? (
        <RouterLink to={`/Corporation?name=${encodeURIComponent(i.getValue()!)}`}>{i.getValue()}</RouterLink>
      ) : (
        orDash(null)
      ),
  }),
  brand.accessor('purchases', {
    id: 'purchases',
    header: 'Purchases',
    meta: { width: '15%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  brand.accessor('total', {
    id: 'total',
    header: 'Total',
    meta: { width: '20%', numeric: true, total: 'money' },
    cell: (i) => <CurrencyAmounts amounts={i.row.original.totals_by_currency} />,
  }),
  openColumn<BrandReportRow>((b) => ({
    to: `/Brand?brandId=${encodeURIComponent(b.name)}`,
    label: `Open brand ${b.name}`,
  })),
];

/**
 * The brands table of spec §2: brands the user bought, by total descending first. On a corporation
 * page, only that corporation's brands.
 */
export function BrandsTable({ corporation }: { corporation?: string }) {
  return (
    <ServerTable
      table="brands"
      ariaLabel="Brands"
      columns={brandColumns}
      getRowId={(b) => b.name}
      emptyText="No brands found."
      {...(corporation ? { extra: { corporation } } : {})}
    />
  );
}

const corporation = createColumnHelper<CorporationReportRow>();

const corporationColumns = [
  corporation.accessor('name', {
    id: 'name',
    header: 'Corporation',
    meta: { width: '35%' },
    cell: (i) => (
      <RouterLink to={`/Corporation?name=${encodeURIComponent(i.getValue())}`}>{i.getValue()}</RouterLink>
    ),
  }),
  corporation.accessor((c) => c.brands.length, {
    id: 'brands',
    header: 'Brands',
    meta: { width: '15%', numeric: true, total: 'count' },
    cell: (i) => <span title={i.row.original.brands.join(', ')}>{formatQuantity(i.getValue())}</span>,
  }),
  corporation.accessor('purchases', {
    id: 'purchases',
    header: 'Purchases',
    meta: { width: '15%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  corporation.accessor('total', {
    id: 'total',
    header: 'Total',
    meta: { width: '25%', numeric: true, total: 'money' },
    cell: (i) => <CurrencyAmounts amounts={i.row.original.totals_by_currency} />,
  }),
  openColumn<CorporationReportRow>((c) => ({
    to: `/Corporation?name=${encodeURIComponent(c.name)}`,
    label: `Open corporation ${c.name}`,
  })),
];

/** The corporations table: owning corporations of the brands bought, with purchases and totals per currency. */
export function CorporationsTable() {
  return (
    <ServerTable
      table="corporations"
      ariaLabel="Corporations"
      columns={corporationColumns}
      getRowId={(c) => c.name}
      emptyText="No corporations found."
    />
  );
}
