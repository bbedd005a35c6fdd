import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import {
  Badge,
  Button,
  Caption1,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Delete24Regular } from '@fluentui/react-icons/svg/delete';
import { Edit24Regular } from '@fluentui/react-icons/svg/edit';
import { ArrowSync24Regular } from '@fluentui/react-icons/svg/arrow-sync';
import { Image24Regular } from '@fluentui/react-icons/svg/image';
import { Code24Regular } from '@fluentui/react-icons/svg/code';
import { ArrowLeft24Regular } from '@fluentui/react-icons/svg/arrow-left';
import { EDITED_FIELD_TEXT } from '@receipts/core/contract/edits';
import type { ReportItem, ReportReceipt } from '@receipts/core/entities';
import { INFORMATIONAL_REASONS, REVIEW_REASON_TEXT, type ReviewReason } from '@receipts/core/review';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/data-table';
import { ImageModal } from '../../../components/image-modal';
import { JsonTree } from '../../../components/json-tree';
import { MerchantSummary } from '../../../components/merchant-summary';
import { Modal } from '../../../components/modal';
import { FactList } from '../../../components/fact-list';
import { Page, PageDataStatus, PageSection } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { currencyTotals, useMerchantOptions } from '../../../lib/details';
import { blobNameOf, formatMoney, formatQuantity, orDash } from '../../../lib/format';
import { useReceiptImage } from '../../../lib/images';
import { useAppActions, useAppState, type AnalysisResultState } from '../../../stores/app-state';
import { useEdit } from '../../../lib/edits';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteReceipt } from '../../../lib/delete-receipt';
import { useReceiptDetail } from '../api/get-receipt-detail';
import { useOriginalAnalysis, useReanalyseReceipt } from '../api/edit-receipt';
import { EditError, ReceiptEditor } from './receipt-editor';

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
    cell: (info) => {
      const item = info.row.original;
      return (
        <>
          <RouterLink to={`/ProductItem?itemId=${encodeURIComponent(item.item_id)}`}>
            {info.getValue() || '(no description)'}
          </RouterLink>
          {(item.brand || item.from_corrections) && (
            <Caption1 as="p" style={{ margin: 0 }}>
              {item.brand}
              {item.from_corrections && <LearntLabel />}
            </Caption1>
          )}
        </>
      );
    },
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

/** Marks a value that the person's earlier corrections filled in (see Account, "Learnt from your corrections"). */
function LearntLabel() {
  return (
    <Badge
      appearance="tint"
      size="small"
      color="informative"
      style={{ marginInlineStart: tokens.spacingHorizontalXS }}
    >
      from your corrections
    </Badge>
  );
}

const fieldText = (field: string) => EDITED_FIELD_TEXT[field] ?? field;
const valueText = (value: string | number | null) =>
  value === null || value === '' ? 'nothing' : String(value);

