import { useMemo } from 'react';
import { Link as RouterLink, Navigate } from 'react-router';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportReceipt } from '@receipts/core/entities';
import { REVIEW_REASON_TEXT, type ReviewReason } from '@receipts/core/review';
import { Page, PageDataStatus } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { reviewQueue, useAppData } from '../../../lib/app-data';
import { useEdit } from '../../../lib/edits';
import { formatMoney } from '../../../lib/format';
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

/** The "Needs review" list: receipts whose analysis asked for a check, newest first. */
export function ReviewPage() {
  const { userId, signedIn } = useAppState();
  const data = useAppData({ reloadOnEntry: true });
  const queue = useMemo(() => (data.data ? reviewQueue(data.data) : []), [data.data]);
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
    </Page>
  );
}

function ReviewRow({ userId, receipt }: { userId: string; receipt: ReportReceipt }) {
  const styles = useStyles();
  const mark = useEdit<{ receiptId: string; etag: string }>('markReviewed', userId);
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
      {mark.error !== null && (
        <span role="alert" className={styles.error}>
          {errorMessage(mark.error)}
        </span>
      )}
    </li>
  );
}
