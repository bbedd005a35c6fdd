import { ConflictError, NotFoundError } from '../errors';
import type { BlobStore, Logger } from '../ports';
import { analysisKey, imageKey, receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import type { Reservation } from '../repository/rows';
import type { TableStore } from '../table-store';
import { nowOf } from './context';
import { dropReservations, PENDING_RESERVATION_MS } from './quotas';

/*
 * An upload writes, in this order: its reservation on the user's row (which names the file, the
 * image's SHA-256 and its bytes: the upload's intent), the queue entry, the image-index row, the
 * image. Taking an upload back (not kept) goes the other way round from the entry: the entry first
 * (by its etag, so a retry that took the upload over keeps it), then the image and the index row,
 * and the reservation last. So while a reservation is on the row, whatever its upload left can be
 * found from it; and an image or index row is never left without a receipt or a queue entry once
 * the reservation is gone. A scan, a scan's removal and a receipt's delete name the same leftovers
 * in their write intent (see commit-write.ts).
 */

export const UNFINISHED_UPLOAD_REASON =
  'The upload of this receipt did not finish, so there is no image to analyse. Upload it again.';

export interface SettleDeps {
  store: TableStore;
  blobs: BlobStore;
  logger: Logger;
  now?: () => Date;
}

/** What was found of an upload, and done: see {@link settleUpload}. */
export type Settled = 'receipt' | 'queued' | 'failed' | 'removed';

/**
 * Brings what an upload or a scan of `fileName` left behind into a state the person can act on:
 *
 * - a receipt of the upload exists: its image, items and index row are the receipt's; nothing to do;
 * - a queue entry exists: the scan is pending or failed, and holds its image and index row; an
 *   entry waiting with no image (its upload stopped before the image was stored) is marked Failed
 *   with a reason, so it shows under Images in progress to be uploaded again or removed;
 * - neither: the image, the analysis JSON, any items and taxes a scan wrote and the index row of
 *   `sha256` (when it still names this file) are removed.
 *
 * Idempotent, and safe beside a write that is still going on only when that write's entry is
 * fenced by etag (every writer of an entry writes it by the etag it read).
 * @returns what it found
 */
export async function settleUpload(
  deps: SettleDeps,
  userId: string,
  fileName: string,
  sha256?: string | null,
): Promise<Settled> {
  const repos = repositories(deps.store);
  const receiptId = receiptIdFor(userId, fileName);
  const [receipt, queued, stored] = await Promise.all([
    repos.receipts.getReceipt(userId, receiptId),
    repos.scans.getQueueEntry(userId, fileName),
    deps.blobs.list(imageKey(userId, fileName)),
  ]);
  if (receipt) return 'receipt';
  const image = imageKey(userId, fileName);
  if (queued) {
    const { entry, etag } = queued;
    if (entry.status === 'Analyzing' || stored.includes(image) || entry.status === 'Failed') return 'queued';
    try {
      // The bytes the upload counted were never stored: none are left to give back later.
      await repos.scans.saveQueueEntry(
        {
          ...entry,
          status: 'Failed',
          reason: UNFINISHED_UPLOAD_REASON,
          image_bytes: null,
          updated_at: nowOf(deps).toISOString(),
        },
        etag,
      );
    } catch (error) {
      if (error instanceof ConflictError || error instanceof NotFoundError) return 'queued';
      throw error;
    }
    deps.logger.warn('settled an upload that stopped before its image', { userId, fileName });
    return 'failed';
  }
  await Promise.all(
    [image, analysisKey(userId, fileName)]
      .filter((key) => stored.includes(key))
      .map((key) => deps.blobs.delete(key)),
  );
  await Promise.all([repos.receipts.replaceItems(receiptId, []), repos.receipts.replaceTaxes(receiptId, [])]);
  if (sha256) await repos.scans.deleteImageHash(userId, sha256, fileName);
  if (stored.length > 0) deps.logger.warn('removed what a stopped upload left', { userId, fileName });
  return 'removed';
}

/**
 * Settles the uploads whose reservations on the user's row are older than any upload takes (they
 * stopped half-way, or finished without a scan written since), then takes those reservations off
 * the row, giving back the bytes of the images not kept. The next upload of the user and the next
 * read of the user's reports call it, so nothing an upload left stays for long.
 * @param reservations - the reservations on the user's row, as read
 * @returns how many were settled
 */
export async function settleStaleUploads(
  deps: SettleDeps,
  userId: string,
  reservations: readonly Reservation[],
): Promise<number> {
  const now = nowOf(deps).getTime();
  const stale = reservations.filter((r) => r.h !== undefined && now - r.at >= PENDING_RESERVATION_MS);
  if (stale.length === 0) return 0;
  const settled: { reservation: Reservation; bytes: number }[] = [];
  for (const r of stale) {
    const found = await settleUpload(deps, userId, r.f, r.h);
    settled.push({ reservation: r, bytes: found === 'removed' || found === 'failed' ? (r.b ?? 0) : 0 });
  }
  await dropReservations(deps.store, userId, settled);
  return stale.length;
}
