import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Button, Caption1, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { Delete20Regular } from '@fluentui/react-icons/svg/delete';
import { STALE_SCAN_MS } from '@receipts/core/contract/routes';
import type { QueueEntry } from '@receipts/core/entities';
import { Page, PageError, PageLoading } from '../../../components/page';
import { PdfPreview } from '../../../components/pdf-preview';
import { useNow } from '../../../hooks/use-now';
import { useOnline } from '../../../hooks/use-online';
import { usePendingUploads } from '../../../hooks/use-pending-uploads';
import { errorMessage } from '../../../lib/api-client';
import { useQueueThumbnail } from '../../../lib/images';
import { removePendingUpload, type PendingUpload } from '../../../lib/pending-uploads';
import { isPdf, isStuck, uploadName, uploadTime } from '../../../lib/queue';
import { useAppState } from '../../../stores/app-state';
import { useQueue } from '../api/list-queue';
import { useRemoveScan } from '../api/remove-scan';
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
  // A PDF: the top of its first page as the thumbnail, "Open PDF" under it.
  pdfThumb: { width: '72px', flexShrink: 0, whiteSpace: 'nowrap' },
  page: {
    width: '64px',
    height: '64px',
    objectFit: 'cover',
    objectPosition: 'top',
    borderRadius: tokens.borderRadiusMedium,
  },
  text: { display: 'grid', flexGrow: 1, minWidth: '0', overflowWrap: 'anywhere' },
  reason: { color: tokens.colorPaletteRedForeground1 },
  actions: { display: 'grid', gap: tokens.spacingVerticalXS, justifyItems: 'start' },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

const STALE_MINUTES = Math.round(STALE_SCAN_MS / 60_000);

function uploadedAt(entry: QueueEntry): number | null {
  const fromIso = entry.uploaded_at ? Date.parse(entry.uploaded_at) : NaN;
  return Number.isFinite(fromIso) ? fromIso : uploadTime(entry.fileName);
}

/** What a scan is called on screen: what it is and when it was uploaded, never the server's file name. */
function entryName(entry: QueueEntry): string {
  return uploadName(isPdf(entry.image, entry.content_type), uploadTime(entry.fileName) ?? uploadedAt(entry));
}

function EntryRow({ entry, stuck, action }: { entry: QueueEntry; stuck: boolean; action?: ReactNode }) {
  const styles = useStyles();
  const when = uploadedAt(entry);
  const name = entryName(entry);
  const thumbnail = useQueueThumbnail(entry.image);
  return (
    <li className={styles.entry}>
      {isPdf(thumbnail.src, entry.content_type) ? (
        <PdfPreview
          className={styles.pdfThumb}
          imageClassName={styles.page}
          src={thumbnail.src}
          name={name}
          stored={thumbnail.stored}
        />
      ) : thumbnail.src ? (
        <img className={styles.thumb} src={thumbnail.src} alt={`Receipt ${name}`} />
      ) : (
        <span className={styles.thumb} aria-hidden />
      )}
      <span className={styles.text}>
        <Text weight="semibold">{name}</Text>
        {when !== null && <Caption1>Uploaded {new Date(when).toLocaleString()}</Caption1>}
        {entry.status === 'Failed' && (
          <Text className={styles.reason}>
            {entry.reason || 'The analysis failed for an unknown reason.'}
          </Text>
        )}
        {entry.status !== 'Failed' && entry.reason && <Caption1>{entry.reason}</Caption1>}
        {stuck && (
          <Text className={styles.reason}>
            Not moved for over {STALE_MINUTES} minutes: it may be stuck. Retry or remove it.
          </Text>
        )}
      </span>
      {action}
    </li>
  );
}

