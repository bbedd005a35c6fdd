import { inBatches } from '../in-batches';
import { isStale } from '../contract/routes';
import { ConflictError, NotFoundError } from '../errors';
import type { DeleteAccountAnswer } from '../contract/my-data';
import type { BlobStore, Identity, IdentityVerifier } from '../ports';
import { appDataCacheKey, receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { deleteReportTotals } from '../reports/totals-build';
import type { QueueRow } from '../repository/rows';
import { assertOwnUserId, nowOf, type AppDeps } from './context';

/** Deletes sent at once (blobs and rows outside a transaction). */
const DELETES_AT_ONCE = 8;

export type DeleteAccountDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache' | 'now'> & {
  identity: Pick<IdentityVerifier, 'deleteAccount'>;
};

/**
 * Deletes the caller's account and everything of it (POST /api/deleteAccount):
 *
 * 0. a scan being analysed right now makes it answer 409 before anything is changed;
 * 1. the deletion mark on the user's row: every write of the user reads that row and writes it by
 *    etag (quotas, write intents, push tokens, data version), so from here on uploads, edits and
 *    registrations answer 410, and an upload already past its checks takes back what it wrote;
 * 2. a sweep of the user's data (see {@link sweepAccount});
 * 3. the sign-in account in the identity provider, so that no new request of the user is accepted;
 * 4. the sweep again, for what a request that was past its checks wrote meanwhile;
 * 5. the user's row.
 *
 * Every read is of the user's own partitions, each by its key (strongly consistent on DynamoDB; no
 * key range read from an index). A missing row or blob is not an error, so when it fails halfway,
 * running it again finishes the job: until the sign-in account is gone the person can sign in and
 * do that, and the mark keeps refusing writes meanwhile.
 * @throws ForbiddenError when `userId` is not the caller's; ConflictError while a scan is analysed
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  identity: Identity,
  input: { userId: string },
): Promise<DeleteAccountAnswer> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const repos = repositories(deps.store);

  const queued = await repos.scans.listQueue(uid);
  if (queued.some((entry) => analysedNow(entry, nowOf(deps)))) throw beingAnalysed();
  await repos.users.markAccountDeleted(uid, nowOf(deps));
  let first: Removed;
  try {
    first = await sweepAccount(deps, uid);
  } catch (error) {
    // A worker claimed a scan meanwhile: the account stays as it was, usable, for a later try.
    if (error instanceof ConflictError && error.code === 'BeingAnalysed') {
      await repos.users.markAccountDeleted(uid, null);
    }
    throw error;
  }
  await deps.identity.deleteAccount(uid);
  const second = await sweepAccount(deps, uid, { late: true });
  const rows = first.rows + second.rows + (await repos.users.deleteUserRow(uid));
  deps.reportCache.delete(uid);
  const blobCount = first.blobs + second.blobs;
  deps.logger.info('account deleted', { userId: uid, rows, blobs: blobCount, late: second });
  return { deleted: true, removed: { rows, blobs: blobCount } };
}

interface Removed {
  rows: number;
  blobs: number;
}

const analysedNow = (entry: QueueRow, now: Date) =>
  entry.status === 'Analyzing' && !isStale(entry.updated_at, now);

function beingAnalysed(cause?: unknown): ConflictError {
  return new ConflictError(
    'A receipt of yours is being analysed right now. Wait until it has finished (usually under a ' +
      'minute) and delete your account again.',
    { code: 'BeingAnalysed', cause },
  );
}

/**
 * Deletes what the user has but the user's row, in this order:
 *
 * 1. the scan queue entries, each by the etag read (a worker whose claim this removes writes nothing
 *    more, see processScan; one that claimed a scan since makes it answer 409);
 * 2. the Items and Taxes partitions of every upload the user has a trace of: a receipt row, a queue
 *    entry, a blob or a write intent (a scan writes its items while its queue entry exists; a delete
 *    removes the items before the receipt row, image and entry);
 * 3. every blob under the user's prefix (images, analysis JSON), the report cache and data exports;
 * 4. the Receipts and Merchants rows, and the report totals (but in the `late` sweep);
 * 5. the push-token owner rows that name the user, found by key from the user's `~push~` rows and
 *    token list (by etag: a token another user registered since stays theirs);
 * 6. the other rows of the user's partition of Users (image index, visits, push tokens).
 */
async function sweepAccount(deps: DeleteAccountDeps, uid: string, pass = { late: false }): Promise<Removed> {
  const { store, blobs } = deps;
  const repos = repositories(store);
  let rows = 0;

  // 1. Pending work first, fenced by etag like a receipt delete.
  const queued = await repos.scans.listQueueEntries(uid);
  const now = nowOf(deps);
  if (queued.some(({ entry }) => analysedNow(entry, now))) throw beingAnalysed();
  for (const { entry, etag } of queued) {
    try {
      await repos.scans.deleteQueueEntry(uid, entry.fileName, etag);
      rows++;
    } catch (error) {
      // A worker claimed the scan since it was read: it is being analysed now.
      if (error instanceof ConflictError) throw beingAnalysed(error);
      if (!(error instanceof NotFoundError)) throw error;
    }
  }

  // 2. Items and taxes before their receipts, as a receipt delete does: a run that stops here finds
  // the partitions again from the receipt rows.
  const [receipts, userBlobs, state] = await Promise.all([
    repos.receipts.listReceipts(uid),
    blobs.list(`${uid}/`),
    repos.users.getDataState(uid),
  ]);
  const receiptIds = receipts.map((r) => r.receipt_id);
  const fileNames = new Set([
    ...queued.map(({ entry }) => entry.fileName),
    ...userBlobs.map((key) => key.slice(uid.length + 1).replace(/\.analysis\.json$/, '')),
    ...state.intents.flatMap((intent) => intent.files),
  ]);
  const partitions = new Set([...receiptIds, ...[...fileNames].map((f) => receiptIdFor(uid, f))]);
  await inBatches([...partitions], DELETES_AT_ONCE, async (receiptId) => {
    rows += await repos.receipts.deleteItemsAndTaxes(receiptId);
  });

  // 3. Images, analysis JSON and the report cache.
  const blobCount = await deleteBlobs(blobs, [
    ...userBlobs,
    ...(await blobs.list(`cache/${uid}/`)),
    // Data exports left for download (cloud), kept for a day otherwise.
    ...(await blobs.list(`exports/${uid}/`)),
  ]);
  // The cache key is listed above; deleted by name too in case a blob store lists it late.
  await blobs.delete(appDataCacheKey(uid));

  // 4. Receipts, merchants and the report totals.
  rows += await repos.receipts.deleteReceipts(uid, receiptIds);
  rows += await repos.merchants.deleteMerchantsOfUser(uid);
  // Only a scan's worker or an edit writes totals, and neither writes for the user once the queue
  // entries are gone and the mark refuses edits: the sweep again need not list them.
  if (!pass.late) await deleteReportTotals(store, uid);

  // 5, 6. The push-token owner rows that name the user, then the rest of the user's partition of
  // Users (image index, visits, push tokens); and the rules learnt from the user's corrections.
  rows += await repos.users.deleteAccountRows(uid);
  rows += await repos.rules.removeAll(uid);
  return { rows, blobs: blobCount };
}

/** Deletes the blobs; one already gone is fine. @returns how many were listed */
async function deleteBlobs(blobs: BlobStore, keys: readonly string[]): Promise<number> {
  await inBatches(keys, DELETES_AT_ONCE, (key) => blobs.delete(key));
  return keys.length;
}
