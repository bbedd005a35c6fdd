import type { UploadAnswer } from '../contract/requests';
import { TABLES } from '../entities';
import {
  AccountDeletedError,
  ConflictError,
  DuplicateImageError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors';
import type { Identity } from '../ports';
import { ANALYSIS_SUFFIX, UNKNOWN_MERCHANT, imageKey, receiptIdFor, sha256Hex } from '../repository/keys';
import { repositories, type Repositories } from '../repository/repositories';
import type { ImageHashRow } from '../repository/scan-repository';
import { ACCOUNT_DELETED_AT, str, type QueueRow } from '../repository/rows';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { parseImageDataUrl } from './image-data-url';
import { assertDocumentWithinLimits } from './pdf-pages';
import { DEFAULT_UPLOAD_QUOTAS, releaseStoredBytes, reserveUpload } from './quotas';

/**
 * Accepts a receipt image for analysis (spec §7 POST /api/upload): checks it, stores it under the
 * user's prefix, writes the queue entry (status 'false') and enqueues the scan. It does not wait
 * for the analysis. Uploading the same file name again replaces a failed scan; while it is queued or
 * being analysed, or when two uploads of one name race, the later one is refused (409).
 *
 * An image whose bytes the user uploaded before, under another name, is refused too (409 naming the
 * earlier upload), so it is neither stored nor analysed twice. The user's image index (a row per
 * SHA-256, see ImageHashRow) is written insert-only after the queue entry: of two uploads of the
 * same bytes at once, one is kept. A row whose upload is gone (deleted, or a failed scan replaced
 * by other bytes) no longer counts and is taken over.
 */
export async function uploadReceipt(
  deps: AppDeps,
  identity: Identity,
  input: { userId: string; imgSrc: string; fileName: string; day?: string | undefined },
): Promise<UploadAnswer> {
  assertOwnUserId(identity, input.userId);
  const { fileName } = input;
  if (fileName.endsWith(ANALYSIS_SUFFIX)) {
    throw new ValidationError(`fileName may not end with "${ANALYSIS_SUFFIX}".`, {
      code: 'ReservedFileName',
    });
  }
  const { contentType, bytes } = parseImageDataUrl(input.imgSrc);
  // What the file holds is bounded before it is stored: each page is paid for when analysed, and
  // a picture's pixels are what decoding it costs.
  await assertDocumentWithinLimits(bytes, contentType);

  const repos = repositories(deps.store);
  const uid = identity.uid;
  const sha256 = await sha256Hex(bytes);
  const [receipt, existing, earlier] = await Promise.all([
    repos.receipts.getReceipt(uid, receiptIdFor(uid, fileName)),
    repos.scans.getQueueEntry(uid, fileName),
    repos.scans.getImageHash(uid, sha256),
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

  // Refused before anything is counted against the user's quotas or written.
  const heldElsewhere = earlier !== null && earlier.row.fileName !== fileName;
  if (heldElsewhere && (await holdsImage(repos, uid, earlier.row.fileName, sha256))) {
    throw await duplicateImage(repos, uid, earlier.row.fileName);
  }

  const at = nowOf(deps);
  await reserveUpload(deps.store, deps.quotas ?? DEFAULT_UPLOAD_QUOTAS, uid, bytes.length, at, fileName);
  // The bytes this upload no longer holds (when it is not kept, with its reservation of a pending
  // scan; or a failed scan's image it replaces).
  const release = (size: number, reservedFor?: string) =>
    releaseStoredBytes(deps.store, uid, size, reservedFor).catch((error: unknown) =>
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
    upload_day: input.day ?? null,
    updated_at: now,
    content_type: contentType,
    image_bytes: bytes.length,
    image_sha256: sha256,
  };
  // The entry is written before the image, insert-only (or over the failed entry read above, by its
  // etag): of two uploads of one name at once only one gets here, and an image is never replaced
  // under a scan that a worker may be reading.
  let etag: string;
  try {
    etag = existing
      ? await repos.scans.saveQueueEntry(entry, existing.etag)
      : await repos.scans.createQueueEntry(entry);
  } catch (error) {
    await release(bytes.length, fileName);
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    throw new ConflictError(`"${fileName}" was uploaded again at the same time; this upload was not kept.`, {
      code: 'UploadedTwice',
      cause: error,
    });
  }

  // After the entry: an upload whose index row another one finds has its entry already, so that
  // check (holdsImage) tells an upload in progress from a row left behind.
  const hashRow: ImageHashRow = { userId: uid, sha256, fileName, uploaded_at: now };
  let indexed = false;
  try {
    if (!earlier) await repos.scans.saveImageHash(hashRow);
    else if (heldElsewhere) await repos.scans.saveImageHash(hashRow, earlier.etag);
    indexed = earlier === null || heldElsewhere;
  } catch (error) {
    await release(bytes.length, fileName);
    await (
      existing
        ? repos.scans.saveQueueEntry(existing.entry, etag)
        : repos.scans.deleteQueueEntry(uid, fileName, etag)
    ).catch((cleanup: unknown) =>
      deps.logger.warn('queue entry of a duplicate upload not undone', {
        userId: uid,
        fileName,
        error: String(cleanup),
      }),
    );
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    const winner = await repos.scans.getImageHash(uid, sha256);
    if (winner && winner.row.fileName !== fileName)
      throw await duplicateImage(repos, uid, winner.row.fileName, error);
    throw new ConflictError('This image was uploaded twice at the same time; this upload was not kept.', {
      code: 'UploadedTwice',
      cause: error,
    });
  }
  const forget = () =>
    indexed
      ? repos.scans.deleteImageHash(uid, sha256, fileName).catch((cleanup: unknown) =>
          deps.logger.warn('image index row of a failed upload not removed', {
            userId: uid,
            fileName,
            error: String(cleanup),
          }),
        )
      : Promise.resolve();
  if (existing?.entry.image_sha256 && existing.entry.image_sha256 !== sha256) {
    // The failed scan this replaces held other bytes: they may be uploaded again.
    await repos.scans.deleteImageHash(uid, existing.entry.image_sha256, fileName).catch((cleanup: unknown) =>
      deps.logger.warn('image index row of a replaced scan not removed', {
        userId: uid,
        fileName,
        error: String(cleanup),
      }),
    );
  }
  if (existing?.entry.image_bytes) await release(existing.entry.image_bytes);
  try {
    await deps.blobs.put(imageKey(uid, fileName), bytes, contentType);
  } catch (error) {
    await release(bytes.length, fileName);
    await forget();
    await repos.scans.deleteQueueEntry(uid, fileName, etag).catch((cleanup: unknown) =>
      deps.logger.warn('queue entry of a failed upload not removed', {
        userId: uid,
        fileName,
        error: String(cleanup),
      }),
    );
    throw error;
  }
  // The account's deletion may have begun since the quota was reserved: it sweeps what was written
  // before its mark, and an upload that finds the mark (or the user's row gone) takes back its own.
  const user = await deps.store.getEntity(TABLES.users, uid, uid);
  if (!user || str(user, ACCOUNT_DELETED_AT)) {
    await forget();
    await deps.blobs.delete(imageKey(uid, fileName));
    await repos.scans.deleteQueueEntry(uid, fileName, etag).catch((error: unknown) => {
      if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
    });
    throw new AccountDeletedError();
  }
  try {
    await deps.queue.enqueue({ userId: uid, fileName });
  } catch (error) {
    // The image and the entry are kept: the user can retry the scan instead of uploading again.
    deps.logger.error('enqueue failed', { userId: uid, fileName, error: String(error) });
    await repos.scans.saveQueueEntry({
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

/**
 * Whether the user's upload `fileName` still holds the image with this SHA-256: its receipt or its
 * queue entry exists and was made from these bytes (a row that records no hash predates the index
 * and counts).
 */
async function holdsImage(
  repos: Repositories,
  userId: string,
  fileName: string,
  sha256: string,
): Promise<boolean> {
  const [receipt, queued] = await Promise.all([
    repos.receipts.getReceipt(userId, receiptIdFor(userId, fileName)),
    repos.scans.getQueueEntry(userId, fileName),
  ]);
  const same = (hash: string | null | undefined) => !hash || hash === sha256;
  return (
    (receipt !== null && same(receipt.image_sha256)) || (queued !== null && same(queued.entry.image_sha256))
  );
}

/** The 409 for an image the user already uploaded as `fileName`, saying where to find it. */
async function duplicateImage(
  repos: Repositories,
  userId: string,
  fileName: string,
  cause?: unknown,
): Promise<DuplicateImageError> {
  const receiptId = receiptIdFor(userId, fileName);
  const [receipt, queued] = await Promise.all([
    repos.receipts.getReceipt(userId, receiptId),
    repos.scans.getQueueEntry(userId, fileName),
  ]);
  const uploaded = `You already uploaded this image as "${fileName}"`;
  let message: string;
  if (receipt) {
    const merchant =
      receipt.merchant_name && receipt.merchant_name !== UNKNOWN_MERCHANT ? receipt.merchant_name : null;
    const what = [
      merchant && `from ${merchant}`,
      receipt.transaction_date && `on ${receipt.transaction_date}`,
    ]
      .filter(Boolean)
      .join(' ');
    message = `${uploaded}${what ? ` (receipt ${what})` : ''}. Open it from Reports instead of uploading it again.`;
  } else if (queued?.entry.status === 'Failed') {
    message = `${uploaded}, and its analysis failed. Retry or remove it under Images in progress instead of uploading it again.`;
  } else {
    message = `${uploaded}; it is being analysed and will appear in Reports when it is done.`;
  }
  return new DuplicateImageError(message, { receiptId, fileName, cause });
}
