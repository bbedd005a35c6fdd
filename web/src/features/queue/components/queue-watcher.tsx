import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { QUEUE_POLL_MS } from '@receipts/core/contract/routes';
import type { QueueEntry } from '@receipts/core/entities';
import { invalidateUserData } from '../../../lib/query-keys';
import { isInProgress, isStuck } from '../../../lib/queue';
import { useAppActions, useAppState } from '../../../stores/app-state';
import { queueQueryOptions } from '../api/list-queue';

/** How often the queue is read, by what it holds. */
export const QUEUE_POLL = {
  /** While a scan is being analysed (or an upload is not yet in the queue): spec §9's 2000 ms. */
  analysing: QUEUE_POLL_MS,
  /** Scans only waiting (e.g. a retry's backoff): from 2 s, doubling with each unchanged answer, up to this. */
  waitingMax: 16_000,
  /** Only stuck scans left (and failed ones): now and then, in case the worker picks one up. */
  stuck: 60_000,
} as const;

/**
 * The delay before the next read of the queue, or false to stop: failed scans wait for a person
 * (Retry and Remove refresh the queue themselves).
 *
 * @param entries - the queue as last read
 * @param quietAnswers - how many answers in a row were the same as the one before
 * @param localActive - whether an upload has not shown in the queue yet
 */
export function nextQueuePoll(
  entries: readonly QueueEntry[],
  { now, quietAnswers, localActive }: { now: number; quietAnswers: number; localActive: boolean },
): number | false {
  const inProgress = entries.filter((entry) => isInProgress(entry, now));
  if (localActive || inProgress.some((entry) => entry.status === 'Analyzing')) return QUEUE_POLL.analysing;
  if (inProgress.length > 0) {
    return Math.min(QUEUE_POLL.analysing * 2 ** quietAnswers, QUEUE_POLL.waitingMax);
  }
  if (entries.some((entry) => isStuck(entry, now))) return QUEUE_POLL.stuck;
  return false;
}

/** Counts answers in a row that did not change the queue (TanStack keeps an equal answer's reference). */
function useQuietAnswers() {
  const seen = useRef<{ data: unknown; updatedAt: number; quiet: number }>({
    data: undefined,
    updatedAt: 0,
    quiet: 0,
  });
  return (query: { state: Pick<Query['state'], 'data' | 'dataUpdatedAt'> }): number => {
    const { data, dataUpdatedAt } = query.state;
    const last = seen.current;
    if (dataUpdatedAt !== last.updatedAt) {
      seen.current = { data, updatedAt: dataUpdatedAt, quiet: data === last.data ? last.quiet + 1 : 0 };
    }
    return seen.current.quiet;
  };
}

/**
 * Keeps the pending list in step with the server (spec §4): polls every 2000 ms while a scan is being
 * analysed, more slowly while scans only wait, now and then while only stuck ones remain, and not at
 * all while only failed ones do or the tab is hidden. When the queue's length changes, sets the
 * new-report flag and reloads the report pages and details.
 */
export function QueueWatcher() {
  const { userId, signedIn, scanning } = useAppState();
  const actions = useAppActions();
  const queryClient = useQueryClient();
  // A local upload carries no server time yet: it is on its way until the queue shows it.
  const localActive = scanning.some((entry) => entry.status !== 'Failed' && !entry.updated_at);
  const quietAnswers = useQuietAnswers();
  // The first answer after sign-in or a page load only seeds the list: nothing has changed yet.
  const seededFor = useRef<string | null>(null);

  const queue = useQuery({
    ...queueQueryOptions(userId ?? ''),
    enabled: signedIn && Boolean(userId),
    refetchInterval: (query) =>
      nextQueuePoll(query.state.data ?? [], {
        now: Date.now(),
        quietAnswers: quietAnswers(query),
        localActive,
      }),
    // A hidden tab reads nothing; on coming back to it, the queue is read at once.
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });

  useEffect(() => {
    if (!queue.data || !userId) return;
    if (seededFor.current === userId) {
      // Scans the server had (so not an upload still on its way) that were in progress and left the
      // queue: their analysis finished. Failed ones stay in the queue until a person removes them.
      const still = new Set(queue.data.map((entry) => entry.fileName));
      const finished = scanning.filter(
        (entry) => entry.updated_at && entry.status !== 'Failed' && !still.has(entry.fileName),
      ).length;
      if (finished > 0) {
        actions.showMessage({
          intent: 'success',
          title: finished === 1 ? 'Receipt analysed' : `${finished} receipts analysed`,
          link: { to: '/Reports', label: 'See it in Reports' },
        });
      }
    }
    if (seededFor.current === userId && queue.data.length !== scanning.length) {
      actions.setNewReport(true);
      // The report pages and detail screens read from the server: the shown ones reload now, the
      // others when next opened.
      void invalidateUserData(queryClient, userId);
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
