import { useMemo } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReportItem } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { useAppData } from '../../../lib/app-data';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';

const column = createColumnHelper<ReportItem>();
const columns = [
  column.accessor('description', { header: 'Description', meta: { width: '45%' } }),
  column.accessor('merchant_name', {
    header: 'Merchant',
    meta: { width: '30%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('unit_price', {
    header: 'Unit Price',
    meta: { width: '25%', numeric: true },
    cell: (i) => formatMoney(i.getValue() ?? i.row.original.total_price),
  }),
];

/** The product item page (spec §2): the item's description, brand and corporation, and its brand's items. */
export function ProductItemPage() {
  const [params] = useSearchParams();
  const itemId = params.get('itemId') ?? '';
  const { signedIn } = useAppState();
  const data = useAppData();
  const item = useMemo(
    () => data.data?.reportProductItems.find((i) => i.item_id === itemId) ?? null,
    [data.data, itemId],
  );
  const sameBrand = useMemo(
    () =>
      item?.brand && data.data
        ? data.data.reportProductItems.filter((i) => i.brand === item.brand)
        : item
          ? [item]
          : [],
    [data.data, item],
  );
  const corporation = item?.brand
    ? data.data?.brands.find((b) => b.name === item.brand)?.owning_corporation
    : null;

  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Product item">
      <PageDataStatus
        query={data}
        loadingLabel="Loading the item"
        found={item !== null}
        notFound={<p>Product item not found.</p>}
      />
      {item && (
        <>
          <FactList
            wrapAnywhere
            facts={[
              ['Description', item.description],
              ['Brand', orDash(item.brand)],
              ['Corporation', orDash(corporation)],
            ]}
          />
          <PageSection id="same-brand" title={item.brand ? `Items of ${item.brand}` : 'This item'}>
            <DataTable
              ariaLabel="Items of the same brand"
              data={sameBrand}
              columns={columns}
              getRowId={(i) => i.item_id}
            />
          </PageSection>
        </>
      )}
    </Page>
  );
}
