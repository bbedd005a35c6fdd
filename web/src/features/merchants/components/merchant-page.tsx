import { useState } from 'react';
import { Button } from '@fluentui/react-components';
import { Edit24Regular } from '@fluentui/react-icons/svg/edit';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReportReceipt } from '@receipts/core/entities';
import { MerchantSummary } from '../../../components/merchant-summary';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { ReportPageTable } from '../../../components/report-page-table';
import { currencyTotals, useMerchantOptions } from '../../../lib/details';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';
import { useMerchantDetail } from '../api/get-merchant-detail';
import { MergeMerchant, MerchantEditor } from './merchant-editor';

// Column ids are the report's sort columns; the time has none of its own (it orders with the date).
const column = createColumnHelper<ReportReceipt>();
const columns = [
  column.accessor('transaction_date', {
    id: 'date',
    header: 'Date',
    meta: { width: '53%', nowrap: true },
    cell: (info) => (
      <RouterLink to={`/Receipt?receiptId=${encodeURIComponent(info.row.original.receipt_id)}`}>
        {info.getValue() ?? 'Unknown date'}
      </RouterLink>
    ),
  }),
  column.accessor('transaction_time', {
    header: 'Time',
    enableSorting: false,
    meta: { width: '20%', nowrap: true },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('total_amount', {
    id: 'total',
    header: 'Total Amount',
    meta: { width: '20%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

/**
 * The merchant summary screen (spec §2) with the merchant's receipts: the summary from
 * GET /api/merchantDetail, the receipts a page at a time from the report query.
 */
export function MerchantPage() {
  const [params] = useSearchParams();
  const merchantId = params.get('merchantId') ?? '';
  const { signedIn, userId } = useAppState();
  const detail = useMerchantDetail(merchantId);
  const [editing, setEditing] = useState(false);
  const merchant = detail.data?.merchant ?? null;
  // The merchants to merge with are loaded only once the editor is open.
  const merchants = useMerchantOptions(editing);

  if (!signedIn) return <Navigate to="/Login" replace />;
  // An old link to a merchant merged into another opens the one it went into.
  const mergedInto = detail.data?.merged_from ? detail.data.merchant_id : null;
  if (mergedInto && mergedInto !== merchantId) {
    return <Navigate to={`/Merchant?merchantId=${encodeURIComponent(mergedInto)}`} replace />;
  }
  return (
    <Page
      title="Merchant"
      actions={
        merchant && (
          <Button
            appearance={editing ? 'primary' : 'subtle'}
            icon={<Edit24Regular />}
            aria-label="Edit merchant"
            title="Edit merchant"
            aria-pressed={editing}
            onClick={() => setEditing((e) => !e)}
          />
        )
      }
    >
      <PageDataStatus
        query={detail}
        loadingLabel="Loading the merchant"
        found={Boolean(detail.data)}
        notFound={
          <p>
            Merchant not found. Its receipts may have been deleted.{' '}
            <RouterLink to="/Reports">See your reports</RouterLink>
          </p>
        }
      />
      {detail.data && (
        <>
          {editing && merchant && userId && (
            <PageSection id="edit-merchant" title="Edit merchant">
              <MerchantEditor
                key={merchant.etag}
                userId={userId}
                merchant={merchant}
                onDone={() => setEditing(false)}
              />
              <MergeMerchant userId={userId} merchant={merchant} merchants={merchants.data ?? []} />
            </PageSection>
          )}
          <MerchantSummary merchant={merchant} totals={currencyTotals(detail.data.totals_by_currency)} />
          <PageSection id="merchant-receipts" title="Receipts for this Merchant">
            <ReportPageTable
              table="receipts"
              filters={{ merchant: merchantId }}
              ariaLabel="Receipts for this Merchant"
              columns={columns}
              getRowId={(r) => r.receipt_id}
              emptyText="No receipts from this merchant."
            />
          </PageSection>
        </>
      )}
    </Page>
  );
}
