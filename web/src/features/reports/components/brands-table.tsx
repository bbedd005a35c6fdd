import { createColumnHelper } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router';
import type { BrandReportRow, CorporationReportRow } from '@receipts/core/contract/reports';
import { Caption1, tokens } from '@fluentui/react-components';
import { BREAKPOINTS, useWindowWidth } from '../../../hooks/use-window-width';
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
    meta: { width: '28%' },
    cell: (i) => (
      <RouterLink to={`/Corporation?name=${encodeURIComponent(i.getValue())}`}>{i.getValue()}</RouterLink>
    ),
  }),
  corporation.accessor((c) => c.brands.length, {
    id: 'brands',
    header: 'Brands',
    meta: { width: '10%', numeric: true, total: 'count' },
    cell: (i) => <span title={i.row.original.brands.join(', ')}>{formatQuantity(i.getValue())}</span>,
  }),
  corporation.accessor('purchases', {
    id: 'purchases',
    header: 'Purchases',
    meta: { width: '12%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  corporation.accessor('total', {
    id: 'total',
    header: 'Spent on its brands',
    meta: { width: '20%', numeric: true, total: 'money' },
    cell: (i) => <CurrencyAmounts amounts={i.row.original.totals_by_currency} />,
  }),
  corporation.accessor((c) => c.through_shops?.total ?? null, {
    id: 'shops',
    header: 'Spent at its shops',
    enableSorting: false,
    meta: { width: '20%', numeric: true },
    cell: (i) => {
      const shops = i.row.original.through_shops;
      if (!shops) return orDash(null);
      return (
        <span title={shops.merchants.join(', ')}>
          <CurrencyAmounts amounts={shops.totals_by_currency} />
          <span style={{ display: 'block' }}>
            {shops.visits === 1 ? '1 visit' : `${shops.visits} visits`}
          </span>
        </span>
      );
    },
  }),
  openColumn<CorporationReportRow>((c) => ({
    to: `/Corporation?name=${encodeURIComponent(c.name)}`,
    label: `Open corporation ${c.name}`,
  })),
];

/**
 * The corporations table: owning corporations of the brands bought, with purchases and totals per
 * currency, and apart from them what was spent at the shops they own. An item of a corporation's
 * brand bought at its own shop is in both, so the two are never added together.
 */
export function CorporationsTable() {
  const width = useWindowWidth();
  return (
    <>
      <ServerTable
        table="corporations"
        ariaLabel="Corporations"
        columns={corporationColumns}
        getRowId={(c) => c.name}
        columnVisibility={{ brands: width > BREAKPOINTS.medium }}
        emptyText="No corporations found."
      />
      <Caption1 style={{ display: 'block', marginTop: tokens.spacingVerticalXS }}>
        Spent on its brands: what you paid for the items of its brands, wherever you bought them. Spent at its
        shops: your receipts at the shops it owns. An item of its brand bought at its own shop is in both, so
        the two are not added together.
      </Caption1>
    </>
  );
}
