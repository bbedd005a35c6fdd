import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QUEUE_POLL_MS } from '@receipts/core/api';
import type { QueueEntry } from '@receipts/core/entities';
import { appDataQueryOptions } from '../../../lib/app-data';
import { useAppActions, useAppState } from '../../../stores/app-state';
import { queueQueryOptions } from '../api/list-queue';

/** Entries the worker will still move: failed ones wait for a person to press Retry. */
export function hasActiveEntries(entries: readonly QueueEntry[] | undefined): boolean {
  return (entries ?? []).some((entry) => entry.status !== 'Failed');
}

/**
 * Keeps the pending list in step with the server (spec §4): polls every 2000 ms while scans are on the
 * way; when the queue's length changes, sets the new-report flag and reloads the app data. Polling stops
 * when only failed entries remain, as nothing changes them until a retry (which refreshes the queue).
 */
export function QueueWatcher() {
  const { userId, signedIn, scanning } = useAppState();
  const actions = useAppActions();
  const queryClient = useQueryClient();
  const localActive = hasActiveEntries(scanning);
  // The first answer after sign-in or a page load only seeds the list: nothing has changed yet.
  const seededFor = useRef<string | null>(null);

  const queue = useQuery({
    ...queueQueryOptions(userId ?? ''),
    enabled: signedIn && Boolean(userId),
    refetchInterval: (query) => (hasActiveEntries(query.state.data) || localActive ? QUEUE_POLL_MS : false),
  });

  useEffect(() => {
    if (!queue.data || !userId) return;
    if (seededFor.current === userId && queue.data.length !== scanning.length) {
      actions.setNewReport(true);
      // Reload now, even when no screen shows the data yet, so the reports are fresh when opened.
      queryClient
        .fetchQuery({ ...appDataQueryOptions(userId), staleTime: 0 })
        .catch((error: unknown) => console.warn('Could not reload the app data', error));
    }
    seededFor.current = userId;
    if (
      queue.data.length !== scanning.length ||
      queue.data.some((e, i) => e.status !== scanning[i]?.status)
    ) {
      actions.setScanning(queue.data);
    }
    // Only a new answer from the server should trigger this, not our own update of `scanning`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queue.data, queue.dataUpdatedAt]);

  useEffect(() => {
    if (queue.error) console.warn('Could not read the scan queue:', queue.error.message);
  }, [queue.error]);

  return null;
}
