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
import { ACCOUNT_DELETED_AT, str, type QueueRow } from '../repository/rows';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { parseImageDataUrl } from './image-data-url';
import { assertDocumentWithinLimits } from './pdf-pages';
import { DEFAULT_UPLOAD_QUOTAS, releaseStoredBytes, reserveUpload } from './quotas';
import { settleStaleUploads } from './settle-uploads';

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
  const [receipt, existing, earlier, state] = await Promise.all([
    repos.receipts.getReceipt(uid, receiptIdFor(uid, fileName)),
    repos.scans.getQueueEntry(uid, fileName),
    repos.scans.getImageHash(uid, sha256),
    repos.users.getDataState(uid),
  ]);
  // What uploads of the user that stopped half-way left is settled first (see settle-uploads.ts);
  // this upload goes on whatever that meets (a reservation not settled stays for the next try).
  await settleStaleUploads(deps, uid, state.uploads ?? []).catch((error: unknown) =>
    deps.logger.warn('stopped uploads not settled', { userId: uid, error: String(error) }),
  );
  if (receipt) {
    throw new ConflictError(
      `A receipt from "${fileName}" has already been analysed; delete it first or upload under a new file name.`,
      { code: 'AlreadyAnalysed' },
    );
  }
  if (existing && isSameUploadWaiting(existing.entry, sha256)) {
    // This very upload again (its answer was lost, or it stopped half-way): it is finished, not refused.
    return finishUpload(deps, repos, existing, { bytes, contentType, sha256, indexed: earlier !== null });
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
  // The reservation names the file, the image's hash and its bytes: it is the upload's intent, and
  // whatever the upload leaves if it stops can be found from it (see settle-uploads.ts).
  await reserveUpload(
    deps.store,
    deps.quotas ?? DEFAULT_UPLOAD_QUOTAS,
    uid,
    bytes.length,
    at,
    fileName,
    sha256,
  );
  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn(what, { userId: uid, fileName, error: String(error) });
  // The bytes this upload no longer holds (when it is not kept, with its reservation of a pending
  // scan; or a failed scan's image it replaces).
  const release = (size: number, reservedFor?: string) =>
    releaseStoredBytes(deps.store, uid, size, reservedFor).catch(warn('stored bytes not released'));
  if (existing?.entry.image_sha256 && existing.entry.image_sha256 !== sha256) {
    // The failed scan this replaces held other bytes: they may be uploaded again. Its index row goes
    // before the new entry is written, so no index row is ever left naming bytes no upload holds.
    await repos.scans
      .deleteImageHash(uid, existing.entry.image_sha256, fileName)
      .catch(warn('index row not removed'));
  }
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
    // Another write's answer lost may mean the entry was written: the reservation stays, and the
    // next upload or read settles it (see settle-uploads.ts); a retry of this upload finishes it.
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    await release(bytes.length, fileName);
    throw new ConflictError(`"${fileName}" was uploaded again at the same time; this upload was not kept.`, {
      code: 'UploadedTwice',
      cause: error,
    });
  }

  // After the entry: an upload whose index row another one finds has its entry already, so that
  // check (holdsImage) tells an upload in progress from a row left behind.
  const indexed = earlier === null || heldElsewhere;
  /**
   * Takes the upload back: the entry first, by its etag (a retry of this upload that took it over
   * keeps it, image and all), then the image and the index row, and the reservation last. Should
   * this stop half-way, the reservation is left, and the next upload or read settles the rest.
   */
  const takeBack = async (imageWritten: boolean) => {
    try {
      if (existing && !imageWritten) await repos.scans.saveQueueEntry(existing.entry, etag);
      else await repos.scans.deleteQueueEntry(uid, fileName, etag);
    } catch (error) {
      if (error instanceof ConflictError) return; // taken over by a retry of this upload
      if (!(error instanceof NotFoundError)) throw error;
    }
    if (imageWritten) await deps.blobs.delete(imageKey(uid, fileName));
    if (indexed) await repos.scans.deleteImageHash(uid, sha256, fileName);
    await releaseStoredBytes(deps.store, uid, bytes.length, fileName);
  };
  const undo = (imageWritten: boolean) => takeBack(imageWritten).catch(warn('upload not taken back'));
  try {
    if (!earlier) await repos.scans.saveImageHash({ userId: uid, sha256, fileName, uploaded_at: now });
    else if (heldElsewhere)
      await repos.scans.saveImageHash({ userId: uid, sha256, fileName, uploaded_at: now }, earlier.etag);
  } catch (error) {
    await undo(false);
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    const winner = await repos.scans.getImageHash(uid, sha256);
    if (winner && winner.row.fileName !== fileName)
      throw await duplicateImage(repos, uid, winner.row.fileName, error);
    throw new ConflictError('This image was uploaded twice at the same time; this upload was not kept.', {
      code: 'UploadedTwice',
      cause: error,
    });
  }
  try {
    await deps.blobs.put(imageKey(uid, fileName), bytes, contentType);
  } catch (error) {
    await undo(true);
    throw error;
  }
  // The account's deletion may have begun since the quota was reserved: it sweeps what was written
  // before its mark, and an upload that finds the mark (or the user's row gone) takes back its own.
  const user = await deps.store.getEntity(TABLES.users, uid, uid);
  if (!user || str(user, ACCOUNT_DELETED_AT)) {
    await takeBack(true);
    throw new AccountDeletedError();
  }
  if (existing?.entry.image_bytes) await release(existing.entry.image_bytes);
  await enqueueUpload(deps, repos, entry, etag);
  return { fileName, status: 'false' };
}

