import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReportItem, ReportReceipt } from '@receipts/core/entities';
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

/** The receipt link's words: where and when it was bought. */
function receiptLabel(receipt: ReportReceipt | null, item: ReportItem): string {
  const date = receipt?.transaction_date ?? item.receipt_transaction_date;
  const total = receipt && receipt.total_amount !== null ? formatMoney(receipt.total_amount) : '';
  const parts = [
    date ? `Receipt of ${date}` : 'The receipt',
    total ? `${total}${receipt?.currency_code ? ` ${receipt.currency_code}` : ''}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * The product item page (spec §2): the item's description, brand, corporation, merchant and receipt,
 * each a link to its own page (GET /api/itemDetail), and its brand's items a page at a time (the items report filtered by brand).
 */
export function ProductItemPage() {
  const [params] = useSearchParams();
  const itemId = params.get('itemId') ?? '';
  const { signedIn } = useAppState();
  const detail = useItemDetail(itemId);
  const item = detail.data?.item ?? null;
  const receipt = detail.data?.receipt ?? null;
  const corporation = item?.brand ? (detail.data?.owning_corporation ?? null) : null;

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
              [
                'Brand',
                item.brand ? (
                  <RouterLink to={`/Brand?brandId=${encodeURIComponent(item.brand)}`}>
                    {item.brand}
                  </RouterLink>
                ) : (
                  orDash(null)
                ),
              ],
              [
                'Corporation',
                corporation ? (
                  <RouterLink to={`/Corporation?name=${encodeURIComponent(corporation)}`}>
                    {corporation}
                  </RouterLink>
                ) : (
                  orDash(null)
                ),
              ],
              [
                'Merchant',
                receipt?.merchant_id ? (
                  <RouterLink to={`/Merchant?merchantId=${encodeURIComponent(receipt.merchant_id)}`}>
                    {receipt.merchant_name || item.merchant_name || 'Unknown merchant'}
                  </RouterLink>
                ) : (
                  orDash(item.merchant_name)
                ),
              ],
              [
                'Receipt',
                <RouterLink key="receipt" to={`/Receipt?receiptId=${encodeURIComponent(item.receipt_id)}`}>
                  {receiptLabel(receipt, item)}
                </RouterLink>,
              ],
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