function Section({ title, entries, userId }: { title: string; entries: QueueEntry[]; userId: string }) {
  const styles = useStyles();
  const now = useNow();
  if (entries.length === 0) return null;
  const id = `queue-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className={styles.section} aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {title}
      </Subtitle1>
      <ul className={styles.list}>
        {entries.map((entry) => {
          const stuck = isStuck(entry, now);
          return (
            <EntryRow
              key={entry.fileName}
              entry={entry}
              stuck={stuck}
              action={
                entry.status === 'Failed' || stuck ? (
                  <EntryActions userId={userId} fileName={entry.fileName} name={entryName(entry)} />
                ) : undefined
              }
            />
          );
        })}
      </ul>
    </section>
  );
}

/** Retry and Remove for a failed or stuck scan, with the server's words when one of them fails. */
function EntryActions({ userId, fileName, name }: { userId: string; fileName: string; name: string }) {
  const styles = useStyles();
  const retry = useRetryScan(userId);
  const remove = useRemoveScan(userId);
  const busy = retry.isPending || remove.isPending;
  const error = retry.error ?? remove.error;
  return (
    <span className={styles.actions}>
      <span className={styles.buttons}>
        <Button
          icon={<ArrowClockwise20Regular />}
          disabled={busy}
          onClick={() => {
            remove.reset();
            retry.mutate(fileName);
          }}
          aria-label={`Retry ${name}`}
        >
          Retry
        </Button>
        <Button
          icon={<Delete20Regular />}
          disabled={busy}
          onClick={() => {
            retry.reset();
            remove.mutate(fileName);
          }}
          aria-label={`Remove ${name}`}
        >
          Remove
        </Button>
      </span>
      {error && (
        <Text role="alert" className={styles.reason}>
          {errorMessage(error)}
        </Text>
      )}
    </span>
  );
}

/** What a kept upload is called on screen: the picked file's own name, or what it is and when. */
function keptName(upload: PendingUpload): string {
  if (upload.label) return upload.label;
  if (upload.source === 'share') return isPdf(upload.dataUrl) ? 'Shared PDF' : 'Shared image';
  return uploadName(isPdf(upload.dataUrl), upload.savedAt);
}

/** A receipt kept on this device: waiting for the connection, or refused by the server (with Remove). */
function KeptRow({ upload }: { upload: PendingUpload }) {
  const styles = useStyles();
  const [removing, setRemoving] = useState(false);
  const name = keptName(upload);
  return (
    <li className={styles.entry}>
      {isPdf(upload.dataUrl) ? (
        <PdfPreview className={styles.thumb} src={upload.dataUrl} name={name} />
      ) : (
        <img className={styles.thumb} src={upload.dataUrl} alt={`Receipt ${name}`} />
      )}
      <span className={styles.text}>
        <Text weight="semibold">{name}</Text>
        <Caption1>Kept on this device {new Date(upload.savedAt).toLocaleString()}</Caption1>
        {upload.refusal ? (
          <Text className={styles.reason} role="alert">
            Not uploaded: {upload.refusal}
          </Text>
        ) : (
          <Text>Waiting for connection</Text>
        )}
      </span>
      <span className={styles.buttons}>
        <Button
          icon={<Delete20Regular />}
          disabled={removing}
          onClick={() => {
            setRemoving(true);
            removePendingUpload(upload.id).catch(() => setRemoving(false));
          }}
          aria-label={`Remove ${name}`}
        >
          Remove
        </Button>
      </span>
    </li>
  );
}

/** The receipts kept on this device (taken offline or shared to the app) until they are uploaded. */
function KeptSection({ uploads }: { uploads: PendingUpload[] }) {
  const styles = useStyles();
  if (uploads.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="queue-kept">
      <Subtitle1 as="h2" id="queue-kept">
        On this device
      </Subtitle1>
      <ul className={styles.list}>
        {uploads.map((upload) => (
          <KeptRow key={upload.id} upload={upload} />
        ))}
      </ul>
    </section>
  );
}

/**
 * Images in progress (spec §2): receipts kept on this device until the connection returns, then the
 * analysing, queued and failed scans; to /Reports once all are done. Failed scans, and queued or
 * analysing ones stuck for STALE_SCAN_MS, offer Retry and Remove. With no connection the kept
 * receipts still show, above the reason the queue could not be read.
 */
export function QueuePage() {
  const { userId } = useAppState();
  const queue = useQueue(userId);
  const kept = usePendingUploads(userId);
  const online = useOnline();

  if (!userId) return <Navigate to="/Login" replace />;
  if (queue.isPending || !kept.loaded) {
    return (
      <Page title="Images in progress">
        <KeptSection uploads={kept.uploads} />
        {!online ? (
          <Text>No connection: the scans on the server show when it returns.</Text>
        ) : (
          <PageLoading label="Loading the queue" />
        )}
      </Page>
    );
  }
  if (queue.isError) {
    return (
      <Page title="Images in progress">
        <KeptSection uploads={kept.uploads} />
        {online ? (
          <PageError message={errorMessage(queue.error)} />
        ) : (
          <Text>No connection: the scans on the server show when it returns.</Text>
        )}
      </Page>
    );
  }
  if (queue.data.length === 0 && kept.uploads.length === 0) return <Navigate to="/Reports" replace />;

  const analyzing = queue.data.filter((e) => e.status === 'Analyzing');
  const queued = queue.data.filter((e) => e.status === 'false');
  const failed = queue.data.filter((e) => e.status === 'Failed');
  return (
    <Page title="Images in progress">
      <KeptSection uploads={kept.uploads} />
      <Section title="Now analyzing" entries={analyzing} userId={userId} />
      <Section title="Queued" entries={queued} userId={userId} />
      <Section title="Failed" entries={failed} userId={userId} />
    </Page>
  );
}
