import type { UploadAnswer } from '../api';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { ANALYSIS_SUFFIX, imageKey, receiptIdFor } from '../repository/keys';
import { ReceiptRepository } from '../repository/receipt-repository';
import type { QueueRow } from '../repository/rows';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { parseImageDataUrl } from './image-data-url';
import { DEFAULT_UPLOAD_QUOTAS, releaseStoredBytes, reserveUpload } from './quotas';

/**
 * Accepts a receipt image for analysis (spec §7 POST /api/upload): checks it, stores it under the
 * user's prefix, writes the queue entry (status 'false') and enqueues the scan. It does not wait
 * for the analysis. Uploading the same file name again replaces a failed scan; while it is queued or
 * being analysed, or when two uploads of one name race, the later one is refused (409).
 */
export async function uploadReceipt(
  deps: AppDeps,
  identity: Identity,
  input: { userId: string; imgSrc: string; fileName: string },
): Promise<UploadAnswer> {
  assertOwnUserId(identity, input.userId);
  const { fileName } = input;
  if (fileName.endsWith(ANALYSIS_SUFFIX)) {
    throw new ValidationError(`fileName may not end with "${ANALYSIS_SUFFIX}".`, {
      code: 'ReservedFileName',
    });
  }
  const { contentType, bytes } = parseImageDataUrl(input.imgSrc);

  const repo = new ReceiptRepository(deps.store);
  const uid = identity.uid;
  const [receipt, existing] = await Promise.all([
    repo.getReceipt(uid, receiptIdFor(uid, fileName)),
    repo.getQueueEntry(uid, fileName),
  ]);
  if (receipt) {
    throw new ConflictError(
      `A receipt from "${fileName}" has already been analysed; delete it first or upload under a new file name.`,
      { code: 'AlreadyAnalysed' },
    );
  }
  if (existing && existing.entry.status !== 'Failed') {
    throw new ConflictError(
      existing.entry.status === 'Analyzing'
        ? `"${fileName}" is being analysed right now; wait until it has finished.`
        : `"${fileName}" is already queued for analysis; wait until it has finished or delete it first.`,
      { code: existing.entry.status === 'Analyzing' ? 'BeingAnalysed' : 'AlreadyQueued' },
    );
  }

  const at = nowOf(deps);
  await reserveUpload(deps.store, deps.quotas ?? DEFAULT_UPLOAD_QUOTAS, uid, bytes.length, at);
  // The bytes this upload no longer holds (when it is not kept, or a failed scan's image it replaces).
  const release = (size: number) =>
    releaseStoredBytes(deps.store, uid, size).catch((error: unknown) =>
      deps.logger.warn('stored bytes not released', { userId: uid, error: String(error) }),
    );
  const now = at.toISOString();
  const entry: QueueRow = {
    userId: uid,
    fileName,
    status: 'false',
    reason: null,
    attempts: 0,
    uploaded_at: existing?.entry.uploaded_at || now,
    updated_at: now,
    content_type: contentType,
    image_bytes: bytes.length,
  };
  // The entry is written before the image, insert-only (or over the failed entry read above, by its
  // etag): of two uploads of one name at once only one gets here, and an image is never replaced
  // under a scan that a worker may be reading.
  let etag: string;
  try {
    etag = existing ? await repo.saveQueueEntry(entry, existing.etag) : await repo.createQueueEntry(entry);
  } catch (error) {
    await release(bytes.length);
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    throw new ConflictError(`"${fileName}" was uploaded again at the same time; this upload was not kept.`, {
      code: 'UploadedTwice',
      cause: error,
    });
  }
  if (existing?.entry.image_bytes) await release(existing.entry.image_bytes);
  try {
    await deps.blobs.put(imageKey(uid, fileName), bytes, contentType);
  } catch (error) {
    await release(bytes.length);
    await repo.deleteQueueEntry(uid, fileName, etag).catch((cleanup: unknown) =>
      deps.logger.warn('queue entry of a failed upload not removed', {
        userId: uid,
        fileName,
        error: String(cleanup),
      }),
    );
    throw error;
  }
  try {
    await deps.queue.enqueue({ userId: uid, fileName });
  } catch (error) {
    // The image and the entry are kept: the user can retry the scan instead of uploading again.
    deps.logger.error('enqueue failed', { userId: uid, fileName, error: String(error) });
    await repo.saveQueueEntry({
      ...entry,
      status: 'Failed',
      reason: 'The receipt was saved but could not be queued for analysis. Retry it.',
    });
    throw new ServiceUnavailableError(
      'The receipt was saved but could not be queued for analysis; retry it in a moment.',
      {
        cause: error,
        code: 'QueueUnavailable',
      },
    );
  }
  return { fileName, status: 'false' };
}
