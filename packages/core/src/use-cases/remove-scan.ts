import { isStale } from '../contract/routes';
import type { RemoveScanAnswer } from '../contract/requests';
import { ConflictError, NotFoundError } from '../errors';
import type { Identity } from '../ports';
import { analysisKey, imageKey, receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { commitWrite } from './commit-write';
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

  // Through the commit step: its intent names the upload, so a removal that stops after the entry
  // is gone has its image, analysis, items and index row removed by the next write or read.
  const found = await commitWrite(deps, uid, {
    prepare: async () => {
      const queued = await repos.scans.getQueueEntry(uid, fileName);
      if (!queued) throw notFound();
      if (queued.entry.status !== 'Failed' && !isStale(queued.entry.updated_at, nowOf(deps))) throw busy();
      return { files: [fileName], uploads: [{ f: fileName, h: queued.entry.image_sha256 ?? null }], queued };
    },
    apply: async ({ queued }) => {
      // The etag keeps a retry that queued the scan meanwhile from being undone.
      try {
        await repos.scans.deleteQueueEntry(uid, fileName, queued.etag);
      } catch (error) {
        if (error instanceof ConflictError) throw busy(error);
        throw error;
      }
      if (!(await repos.receipts.getReceipt(uid, receiptIdFor(uid, fileName)))) {
        const receiptId = receiptIdFor(uid, fileName);
        const keys = [imageKey(uid, fileName), analysisKey(uid, fileName)];
        const stored = await deps.blobs.list(imageKey(uid, fileName));
        await Promise.all(keys.filter((key) => stored.includes(key)).map((key) => deps.blobs.delete(key)));
        // Rows a scan wrote before it failed.
        await Promise.all([
          repos.receipts.replaceItems(receiptId, []),
          repos.receipts.replaceTaxes(receiptId, []),
        ]);
        // No receipt holds the image now, so it may be uploaded again.
        if (queued.entry.image_sha256)
          await repos.scans.deleteImageHash(uid, queued.entry.image_sha256, fileName);
        // The image no longer counts against the user's stored bytes, nor the upload as pending.
        const bytes = stored.includes(imageKey(uid, fileName)) ? (queued.entry.image_bytes ?? 0) : 0;
        await releaseStoredBytes(deps.store, uid, bytes, fileName).catch((error: unknown) =>
          deps.logger.warn('stored bytes not released', { userId: uid, error: String(error) }),
        );
      }
      return { answer: queued };
    },
  });
  deps.logger.info('scan removed', { userId: uid, fileName, status: found.entry.status });
  return { removed: true, fileName };
}
