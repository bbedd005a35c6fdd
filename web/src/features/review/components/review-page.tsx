import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link as RouterLink, Navigate } from 'react-router';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportReceipt } from '@receipts/core/entities';
import { MAX_REPORT_PAGE_SIZE } from '@receipts/core/contract/reports';
import { REVIEW_REASON_TEXT, type ReviewReason } from '@receipts/core/review';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Page, PageDataStatus } from '../../../components/page';
import { useDeleteReceipt } from '../../../lib/delete-receipt';
import { errorMessage } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { getReport } from '../../../lib/reports';
import { useEdit } from '../../../lib/edits';
import { blobNameOf, formatMoney } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalS, padding: 0, margin: 0, listStyle: 'none' },
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  what: { flexGrow: 1, minWidth: '12rem', display: 'grid', gap: tokens.spacingVerticalXXS },
  reasons: { color: tokens.colorPaletteDarkOrangeForeground1 },
  error: { color: tokens.colorPaletteRedForeground1, flexBasis: '100%' },
});

/** The review list's query: receipts flagged for a check, newest analysis first. */
const REVIEW_PARAMS = {
  review: 'needed',
  sort: 'analyzed',
  dir: 'desc',
  pageSize: String(MAX_REPORT_PAGE_SIZE),
};

/**
 * The signed-in user's review list, a page of the receipts report at a time (under the report
 * queries' key, so every edit reloads it), read again each time the screen opens.
 */
function useReviewList(userId: string | null) {
  return useInfiniteQuery({
    queryKey: [...queryKeys.reports(userId ?? ''), 'receipts', 'review-list'] as const,
    queryFn: ({ pageParam, signal }) =>
      getReport(userId ?? '', 'receipts', { ...REVIEW_PARAMS, pageToken: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextPageToken,
    enabled: Boolean(userId),
    refetchOnMount: 'always',
  });
}

/** The "Needs review" list: receipts whose analysis asked for a check, newest first. */
export function ReviewPage() {
  const { userId, signedIn } = useAppState();
  const data = useReviewList(userId);
  const queue = data.data?.pages.flatMap((page) => page.rows) ?? [];
  const styles = useStyles();
  if (!signedIn || !userId) return <Navigate to="/Login" replace />;
  return (
    <Page title="Needs review">
      <PageDataStatus query={data} loadingLabel="Loading the receipts to review" />
      {data.isSuccess && queue.length === 0 && (
        <p>
          Nothing to review: every receipt has been checked.{' '}
          <RouterLink to="/Reports">See your reports</RouterLink>
        </p>
      )}
      {queue.length > 0 && (
        <ul className={styles.list} aria-label="Receipts that need review">
          {queue.map((receipt) => (
            <ReviewRow key={receipt.receipt_id} userId={userId} receipt={receipt} />
          ))}
        </ul>
      )}
      {data.hasNextPage && (
        <Button disabled={data.isFetchingNextPage} onClick={() => void data.fetchNextPage()}>
          {data.isFetchingNextPage ? 'Loading more…' : 'Show more'}
        </Button>
      )}
    </Page>
  );
}

function ReviewRow({ userId, receipt }: { userId: string; receipt: ReportReceipt }) {
  const styles = useStyles();
  const mark = useEdit<{ receiptId: string; etag: string }>('markReviewed', userId);
  const remove = useDeleteReceipt();
  const [confirming, setConfirming] = useState(false);
  const link = `/Receipt?receiptId=${encodeURIComponent(receipt.receipt_id)}`;
  const label = `${receipt.merchant_name || 'Unknown Merchant'}, ${receipt.transaction_date ?? 'unknown date'}`;
  return (
    <li className={styles.row} aria-label={label}>
      <div className={styles.what}>
        <RouterLink to={link}>{label}</RouterLink>
        <span>
          {formatMoney(receipt.total_amount)} {receipt.currency_code ?? ''}
        </span>
        <span className={styles.reasons}>
          {(receipt.review_reasons ?? []).map((r) => REVIEW_REASON_TEXT[r as ReviewReason] ?? r).join('. ')}
        </span>
      </div>
      <RouterLink to={`${link}&edit=1`}>Correct</RouterLink>
      <Button
        disabled={mark.isPending}
        onClick={() => mark.mutate({ receiptId: receipt.receipt_id, etag: receipt.etag ?? '' })}
      >
        Mark reviewed
      </Button>
      {/* A photo of something else, or a second copy: it goes, with its image, after a question. */}
      <Button disabled={remove.isPending} onClick={() => setConfirming(true)}>
        {remove.isPending ? 'Deleting…' : 'Delete'}
      </Button>
      {(mark.error ?? remove.error) !== null && (
        <span role="alert" className={styles.error}>
          {errorMessage(mark.error ?? remove.error)}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete this receipt?"
        confirmLabel="Delete"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate({
            userId,
            receiptId: receipt.receipt_id,
            blobName: blobNameOf(receipt.document_url) || undefined,
          });
        }}
      >
        The receipt from {label}, its items and its image are deleted for good.
      </ConfirmDialog>
    </li>
  );
}
