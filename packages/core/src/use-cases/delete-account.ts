import { inBatches } from '../in-batches';
import { isStale } from '../api';
import { TABLES } from '../entities';
import { ConflictError, NotFoundError } from '../errors';
import type { DeleteAccountAnswer } from '../my-data-api';
import type { BlobStore, Identity, IdentityVerifier } from '../ports';
import { appDataCacheKey, userKeyPrefix } from '../repository/keys';
import { correctionRulesPartition } from '../repository/correction-rules';
import { PUSH_TOKEN_OWNERS_PARTITION, ReceiptRepository } from '../repository/receipt-repository';
import { rowToQueue } from '../repository/rows';
import { eq, listAllEntities, type StoredEntity, type TableStore } from '../table-store';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { forgetReportIndex } from './query-report';

/** Deletes sent at once (blobs and rows outside a transaction). */
const DELETES_AT_ONCE = 8;

export type DeleteAccountDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'> & {
  identity: Pick<IdentityVerifier, 'deleteAccount'>;
};

/**
 * Deletes the caller's account and everything of it (POST /api/deleteAccount), in this order:
 *
 * 1. the scan queue entries, each by the etag read (a worker whose claim this removes writes nothing
 *    more, see processScan); a scan being analysed right now makes it answer 409 before anything is
 *    deleted, as deleting one receipt does;
 * 2. the Items and Taxes partitions of the user's receipts (and any whose receipt row is gone);
 * 3. every blob under the user's prefix (images, analysis JSON), the report cache and data exports;
 * 4. the Receipts and Merchants rows;
 * 5. the push-token owner rows that name the user;
 * 6. the user's correction rules, then the user's partition of Users (the image index rows, then
 *    the user row);
 * 7. the sign-in account in the identity provider.
 *
 * Every step lists what is left and deletes it, and a missing row or blob is not an error, so when
 * it fails halfway, running it again finishes the job. The identity goes last: until then the person
 * can still sign in and run it again.
 * @throws ForbiddenError when `userId` is not the caller's; ConflictError while a scan is analysed
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  identity: Identity,
  input: { userId: string },
): Promise<DeleteAccountAnswer> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const { store, blobs } = deps;
  const repo = new ReceiptRepository(store);
  let rows = 0;

  // 1. Pending work first, fenced by etag like a receipt delete.
  const queued = await listAllEntities(store, TABLES.scanQueue, { partitionKey: uid });
  const now = nowOf(deps);
  const beingAnalysed = (cause?: unknown) =>
    new ConflictError(
      'A receipt of yours is being analysed right now. Wait until it has finished (usually under a ' +
        'minute) and delete your account again.',
      { code: 'BeingAnalysed', cause },
    );
  for (const row of queued) {
    const entry = rowToQueue(row);
    if (entry.status === 'Analyzing' && !isStale(entry.updated_at, now)) throw beingAnalysed();
  }
  for (const row of queued) {
    try {
      await repo.deleteQueueEntry(uid, row.rowKey, row.etag);
      rows++;
    } catch (error) {
      // A worker claimed the scan since it was read: it is being analysed now.
      if (error instanceof ConflictError) throw beingAnalysed(error);
      throw error;
    }
  }

  // 2. Items and taxes before their receipts, as a receipt delete does: a run that stops here finds
  // the partitions again from the receipt rows.
  const receipts = await listAllEntities(store, TABLES.receipts, { partitionKey: uid });
  const prefix = { partitionKeyPrefix: userKeyPrefix(uid) };
  const [itemRows, taxRows] = await Promise.all([
    listAllEntities(store, TABLES.items, prefix),
    listAllEntities(store, TABLES.taxes, prefix),
  ]);
  const partitions = new Set([
    ...receipts.map((r) => r.rowKey),
    ...itemRows.map((r) => r.partitionKey),
    ...taxRows.map((r) => r.partitionKey),
  ]);
  rows += itemRows.length + taxRows.length;
  await inBatches([...partitions], DELETES_AT_ONCE, (receiptId) =>
    Promise.all([repo.replaceItems(receiptId, []), repo.replaceTaxes(receiptId, [])]),
  );

  // 3. Images, analysis JSON and the report cache.
  const blobCount = await deleteBlobs(blobs, [
    ...(await blobs.list(`${uid}/`)),
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
  // The report totals, aggregates and bookkeeping (their partitions start with the user id, as items' do).
  rows += await deleteRows(store, TABLES.totals, await listAllEntities(store, TABLES.totals, prefix));
  rows += await deleteRows(
    store,
    TABLES.totalsApplied,
    await listAllEntities(store, TABLES.totalsApplied, prefix),
  );

  // 5. Push tokens the user owns. The owner rows are keyed by token hash, so they are found by a
  // filter over the owners partition; that reads other users' owner rows too, which only this rare
  // request does.
  const owned = await listAllEntities(store, TABLES.users, {
    partitionKey: PUSH_TOKEN_OWNERS_PARTITION,
    filter: eq('user_id', uid),
  });
  // By etag: a token another user registered since is theirs now and stays.
  rows += await deleteRows(store, TABLES.users, owned, { byEtag: true });

  // 6. The user's partition of Users: image index rows, then the user row itself.
  // The rules learnt from the user's corrections are in a partition of their own (the user's id, '~rules').
  rows += await deleteRows(
    store,
    TABLES.users,
    await listAllEntities(store, TABLES.users, { partitionKey: correctionRulesPartition(uid) }),
  );
  const userRows = await listAllEntities(store, TABLES.users, { partitionKey: uid });
  const own = userRows.filter((r) => r.rowKey === uid);
  rows += await deleteRows(
    store,
    TABLES.users,
    userRows.filter((r) => r.rowKey !== uid),
  );
  rows += await deleteRows(store, TABLES.users, own);
  forgetReportIndex(uid);

  // 7. The sign-in account; once it is gone the person's tokens are refused.
  await deps.identity.deleteAccount(uid);
  deps.logger.info('account deleted', { userId: uid, rows, blobs: blobCount });
  return { deleted: true, removed: { rows, blobs: blobCount } };
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
