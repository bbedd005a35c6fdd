import { isStale } from '../contract/routes';
import type { RemoveScanAnswer } from '../contract/requests';
import { ConflictError, NotFoundError } from '../errors';
import type { Identity } from '../ports';
import { analysisKey, imageKey, receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { releaseStoredBytes } from './quotas';

/**
 * Takes a failed (or stuck) scan out of the queue with its stored image and any analysis JSON
 * (DELETE /api/removeScan). A scan that is queued or being analysed, and not stale, is refused: the
 * worker still owns it. When the upload already became a receipt, only the queue entry goes; the
 * image belongs to the receipt then.
 */
export async function removeScan(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'>,
  identity: Identity,
  input: { userId: string; fileName: string },
): Promise<RemoveScanAnswer> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const { fileName } = input;
  const repos = repositories(deps.store);
  const notFound = (cause?: unknown) =>
    new NotFoundError(`There is no scan named "${fileName}" in your queue.`, { code: 'ScanNotFound', cause });
  const busy = (cause?: unknown) =>
    new ConflictError(
      `"${fileName}" is queued or being analysed; it can be removed once it has failed or when it is stuck.`,
      { code: 'AlreadyQueued', cause },
    );

  const found = await repos.scans.getQueueEntry(uid, fileName);
  if (!found) throw notFound();
  if (found.entry.status !== 'Failed' && !isStale(found.entry.updated_at, nowOf(deps))) throw busy();

  // The etag keeps a retry that queued the scan meanwhile from being undone.
  try {
    await repos.scans.deleteQueueEntry(uid, fileName, found.etag);
  } catch (error) {
    if (error instanceof ConflictError) throw busy(error);
    throw error;
  }
  if (!(await repos.receipts.getReceipt(uid, receiptIdFor(uid, fileName)))) {
    const keys = [imageKey(uid, fileName), analysisKey(uid, fileName)];
    const stored = await deps.blobs.list(imageKey(uid, fileName));
    await Promise.all(keys.filter((key) => stored.includes(key)).map((key) => deps.blobs.delete(key)));
    // The image no longer counts against the user's stored bytes.
    if (stored.includes(imageKey(uid, fileName)) && found.entry.image_bytes) {
      await releaseStoredBytes(deps.store, uid, found.entry.image_bytes).catch((error: unknown) =>
        deps.logger.warn('stored bytes not released', { userId: uid, error: String(error) }),
      );
    }
    // No receipt holds the image now, so it may be uploaded again.
    if (found.entry.image_sha256) await repos.scans.deleteImageHash(uid, found.entry.image_sha256, fileName);
  }
  deps.logger.info('scan removed', { userId: uid, fileName, status: found.entry.status });
  return { removed: true, fileName };
}
