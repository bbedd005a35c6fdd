import type { UploadAnswer } from '../api';
import { ConflictError, NotFoundError, StoreError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { ANALYSIS_SUFFIX, imageKey, receiptIdFor } from '../repository/keys';
import { ReceiptRepository } from '../repository/receipt-repository';
import type { QueueRow } from '../repository/rows';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { parseImageDataUrl } from './image-data-url';

/**
 * Accepts a receipt image for analysis (spec §7 POST /api/upload): checks it, stores it under the
 * user's prefix, writes the queue entry (status 'false') and enqueues the scan. It does not wait
 * for the analysis. Uploading the same file name again while it is queued or failed replaces it
 * (a client retrying after a lost answer gets the same result).
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
  if (existing?.entry.status === 'Analyzing') {
    throw new ConflictError(`"${fileName}" is being analysed right now; wait until it has finished.`, {
      code: 'BeingAnalysed',
    });
  }

  await deps.blobs.put(imageKey(uid, fileName), bytes, contentType);
  const now = nowOf(deps).toISOString();
  const entry: QueueRow = {
    userId: uid,
    fileName,
    status: 'false',
    reason: null,
    attempts: 0,
    uploaded_at: existing?.entry.uploaded_at || now,
    updated_at: now,
    content_type: contentType,
  };
  try {
    // With the etag of the entry read above: a worker that claimed the scan meanwhile keeps its
    // claim (overwriting it would let a second delivery analyse the same scan again).
    await repo.saveQueueEntry(entry, existing?.etag);
  } catch (error) {
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    throw new ConflictError(
      `"${fileName}" started being analysed while it was uploaded again; wait until it has finished.`,
      { code: 'BeingAnalysed', cause: error },
    );
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
    throw new StoreError(
      'The receipt was saved but could not be queued for analysis; retry it in a moment.',
      {
        cause: error,
        code: 'QueueUnavailable',
        status: 503,
      },
    );
  }
  return { fileName, status: 'false' };
}
