import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { HeaderBar } from '../components/header-bar';
import { SessionSync } from '../features/auth/components/session-sync';
import { PushRegistration } from '../features/notifications/components/push-registration';
import { QueueWatcher } from '../features/queue/components/queue-watcher';
import { useNow } from '../hooks/use-now';
import { usePendingUploads } from '../hooks/use-pending-uploads';
import { queueCounts } from '../lib/queue';
import { useReport } from '../lib/reports';
import { useAppActions, useAppState } from '../stores/app-state';

/*
 * The message bar and the navigation progress bar are not needed to draw the first page, so they are
 * not part of it (Fluent's MessageBar, Button, ProgressBar and motion code): they are fetched once the
 * browser is idle after the first page, or when first shown if that comes sooner.
 */
const loadMessageBar = () => import('../components/app-message-bar');
const loadNavigationProgress = () => import('../components/navigation-progress');
const AppMessageBar = lazy(() => loadMessageBar().then((m) => ({ default: m.AppMessageBar })));
const NavigationProgress = lazy(() =>
  loadNavigationProgress().then((m) => ({ default: m.NavigationProgress })),
);

function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1000);
  return () => window.clearTimeout(id);
}

// Sends receipts kept on the device; loaded after the first page, whose JavaScript stays small.
const PendingUploadSender = lazy(() =>
  import('../features/camera/components/pending-upload-sender').then((m) => ({
    default: m.PendingUploadSender,
  })),
);

/** The frame of every screen: header bar, the screen, the message bar, and the background services. */
export function AppLayout() {
  const { signedIn, userId, newReport, scanning, message } = useAppState();
  const actions = useAppActions();
  const navigation = useNavigation();
  const counts = queueCounts(scanning, useNow());
  // Receipts kept on this device count as in progress while they wait, as needing attention once refused.
  const kept = usePendingUploads(signedIn ? userId : null).uploads;
  const refused = kept.filter((upload) => upload.refusal).length;
  // One receipt of the review list is enough: the server counts the rest (no download of all data).
  const review = useReport('receipts', { review: 'needed', pageSize: '1' });
  const reviewCount = review.data?.count ?? 0;
  useEffect(
    () =>
      whenIdle(() => {
        // Only a head start: a failure here is ignored, and the part is asked for again when shown.
        loadMessageBar().catch(() => undefined);
        loadNavigationProgress().catch(() => undefined);
      }),
    [],
  );
  return (
    <>
      <HeaderBar
        signedIn={signedIn}
        newReport={newReport}
        pendingCount={counts.inProgress + kept.length - refused}
        attentionCount={counts.needsAttention + refused}
        reviewCount={signedIn ? reviewCount : 0}
        onReportsClick={() => actions.setNewReport(false)}
      />
      {navigation.state === 'loading' && (
        <Suspense fallback={null}>
          <NavigationProgress />
        </Suspense>
      )}
      <Outlet />
      {message && (
        <Suspense fallback={null}>
          <AppMessageBar message={message} onDismiss={actions.dismissMessage} />
        </Suspense>
      )}
      <SessionSync />
      <QueueWatcher />
      <Suspense fallback={null}>
        <PendingUploadSender />
      </Suspense>
      <PushRegistration />
    </>
  );
}
