import { Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReportItem } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { ReportPageTable } from '../../../components/report-page-table';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';
import { useItemDetail } from '../api/get-item-detail';

// Column ids are the report's sort columns; the unit price has none of its own.
const column = createColumnHelper<ReportItem>();
const columns = [
  column.accessor('description', { id: 'description', header: 'Description', meta: { width: '45%' } }),
  column.accessor('merchant_name', {
    id: 'merchant',
    header: 'Merchant',
    meta: { width: '30%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('unit_price', {
    header: 'Unit Price',
    enableSorting: false,
    meta: { width: '25%', numeric: true },
    cell: (i) => formatMoney(i.getValue() ?? i.row.original.total_price),
  }),
];

/**
 * The product item page (spec §2): the item's description, brand and corporation (GET
 * /api/itemDetail), and its brand's items a page at a time (the items report filtered by brand).
 */
export function ProductItemPage() {
  const [params] = useSearchParams();
  const itemId = params.get('itemId') ?? '';
  const { signedIn } = useAppState();
  const detail = useItemDetail(itemId);
  const item = detail.data?.item ?? null;

  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Product item">
      <PageDataStatus
        query={detail}
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
              ['Corporation', orDash(item.brand ? detail.data?.owning_corporation : null)],
            ]}
          />
          <PageSection id="same-brand" title={item.brand ? `Items of ${item.brand}` : 'This item'}>
            {item.brand ? (
              <ReportPageTable
                table="items"
                filters={{ brand: item.brand }}
                ariaLabel="Items of the same brand"
                columns={columns}
                getRowId={(i) => i.item_id}
                emptyText="No items of this brand."
              />
            ) : (
              <DataTable
                ariaLabel="Items of the same brand"
                data={[item]}
                columns={columns}
                getRowId={(i) => i.item_id}
              />
            )}
          </PageSection>
        </>
      )}
    </Page>
  );
}
