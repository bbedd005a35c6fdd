import { useMemo, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { Edit24Regular } from '@fluentui/react-icons/svg/edit';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { Receipt } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { MerchantSummary } from '../../../components/merchant-summary';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { merchantReceipts, merchantTotals, useAppData } from '../../../lib/app-data';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';
import { MergeMerchant, MerchantEditor } from './merchant-editor';

const column = createColumnHelper<Receipt>();
const columns = [
  column.accessor('transaction_date', {
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
    meta: { width: '20%', nowrap: true },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('total_amount', {
    header: 'Total Amount',
    meta: { width: '20%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

/** The merchant summary screen (spec §2) with the merchant's receipts. */
export function MerchantPage() {
  const [params] = useSearchParams();
  const merchantId = params.get('merchantId') ?? '';
  const { signedIn, userId } = useAppState();
  const data = useAppData();
  const [editing, setEditing] = useState(false);
  const merchant = useMemo(
    () => data.data?.reportMerchants.find((m) => m.merchant_id === merchantId) ?? null,
    [data.data, merchantId],
  );
  const receipts = useMemo(
    () => (data.data ? merchantReceipts(data.data, merchantId) : []),
    [data.data, merchantId],
  );

  if (!signedIn) return <Navigate to="/Login" replace />;
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
        query={data}
        loadingLabel="Loading the merchant"
        found={merchant !== null || receipts.length > 0}
        notFound={
          <p>
            Merchant not found. Its receipts may have been deleted.{' '}
            <RouterLink to="/Reports">See your reports</RouterLink>
          </p>
        }
      />
      {data.data && (merchant || receipts.length > 0) && (
        <>
          {editing && merchant && userId && (
            <PageSection id="edit-merchant" title="Edit merchant">
              <MerchantEditor
                key={merchant.etag}
                userId={userId}
                merchant={merchant}
                onDone={() => setEditing(false)}
              />
              <MergeMerchant userId={userId} merchant={merchant} merchants={data.data.reportMerchants} />
            </PageSection>
          )}
          <MerchantSummary merchant={merchant} totals={merchantTotals(data.data, merchantId)} />
          <PageSection id="merchant-receipts" title="Receipts for this Merchant">
            <DataTable
              ariaLabel="Receipts for this Merchant"
              data={receipts}
              columns={columns}
              getRowId={(r) => r.receipt_id}
              currencyOf={(r) => r.currency_code}
              emptyText="No receipts from this merchant."
            />
          </PageSection>
        </>
      )}
    </Page>
  );
}
