import { Suspense, lazy } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { ProgressBar } from '@fluentui/react-components';
import { AppMessageBar } from '../components/app-message-bar';
import { HeaderBar } from '../components/header-bar';
import { SessionSync } from '../features/auth/components/session-sync';
import { PushRegistration } from '../features/notifications/components/push-registration';
import { QueueWatcher } from '../features/queue/components/queue-watcher';
import { useNow } from '../hooks/use-now';
import { usePendingUploads } from '../hooks/use-pending-uploads';
import { queueCounts } from '../lib/queue';
import { useReport } from '../features/reports/api/get-report';
import { useAppActions, useAppState } from '../stores/app-state';

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
        <ProgressBar
          aria-label="Loading the page"
          thickness="medium"
          style={{ position: 'sticky', top: 52, zIndex: 9 }}
        />
      )}
      <Outlet />
      <AppMessageBar message={message} onDismiss={actions.dismissMessage} />
      <SessionSync />
      <QueueWatcher />
      <Suspense fallback={null}>
        <PendingUploadSender />
      </Suspense>
      <PushRegistration />
    </>
  );
}
