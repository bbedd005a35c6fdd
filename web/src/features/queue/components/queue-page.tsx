import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Button, Caption1, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons/svg/arrow-clockwise';
import type { QueueEntry } from '@receipts/core/entities';
import { Page, PageError, PageLoading } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useQueueThumbnail } from '../../../lib/images';
import { useAppState } from '../../../stores/app-state';
import { useQueue } from '../api/list-queue';
import { useRetryScan } from '../api/retry-scan';

const useStyles = makeStyles({
  section: { display: 'grid', gap: tokens.spacingVerticalS },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  entry: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    flexWrap: 'wrap',
  },
  thumb: {
    width: '64px',
    height: '64px',
    objectFit: 'cover',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground4,
    flexShrink: 0,
  },
  text: { display: 'grid', flexGrow: 1, minWidth: '0', overflowWrap: 'anywhere' },
  reason: { color: tokens.colorPaletteRedForeground1 },
});

function uploadedAt(entry: QueueEntry): string | null {
  const fromIso = entry.uploaded_at ? Date.parse(entry.uploaded_at) : NaN;
  const fromName = Number(entry.fileName.split('-')[0]);
  const time = Number.isFinite(fromIso)
    ? fromIso
    : Number.isFinite(fromName) && fromName > 0
      ? fromName
      : null;
  return time === null ? null : new Date(time).toLocaleString();
}

function EntryRow({ entry, action }: { entry: QueueEntry; action?: ReactNode }) {
  const styles = useStyles();
  const when = uploadedAt(entry);
  const thumbnail = useQueueThumbnail(entry.image);
  return (
    <li className={styles.entry}>
      {thumbnail.src ? (
        <img className={styles.thumb} src={thumbnail.src} alt={`Receipt ${entry.fileName}`} />
      ) : (
        <span className={styles.thumb} aria-hidden />
      )}
      <span className={styles.text}>
        <Text weight="semibold">{entry.fileName}</Text>
        {when && <Caption1>Uploaded {when}</Caption1>}
        {entry.status === 'Failed' && (
          <Text className={styles.reason}>
            {entry.reason || 'The analysis failed for an unknown reason.'}
          </Text>
        )}
        {entry.status !== 'Failed' && entry.reason && <Caption1>{entry.reason}</Caption1>}
      </span>
      {action}
    </li>
  );
}

function Section({
  title,
  entries,
  children,
}: {
  title: string;
  entries: QueueEntry[];
  children?: (e: QueueEntry) => ReactNode;
}) {
  const styles = useStyles();
  if (entries.length === 0) return null;
  const id = `queue-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className={styles.section} aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {title}
      </Subtitle1>
      <ul className={styles.list}>
        {entries.map((entry) => (
          <EntryRow key={entry.fileName} entry={entry} action={children?.(entry)} />
        ))}
      </ul>
    </section>
  );
}

function RetryButton({ userId, fileName }: { userId: string; fileName: string }) {
  const styles = useStyles();
  const retry = useRetryScan(userId);
  return (
    <span className={styles.text} style={{ flexGrow: 0 }}>
      <Button
        icon={<ArrowClockwise20Regular />}
        disabled={retry.isPending}
        onClick={() => retry.mutate(fileName)}
        aria-label={`Retry ${fileName}`}
      >
        Retry
      </Button>
      {retry.error && (
        <Text role="alert" className={styles.reason}>
          {errorMessage(retry.error)}
        </Text>
      )}
    </span>
  );
}

/** Images in progress (spec §2): analysing, queued and failed scans; to /Reports once the queue is empty. */
export function QueuePage() {
  const { userId } = useAppState();
  const queue = useQueue(userId);

  if (!userId) return <Navigate to="/Login" replace />;
  if (queue.isPending) {
    return (
      <Page title="Images in progress">
        <PageLoading label="Loading the queue" />
      </Page>
    );
  }
  if (queue.isError) {
    return (
      <Page title="Images in progress">
        <PageError message={errorMessage(queue.error)} />
      </Page>
    );
  }
  if (queue.data.length === 0) return <Navigate to="/Reports" replace />;

  const analyzing = queue.data.filter((e) => e.status === 'Analyzing');
  const queued = queue.data.filter((e) => e.status === 'false');
  const failed = queue.data.filter((e) => e.status === 'Failed');
  return (
    <Page title="Images in progress">
      <Section title="Now analyzing" entries={analyzing} />
      <Section title="Queued" entries={queued} />
      <Section title="Failed" entries={failed}>
        {(entry) => <RetryButton userId={userId} fileName={entry.fileName} />}
      </Section>
    </Page>
  );
}