/** Whether the analysis asked for a check, what a person set, and what analysing again changed. */
function ReceiptNotes({
  receipt,
  onMarkReviewed,
  marking,
  error,
  onReload,
  onEdit,
}: {
  receipt: ReportReceipt;
  onMarkReviewed: () => void;
  marking: boolean;
  error: unknown;
  onReload: () => void;
  /** Opens the receipt's editor (to set the date the upload stood in for). */
  onEdit: () => void;
}) {
  const all = (receipt.review_reasons ?? []) as ReviewReason[];
  // Notes (the upload's day standing in for a date not printed) are shown apart: they ask nothing.
  const reasons = all.filter((r) => !INFORMATIONAL_REASONS.has(r));
  const edited = receipt.edited ?? [];
  const changes = receipt.reanalysis_changes ?? [];
  return (
    <>
      {receipt.needs_review && (
        <MessageBar intent="warning" layout="multiline" aria-label="Needs review">
          <MessageBarBody>
            <MessageBarTitle>Needs review</MessageBarTitle>
            {reasons.map((r) => REVIEW_REASON_TEXT[r] ?? r).join('. ')}. Check the values against the receipt
            and correct them, or mark it reviewed.
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={onMarkReviewed} disabled={marking}>
              Mark reviewed
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {all.includes('date_from_upload') && (
        <MessageBar intent="info" layout="multiline" aria-label="Date from the upload">
          <MessageBarBody>
            <MessageBarTitle>{REVIEW_REASON_TEXT.date_from_upload}</MessageBarTitle>
            The receipt shows no date, so it is dated the day you uploaded it. If you bought it on another
            day, edit the date.
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={onEdit}>
              Edit date
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      <EditError error={error} onReload={onReload} />
      {changes.length > 0 && (
        <MessageBar intent="info" layout="multiline" aria-label="Analysed again">
          <MessageBarBody>
            <MessageBarTitle>Analysed again</MessageBarTitle>
            {changes
              .map(
                (c) => `${fieldText(c.field)} changed from ${valueText(c.before)} to ${valueText(c.after)}`,
              )
              .join('; ')}
            {edited.length > 0 ? '. The values you set were kept.' : '.'}
          </MessageBarBody>
        </MessageBar>
      )}
      {receipt.merchant_from_corrections && (
        <p>
          Merchant: {receipt.merchant_name}
          <LearntLabel />
        </p>
      )}
      {edited.length > 0 && (
        <p aria-label="Edited by you">Values you set: {[...new Set(edited.map(fieldText))].join(', ')}.</p>
      )}
    </>
  );
}

/**
 * "Possible duplicate": another receipt of the user has this one's merchant, date and total. The
 * person opens the other, keeps both, or deletes this one.
 */
function DuplicateWarning({
  other,
  onKeepBoth,
  keeping,
  onDelete,
}: {
  other: ReportReceipt;
  onKeepBoth: () => void;
  keeping: boolean;
  onDelete: () => void;
}) {
  const when = [other.transaction_date, other.transaction_time?.slice(0, 5)].filter(Boolean).join(' ');
  const total = `${formatMoney(other.total_amount)} ${other.currency_code ?? ''}`.trim();
  return (
    <MessageBar intent="warning" layout="multiline" aria-label="Possible duplicate">
      <MessageBarBody>
        <MessageBarTitle>Possible duplicate</MessageBarTitle>
        You already have a receipt from {other.merchant_name || 'Unknown Merchant'}
        {when ? ` on ${when}` : ''} for {total}:{' '}
        <RouterLink to={`/Receipt?receiptId=${encodeURIComponent(other.receipt_id)}`}>
          open that receipt
        </RouterLink>
        . If this is the same receipt scanned twice, delete this one; if you really shopped twice, keep both.
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={onKeepBoth} disabled={keeping}>
          Keep both
        </Button>
        <Button size="small" onClick={onDelete}>
          Delete this one
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

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
  const { userId, signedIn, analysisResult, scanning } = useAppState();
  const actions = useAppActions();
  const detail = useReceiptDetail(receiptId);
  const remove = useDeleteReceipt();
  const [imageOpen, setImageOpen] = useState(false);
  const [jsonOpen, setJsonOpen] = useState(false);
  const [editing, setEditing] = useState(params.get('edit') === '1');
  const [confirmDelete, setConfirmDelete] = useState(false);
  // "Delete this one" of a possible duplicate: after the delete, the other receipt opens.
  const [openAfterDelete, setOpenAfterDelete] = useState<string | null>(null);
  const markReviewed = useEdit<{ receiptId: string; etag: string }>('markReviewed', userId ?? '');
  const keepBoth = useEdit<{ receiptId: string; etag: string }>('keepBothReceipts', userId ?? '');
  const reanalyse = useReanalyseReceipt(userId ?? '');
  const queryClient = useQueryClient();
  const analysis = useOriginalAnalysis(userId, receiptId, jsonOpen);

  const fromState = analysisResult?.receipt.receipt_id === receiptId ? analysisResult : null;
  const fromData = useMemo<AnalysisResultState | null>(
    () =>
      detail.data
        ? { receipt: detail.data.receipt, merchant: detail.data.merchant.merchant, items: detail.data.items }
        : null,
    [detail.data],
  );
  const result = fromData ?? fromState;

  useEffect(() => {
    if (fromData && fromData !== analysisResult) actions.setAnalysisResult(fromData);
  }, [fromData, analysisResult, actions]);

  const blobName = result ? blobNameOf(result.receipt.document_url) : '';
  const image = useReceiptImage(userId, blobName, imageOpen || editing);
  // The merchants to suggest and move to are loaded only once the editor is open.
  const merchants = useMerchantOptions(editing);

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

  if (!result) {
    return (
      <Page title="Receipt" actions={back}>
        <PageDataStatus
          query={detail}
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

  const receipt: ReportReceipt = result.receipt;
  const duplicateOf = receipt.possible_duplicate_of ? detail.data?.duplicate_of : undefined;
  // The dialog stays mounted while the delete runs, so it closes properly (its focus trap and the
  // hiding of the rest of the page from screen readers end with it).
  const confirmDialog = (
    <ConfirmDialog
      open={confirmDelete}
      title="Delete this receipt?"
      confirmLabel="Delete"
      onConfirm={onDelete}
      onCancel={() => {
        setConfirmDelete(false);
        setOpenAfterDelete(null);
      }}
    >
      The receipt from {receipt.merchant_name || 'Unknown Merchant'}
      {receipt.transaction_date ? ` on ${receipt.transaction_date}` : ''}, its items and its image are deleted
      for good.
    </ConfirmDialog>
  );
  const owner = userId;
  const reload = () => void detail.refetch();
  const editRef = { receiptId: receipt.receipt_id, etag: receipt.etag ?? '' };
  // Analysing again runs in the scan queue; the page waits for it like any scan.
  const beingAnalysed = scanning.some((s) => s.fileName === blobName);
  function onDelete() {
    setConfirmDelete(false);
    actions.dismissMessage();
    // The merchant goes with its last receipt: then there is no merchant screen to go back to.
    const merchantGoes = detail.data ? detail.data.merchant.visits <= 1 : false;
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
            openAfterDelete && !error
              ? `/Receipt?receiptId=${encodeURIComponent(openAfterDelete)}`
              : merchantGoes && !error
                ? '/Reports'
                : `/Merchant?merchantId=${encodeURIComponent(receipt.merchant_id)}`,
          ),
      },
    );
  }

  if (remove.isPending) {
    return (
      <Page title="Receipt">
        <Spinner label={DELETE_MESSAGES.busy} />
        {confirmDialog}
      </Page>
    );
  }

  const toolbar = (
    <div className={styles.toolbar} role="toolbar" aria-label="Receipt actions">
      <Button
        appearance={editing ? 'primary' : 'subtle'}
        icon={<Edit24Regular />}
        aria-label="Edit receipt"
        title="Edit receipt"
        aria-pressed={editing}
        onClick={() => setEditing((e) => !e)}
      />
      <Button
        appearance="subtle"
        icon={<ArrowSync24Regular />}
        aria-label="Analyse again"
        title="Analyse again (values you set are kept)"
        disabled={reanalyse.isPending || beingAnalysed}
        onClick={() =>
          reanalyse.mutate(editRef, {
            onSuccess: () => {
              // Watched like an upload: the queue shows it, and the data reloads when it is done.
              actions.addScan({ fileName: blobName, image: '', status: 'false' });
              void queryClient.invalidateQueries({ queryKey: queryKeys.queue(owner) });
              actions.showMessage({
                intent: 'info',
                title: 'Analysing the receipt again',
                detail: 'The values you set are kept; the page shows what changed when it is done.',
              });
            },
          })
        }
      />
      <Button
        appearance="subtle"
        icon={<Delete24Regular />}
        aria-label="Delete receipt"
        title="Delete receipt"
        onClick={() => setConfirmDelete(true)}
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
      <ReceiptNotes
        receipt={receipt}
        marking={markReviewed.isPending}
        onMarkReviewed={() => markReviewed.mutate(editRef)}
        error={markReviewed.error ?? keepBoth.error ?? reanalyse.error}
        onReload={reload}
        onEdit={() => setEditing(true)}
      />
      {duplicateOf && (
        <DuplicateWarning
          other={duplicateOf}
          keeping={keepBoth.isPending}
          onKeepBoth={() => keepBoth.mutate(editRef)}
          onDelete={() => {
            setOpenAfterDelete(duplicateOf.receipt_id);
            setConfirmDelete(true);
          }}
        />
      )}
      {beingAnalysed && <Spinner size="tiny" label="Analysing the receipt again…" />}
      {editing && !beingAnalysed && (
        <PageSection id="edit-receipt" title="Correct this receipt">
          <ReceiptEditor
            userId={owner}
            receipt={receipt}
            items={result.items}
            merchants={merchants.data ?? []}
            image={{
              src: image.data,
              loading: image.isFetching,
              error: !blobName
                ? 'This receipt has no stored image.'
                : image.error
                  ? errorMessage(image.error)
                  : null,
              alt: `Receipt from ${receipt.merchant_name || 'Unknown Merchant'}`,
            }}
            onReload={reload}
            onDone={() => setEditing(false)}
          />
        </PageSection>
      )}
      <MerchantSummary
        merchant={result.merchant}
        totals={detail.data ? currencyTotals(detail.data.merchant.totals_by_currency) : []}
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
        pdf={userId && /\.pdf$/i.test(blobName) ? { userId, blobName } : undefined}
        loading={image.isFetching}
        error={
          !blobName ? 'This receipt has no stored image.' : image.error ? errorMessage(image.error) : null
        }
        alt={`Receipt from ${receipt.merchant_name || 'Unknown Merchant'} on ${receipt.transaction_date ?? 'unknown date'}`}
      />
      <Modal open={jsonOpen} onClose={() => setJsonOpen(false)} title="Analysis result">
        {analysis.isPending ? (
          <Spinner label="Loading the analysis" />
        ) : analysis.isSuccess ? (
          <>
            <p>
              As the analyzer read it{(receipt.edited ?? []).length > 0 ? ', before your corrections' : ''}.
            </p>
            <JsonTree value={analysis.data} ariaLabel="Analysis result" rootName="analysis" />
          </>
        ) : (
          <>
            <p>
              The stored analysis could not be loaded ({errorMessage(analysis.error)}); these are the current
              values.
            </p>
            <JsonTree value={result} ariaLabel="Analysis result" rootName="analysisResult" />
          </>
        )}
      </Modal>
      {confirmDialog}
    </Page>
  );
}
