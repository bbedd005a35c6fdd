import { useMemo } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { AppData } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { useAppData } from '../../../lib/app-data';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';

/** One receipt that holds the brand, with what the brand cost on it. */
export interface BrandPurchase {
  receiptId: string;
  merchant: string;
  date: string | null;
  price: number;
  currency: string | null;
}

/** The receipts containing a brand, one row per receipt, with the brand's items summed. */
export function brandPurchases(data: AppData, brand: string): BrandPurchase[] {
  const byReceipt = new Map<string, BrandPurchase>();
  for (const item of data.reportProductItems) {
    if (item.brand !== brand) continue;
    const row = byReceipt.get(item.receipt_id) ?? {
      receiptId: item.receipt_id,
      merchant: item.merchant_name,
      date: item.receipt_transaction_date,
      price: 0,
      currency: item.currency_code,
    };
    row.price += item.total_price ?? 0;
    byReceipt.set(item.receipt_id, row);
  }
  return [...byReceipt.values()];
}

const column = createColumnHelper<BrandPurchase>();
const columns = [
  column.accessor('merchant', {
    header: 'Merchant',
    meta: { width: '40%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('date', {
    header: 'Date',
    meta: { width: '35%', nowrap: true },
    cell: (info) => (
      <RouterLink to={`/Receipt?receiptId=${encodeURIComponent(info.row.original.receiptId)}`}>
        {info.getValue() ?? 'Unknown date'}
      </RouterLink>
    ),
  }),
  column.accessor('price', {
    header: 'Price',
    meta: { width: '25%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

/** The brand page (spec §2): the brand, its owning corporation and the receipts that contain it. */
export function BrandPage() {
  const [params] = useSearchParams();
  const brandId = params.get('brandId') ?? '';
  const { signedIn } = useAppState();
  const data = useAppData();
  const brand = useMemo(
    () => data.data?.brands.find((b) => b.name === brandId) ?? null,
    [data.data, brandId],
  );
  const purchases = useMemo(
    () => (data.data && brand ? brandPurchases(data.data, brand.name) : []),
    [data.data, brand],
  );

  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title={brand?.name || 'Brand'}>
      <PageDataStatus
        query={data}
        loadingLabel="Loading the brand"
        found={brand !== null}
        notFound={<p role="status">Brand not found</p>}
      />
      {brand && (
        <>
          <FactList
            facts={[
              ['Brand', brand.name],
              ['Owning corporation', orDash(brand.owning_corporation)],
            ]}
          />
          <PageSection id="brand-receipts" title={`Receipts with ${brand.name}`}>
            <DataTable
              ariaLabel={`Receipts with ${brand.name}`}
              data={purchases}
              columns={columns}
              getRowId={(p) => p.receiptId}
              currencyOf={(p) => p.currency}
              emptyText="No receipts contain this brand."
            />
          </PageSection>
        </>
      )}
    </Page>
  );
}
