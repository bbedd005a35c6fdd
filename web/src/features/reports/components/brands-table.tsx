import { createColumnHelper, type Row } from '@tanstack/react-table';
import type { Brand } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { formatMoney, formatQuantity } from '../../../lib/format';
import { openColumn } from './open-link';

const column = createColumnHelper<Brand>();

/** A brand's amounts per currency: its own split when it has one, else its single total. */
function brandAmounts(brand: Brand): Record<string, number> {
  return brand.totals_by_currency && Object.keys(brand.totals_by_currency).length > 0
    ? brand.totals_by_currency
    : { '': brand.total };
}

/** Each currency's amount with its code, one per line, e.g. '3.30 GBP' and '3.49 USD'. */
function BrandTotal({ brand }: { brand: Brand }) {
  return Object.entries(brandAmounts(brand)).map(([currency, amount]) => (
    <span key={currency} style={{ display: 'block' }}>
      {`${formatMoney(amount)} ${currency}`.trim()}
    </span>
  ));
}

/**
 * Orders by the total in the user's main currency (the server's `total`), then by the amounts in other
 * currencies, so a brand bought only abroad does not sink below everything. Amounts are compared, never
 * shown added up.
 */
function compareBrandTotals(a: Row<Brand>, b: Row<Brand>): number {
  const others = (brand: Brand) =>
    Object.values(brandAmounts(brand)).reduce((sum, amount) => sum + amount, 0) - brand.total;
  return a.original.total - b.original.total || others(a.original) - others(b.original);
}

const columns = [
  column.accessor('name', { header: 'Brand', meta: { width: '45%' } }),
  column.accessor('purchases', {
    header: 'Purchases',
    meta: { width: '20%', numeric: true, total: 'count' },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  column.accessor('total', {
    header: 'Total',
    meta: { width: '25%', numeric: true, total: 'money', amounts: brandAmounts },
    sortingFn: compareBrandTotals,
    cell: (i) => <BrandTotal brand={i.row.original} />,
  }),
  openColumn<Brand>((brand) => ({
    to: `/Brand?brandId=${encodeURIComponent(brand.name)}`,
    label: `Open brand ${brand.name}`,
  })),
];

/** The brands table of spec §2: only brands with purchases, sorted by total descending. */
export function BrandsTable({ brands }: { brands: Brand[] }) {
  const bought = brands.filter((b) => b.purchases > 0);
  return (
    <DataTable
      ariaLabel="Brands"
      data={bought}
      columns={columns}
      getRowId={(b) => b.name}
      initialSorting={[{ id: 'total', desc: true }]}
      emptyText="No brands recognised yet."
    />
  );
}
