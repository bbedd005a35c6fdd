import { isStale } from '@receipts/core/contract/routes';
import type { QueueEntry } from '@receipts/core/entities';

/**
 * Whether a queued or analysing scan has not moved for STALE_SCAN_MS (15 minutes) and is taken as
 * stuck. Entries the server has not dated yet (a local upload not seen in the queue) are not.
 */
export function isStuck(entry: QueueEntry, now: number): boolean {
  return entry.status !== 'Failed' && Boolean(entry.updated_at) && isStale(entry.updated_at, new Date(now));
}

/** Scans the worker is still moving: queued or analysing, and not stuck. */
export function isInProgress(entry: QueueEntry, now: number): boolean {
  return entry.status !== 'Failed' && !isStuck(entry, now);
}

/** What the header counts: scans in progress, and the ones that need the person (failed or stuck). */
export function queueCounts(entries: readonly QueueEntry[], now: number) {
  const inProgress = entries.filter((entry) => isInProgress(entry, now)).length;
  return { inProgress, needsAttention: entries.length - inProgress };
}

/** Whether a stored upload is a PDF, from its data URL or its recorded type. */
export function isPdf(source: string | undefined, contentType?: string): boolean {
  return contentType === 'application/pdf' || Boolean(source?.startsWith('data:application/pdf'));
}

let shortTime: Intl.DateTimeFormat | null = null;

/** When an upload was made, from the time stamp its file name starts with ('1718000000000-receipt.jpg'). */
export function uploadTime(fileName: string): number | null {
  const stamp = Number(fileName.split('-')[0]);
  return Number.isFinite(stamp) && stamp > 0 ? stamp : null;
}

/**
 * What an upload is called on screen, never the server's file name: "Photo, 27 Nov 14:02" or
 * "PDF, 27 Nov 14:02" (when it was taken or picked).
 *
 * @param time - when it was uploaded or kept, in ms since the epoch; null when unknown
 */
export function uploadName(pdf: boolean, time: number | null): string {
  const kind = pdf ? 'PDF' : 'Photo';
  shortTime ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return time === null ? kind : `${kind}, ${shortTime.format(time)}`;
}