/** A queue entry waiting for its first analysis, made from these very bytes. */
const isSameUploadWaiting = (entry: QueueRow, sha256: string) =>
  entry.status === 'false' && entry.attempts === 0 && entry.image_sha256 === sha256;

/**
 * Finishes an upload found waiting with the same bytes under the same name: an earlier try of this
 * upload whose answer was lost, or that stopped after its queue entry. The entry is written again by
 * its etag first (so that earlier try, if still running, cannot take it back), then the index row
 * and the image are written if missing and the scan queued (a second job for it is harmless: the
 * worker's claim lets one run). Nothing more is counted against the quotas: the first try was.
 */
async function finishUpload(
  deps: AppDeps,
  repos: Repositories,
  existing: { entry: QueueRow; etag: string },
  upload: { bytes: Uint8Array; contentType: string; sha256: string; indexed: boolean },
): Promise<UploadAnswer> {
  const { userId, fileName } = existing.entry;
  const entry: QueueRow = { ...existing.entry, updated_at: nowOf(deps).toISOString() };
  let etag: string;
  try {
    etag = await repos.scans.saveQueueEntry(entry, existing.etag);
  } catch (error) {
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    throw new ConflictError(`"${fileName}" was uploaded again at the same time; this upload was not kept.`, {
      code: 'UploadedTwice',
      cause: error,
    });
  }
  if (!upload.indexed) {
    await repos.scans
      .saveImageHash({ userId, sha256: upload.sha256, fileName, uploaded_at: entry.uploaded_at })
      .catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error;
      });
  }
  const stored = await deps.blobs.list(imageKey(userId, fileName));
  if (!stored.includes(imageKey(userId, fileName)))
    await deps.blobs.put(imageKey(userId, fileName), upload.bytes, upload.contentType);
  await enqueueUpload(deps, repos, entry, etag);
  return { fileName, status: 'false' };
}

/**
 * Queues the scan of a stored upload. When the queue fails, the image and the entry are kept and
 * the entry marked Failed: the user can retry the scan instead of uploading again.
 */
async function enqueueUpload(deps: AppDeps, repos: Repositories, entry: QueueRow, etag: string) {
  const { userId, fileName } = entry;
  try {
    await deps.queue.enqueue({ userId, fileName });
  } catch (error) {
    deps.logger.error('enqueue failed', { userId, fileName, error: String(error) });
    await repos.scans.saveQueueEntry(
      {
        ...entry,
        status: 'Failed',
        reason: 'The receipt was saved but could not be queued for analysis. Retry it.',
      },
      etag,
    );
    throw new ServiceUnavailableError(
      'The receipt was saved but could not be queued for analysis; retry it in a moment.',
      { cause: error, code: 'QueueUnavailable' },
    );
  }
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
