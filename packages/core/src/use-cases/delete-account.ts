import { inBatches } from '../in-batches';
import { isStale } from '../api';
import { TABLES } from '../entities';
import { ConflictError, NotFoundError } from '../errors';
import type { DeleteAccountAnswer } from '../my-data-api';
import type { BlobStore, Identity, IdentityVerifier } from '../ports';
import { appDataCacheKey, receiptIdFor } from '../repository/keys';
import { correctionRulesPartition } from '../repository/correction-rules';
import { PUSH_TOKEN_PREFIX, ReceiptRepository, pushTokenKey } from '../repository/receipt-repository';
import { deleteReportTotals } from '../reports/totals-build';
import { rowToQueue, type QueueRow } from '../repository/rows';
import { listAllEntities, type StoredEntity, type TableStore } from '../table-store';
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
  const repo = new ReceiptRepository(deps.store);

  const queued = await listAllEntities(deps.store, TABLES.scanQueue, { partitionKey: uid });
  if (queued.some((row) => analysedNow(rowToQueue(row), nowOf(deps)))) throw beingAnalysed();
  await repo.markAccountDeleted(uid, nowOf(deps));
  let first: Removed;
  try {
    first = await sweepAccount(deps, uid);
  } catch (error) {
    // A worker claimed a scan meanwhile: the account stays as it was, usable, for a later try.
    if (error instanceof ConflictError && error.code === 'BeingAnalysed') {
      await repo.markAccountDeleted(uid, null);
    }
    throw error;
  }
  await deps.identity.deleteAccount(uid);
  const second = await sweepAccount(deps, uid, { late: true });
  const rows =
    first.rows + second.rows + (await deleteRows(deps.store, TABLES.users, await userRow(deps.store, uid)));
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

async function userRow(store: TableStore, uid: string): Promise<StoredEntity[]> {
  const row = await store.getEntity(TABLES.users, uid, uid);
  return row ? [row] : [];
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
  const repo = new ReceiptRepository(store);
  let rows = 0;

  // 1. Pending work first, fenced by etag like a receipt delete.
  const queued = await listAllEntities(store, TABLES.scanQueue, { partitionKey: uid });
  const now = nowOf(deps);
  if (queued.some((row) => analysedNow(rowToQueue(row), now))) throw beingAnalysed();
  for (const row of queued) {
    try {
      await repo.deleteQueueEntry(uid, row.rowKey, row.etag);
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
    listAllEntities(store, TABLES.receipts, { partitionKey: uid }),
    blobs.list(`${uid}/`),
    repo.getDataState(uid),
  ]);
  const fileNames = new Set([
    ...queued.map((r) => r.rowKey),
    ...userBlobs.map((key) => key.slice(uid.length + 1).replace(/\.analysis\.json$/, '')),
    ...state.intents.flatMap((intent) => intent.files),
  ]);
  const partitions = new Set([
    ...receipts.map((r) => r.rowKey),
    ...[...fileNames].map((f) => receiptIdFor(uid, f)),
  ]);
  await inBatches([...partitions], DELETES_AT_ONCE, async (receiptId) => {
    const [items, taxes] = await Promise.all([
      listAllEntities(store, TABLES.items, { partitionKey: receiptId }),
      listAllEntities(store, TABLES.taxes, { partitionKey: receiptId }),
    ]);
    rows += items.length + taxes.length;
    if (items.length > 0) await repo.replaceItems(receiptId, []);
    if (taxes.length > 0) await repo.replaceTaxes(receiptId, []);
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
  const merchants = await listAllEntities(store, TABLES.merchants, { partitionKey: uid });
  rows += await deleteRows(store, TABLES.receipts, receipts);
  rows += await deleteRows(store, TABLES.merchants, merchants);
  // Only a scan's worker or an edit writes totals, and neither writes for the user once the queue
  // entries are gone and the mark refuses edits: the sweep again need not list them.
  if (!pass.late) await deleteReportTotals(store, uid);

  // 5. Push tokens the user owns, by key: the user's `~push~` rows, and the token list for tokens
  // registered before those rows were kept.
  const userRows = (await listAllEntities(store, TABLES.users, { partitionKey: uid })).filter(
    (r) => r.rowKey !== uid,
  );
  const tokenKeys = new Set([
    ...userRows
      .filter((r) => r.rowKey.startsWith(PUSH_TOKEN_PREFIX))
      .map((r) => r.rowKey.slice(PUSH_TOKEN_PREFIX.length)),
    ...(await Promise.all(((await repo.getUser(uid))?.fcm_tokens ?? []).map(pushTokenKey))),
  ]);
  await inBatches([...tokenKeys], DELETES_AT_ONCE, async (key) => {
    if (await repo.releasePushTokenOwner(uid, key)) rows++;
  });

  // 6. The rest of the user's partition of Users: image index, visits, push tokens; and the rules
  // learnt from the user's corrections, in a partition of their own (the user's id, '~rules').
  rows += await deleteRows(store, TABLES.users, userRows);
  rows += await deleteRows(
    store,
    TABLES.users,
    await listAllEntities(store, TABLES.users, { partitionKey: correctionRulesPartition(uid) }),
  );
  return { rows, blobs: blobCount };
}

/** Deletes the blobs; one already gone is fine. @returns how many were listed */
async function deleteBlobs(blobs: BlobStore, keys: readonly string[]): Promise<number> {
  await inBatches(keys, DELETES_AT_ONCE, (key) => blobs.delete(key));
  return keys.length;
}

/**
 * Deletes the rows; one already gone is fine, and with `byEtag` one changed since read is left.
 * @returns how many were deleted
 */
async function deleteRows(
  store: TableStore,
  table: string,
  rows: readonly StoredEntity[],
  options: { byEtag?: boolean } = {},
): Promise<number> {
  let deleted = 0;
  await inBatches(rows, DELETES_AT_ONCE, async (row) => {
    try {
      await store.deleteEntity(
        table,
        row.partitionKey,
        row.rowKey,
        options.byEtag ? { etag: row.etag } : undefined,
      );
      deleted++;
    } catch (error) {
      const gone = error instanceof NotFoundError;
      const changed = options.byEtag && error instanceof ConflictError;
      if (!gone && !changed) throw error;
    }
  });
  return deleted;
}
