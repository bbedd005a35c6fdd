import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReportItem } from '@receipts/core/entities';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { ReportPageTable } from '../../../components/report-page-table';
import { formatMoney, orDash } from '../../../lib/format';
import { useReport } from '../../../lib/reports';
import { useAppState } from '../../../stores/app-state';

// One row per item of the brand (a receipt with two of its items has two rows); column ids are the
// items report's sort columns.
const column = createColumnHelper<ReportItem>();
const columns = [
  column.accessor('merchant_name', {
    id: 'merchant',
    header: 'Merchant',
    meta: { width: '40%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('receipt_transaction_date', {
    id: 'date',
    header: 'Date',
    meta: { width: '35%', nowrap: true },
    cell: (info) => (
      <RouterLink to={`/Receipt?receiptId=${encodeURIComponent(info.row.original.receipt_id)}`}>
        {info.getValue() ?? 'Unknown date'}
      </RouterLink>
    ),
  }),
  column.accessor('total_price', {
    id: 'total',
    header: 'Price',
    meta: { width: '25%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

/**
 * The brand page (spec §2): the brand and its owning corporation (its row of the brands report) and
 * the receipts that contain it (the items report filtered by brand), a page at a time.
 */
export function BrandPage() {
  const [params] = useSearchParams();
  const brandId = params.get('brandId') ?? '';
  const { signedIn } = useAppState();
  const summary = useReport('brands', { brand: brandId, pageSize: '1' });
  // Without a brand the brands report is not filtered: its first row is some other brand.
  const row = summary.data?.rows[0];
  const brand = brandId && row?.name === brandId ? row : null;

  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title={brand?.name || 'Brand'}>
      <PageDataStatus
        query={summary}
        loadingLabel="Loading the brand"
        found={brand !== null}
        notFound={<p role="status">Brand not found</p>}
      />
      {brand && (
        <>
          <FactList
            facts={[
              ['Brand', brand.name],
              [
                'Owning corporation',
                brand.owning_corporation ? (
                  <RouterLink to={`/Corporation?name=${encodeURIComponent(brand.owning_corporation)}`}>
                    {brand.owning_corporation}
                  </RouterLink>
                ) : (
                  orDash(null)
                ),
              ],
            ]}
          />
          <PageSection id="brand-receipts" title={`Receipts with ${brand.name}`}>
            <ReportPageTable
              table="items"
              filters={{ brand: brand.name }}
              ariaLabel={`Receipts with ${brand.name}`}
              columns={columns}
              getRowId={(i) => i.item_id}
              emptyText="No receipts contain this brand."
            />
          </PageSection>
        </>
      )}
    </Page>
  );
}
