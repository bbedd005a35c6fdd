import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { Delete24Regular } from '@fluentui/react-icons/svg/delete';
import { Image24Regular } from '@fluentui/react-icons/svg/image';
import { Code24Regular } from '@fluentui/react-icons/svg/code';
import { ArrowLeft24Regular } from '@fluentui/react-icons/svg/arrow-left';
import type { ReportItem } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { ImageModal } from '../../../components/image-modal';
import { JsonTree } from '../../../components/json-tree';
import { MerchantSummary } from '../../../components/merchant-summary';
import { Modal } from '../../../components/modal';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { buildAnalysisResult, merchantReceipts, merchantTotals, useAppData } from '../../../lib/app-data';
import { blobNameOf, formatMoney, formatQuantity, orDash } from '../../../lib/format';
import { useReceiptImage } from '../../../lib/images';
import { useAppActions, useAppState, type AnalysisResultState } from '../../../stores/app-state';
import { useDeleteReceipt } from '../api/delete-receipt';

/** The message bars of spec §4 for a delete. */
export const DELETE_MESSAGES = {
  busy: 'Deleting receipt and data',
  success: 'Receipt and data deleted successfully.',
  failure: 'Error deleting receipt and data.',
} as const;

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
});

const column = createColumnHelper<ReportItem>();
const productColumns = [
  column.accessor('description', {
    header: 'Description',
    meta: { width: '53%' },
    cell: (info) => (
      <RouterLink to={`/ProductItem?itemId=${encodeURIComponent(info.row.original.item_id)}`}>
        {info.getValue() || '(no description)'}
      </RouterLink>
    ),
  }),
  column.accessor('quantity', {
    header: 'Quantity',
    meta: { width: '20%', numeric: true },
    cell: (i) => formatQuantity(i.getValue()),
  }),
  // The receipt page shows total_price under the label Unit Price (spec §3).
  column.accessor('total_price', {
    header: 'Unit Price',
    meta: { width: '20%', numeric: true, total: 'money' },
    cell: (i) => formatMoney(i.getValue()),
  }),
];

function Facts({ result }: { result: AnalysisResultState }) {
  const { receipt } = result;
  const facts: [string, string][] = [
    ['Total Amount', `${formatMoney(receipt.total_amount)} ${receipt.currency_code ?? ''}`.trim()],
    ['Date', orDash(receipt.transaction_date)],
    ['Time', orDash(receipt.transaction_time)],
    ['Document Type', orDash(receipt.doc_type)],
    ['Category', orDash(receipt.receipt_type)],
  ];
  return <FactList facts={facts} />;
}

/** The receipt screen (spec §2): merchant summary, this receipt, its products, and the four icons. */
export function ReceiptPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const receiptId = params.get('receiptId') ?? '';
  const navigate = useNavigate();
  const { userId, signedIn, analysisResult } = useAppState();
  const actions = useAppActions();
  const data = useAppData();
  const remove = useDeleteReceipt();
  const [imageOpen, setImageOpen] = useState(false);
  const [jsonOpen, setJsonOpen] = useState(false);

  const fromState = analysisResult?.receipt.receipt_id === receiptId ? analysisResult : null;
  const fromData = useMemo(
    () => (data.data ? buildAnalysisResult(data.data, receiptId) : null),
    [data.data, receiptId],
  );
  const result = fromData ?? fromState;

  useEffect(() => {
    if (fromData && fromData !== analysisResult) actions.setAnalysisResult(fromData);
  }, [fromData, analysisResult, actions]);

  const blobName = result ? blobNameOf(result.receipt.document_url) : '';
  const image = useReceiptImage(userId, blobName, imageOpen);

  if (!signedIn || !userId) return <Navigate to="/Login" replace />;

  const back = (
    <Button
      appearance="subtle"
      icon={<ArrowLeft24Regular />}
      aria-label="Back"
      title="Back"
      onClick={() => navigate(-1)}
    />
  );

  if (remove.isPending) {
    return (
      <Page title="Receipt">
        <Spinner label={DELETE_MESSAGES.busy} />
      </Page>
    );
  }
  if (!result) {
    return (
      <Page title="Receipt" actions={back}>
        <PageDataStatus
          query={data}
          loadingLabel="Loading the receipt"
          found={false}
          notFound={
            <p>
              Receipt not found. It may have been deleted.{' '}
              <RouterLink to="/Reports">See all receipts</RouterLink>
            </p>
          }
        />
      </Page>
    );
  }

  const { receipt } = result;
  const owner = userId;
  function onDelete() {
    actions.dismissMessage();
    // The merchant goes with its last receipt: then there is no merchant screen to go back to.
    const merchantGoes = data.data
      ? merchantReceipts(data.data, receipt.merchant_id).every((r) => r.receipt_id === receipt.receipt_id)
      : false;
    remove.mutate(
      { userId: owner, receiptId: receipt.receipt_id, blobName: blobName || undefined },
      {
        onSuccess: () => actions.showMessage({ intent: 'success', title: DELETE_MESSAGES.success }),
        onError: (error) =>
          actions.showMessage({
            intent: 'error',
            title: DELETE_MESSAGES.failure,
            detail: errorMessage(error),
          }),
        onSettled: (_answer, error) =>
          navigate(
            merchantGoes && !error
              ? '/Reports'
              : `/Merchant?merchantId=${encodeURIComponent(receipt.merchant_id)}`,
          ),
      },
    );
  }

  const toolbar = (
    <div className={styles.toolbar} role="toolbar" aria-label="Receipt actions">
      <Button
        appearance="subtle"
        icon={<Delete24Regular />}
        aria-label="Delete receipt"
        title="Delete receipt"
        onClick={onDelete}
      />
      <Button
        appearance="subtle"
        icon={<Image24Regular />}
        aria-label="View receipt image"
        title="View receipt image"
        onClick={() => setImageOpen(true)}
      />
      <Button
        appearance="subtle"
        icon={<Code24Regular />}
        aria-label="View analysis JSON"
        title="View analysis JSON"
        onClick={() => setJsonOpen(true)}
      />
      {back}
    </div>
  );

  return (
    <Page title="Receipt" actions={toolbar}>
      <MerchantSummary
        merchant={result.merchant}
        totals={data.data ? merchantTotals(data.data, receipt.merchant_id) : []}
      />
      <PageSection id="this-receipt" title="This Receipt">
        <Facts result={result} />
      </PageSection>
      <PageSection id="receipt-products" title="Receipt Products">
        <DataTable
          ariaLabel="Receipt Products"
          data={result.items}
          columns={productColumns}
          getRowId={(i) => i.item_id}
          currencyOf={(i) => i.currency_code ?? receipt.currency_code}
          emptyText="No products were read from this receipt."
        />
      </PageSection>
      <ImageModal
        open={imageOpen}
        onClose={() => setImageOpen(false)}
        title="Receipt image"
        src={image.data}
        loading={image.isFetching}
        error={
          !blobName ? 'This receipt has no stored image.' : image.error ? errorMessage(image.error) : null
        }
        alt={`Receipt from ${receipt.merchant_name || 'Unknown Merchant'} on ${receipt.transaction_date ?? 'unknown date'}`}
      />
      <Modal open={jsonOpen} onClose={() => setJsonOpen(false)} title="Analysis result">
        <JsonTree value={result} ariaLabel="Analysis result" rootName="analysisResult" />
      </Modal>
    </Page>
  );
}
