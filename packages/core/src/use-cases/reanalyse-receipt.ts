import type { BrandOption, ReanalyseAnswer } from '../contract/edits';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../errors';
import type { Identity } from '../ports';
import { analysisKey, imageKey, parseReceiptId } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { loadReceiptForEdit, ownReceiptId } from './receipt-edits';
import { DEFAULT_UPLOAD_QUOTAS, reserveReanalysis } from './quotas';

/**
 * Runs the analyzer again on the receipt's stored image, through the scan queue like an upload
 * (POST /api/reanalyseReceipt). The worker keeps the fields a person set, replaces the rest and
 * records what changed on the receipt (`reanalysis_changes`). Edits wait until it has finished.
 */
export async function reanalyseReceipt(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'queue' | 'logger' | 'now' | 'quotas'>,
  identity: Identity,
  input: { userId: string; receiptId: string; etag: string },
): Promise<ReanalyseAnswer> {
  const repos = repositories(deps.store);
  const receipt = await loadReceiptForEdit(repos, identity, input);
  const uid = identity.uid;
  const fileName = receipt.file_name || parseReceiptId(receipt.receipt_id)!.fileName;
  const image = await deps.blobs.list(imageKey(uid, fileName));
  if (!image.includes(imageKey(uid, fileName))) {
    throw new NotFoundError('The stored image of this receipt is gone, so it cannot be analysed again.', {
      code: 'ImageMissing',
    });
  }
  const at = nowOf(deps);
  const now = at.toISOString();
  const queued = await repos.scans.getQueueEntry(uid, fileName);
  if (queued && queued.entry.status !== 'Failed') throw alreadyQueued();
  // Counted before it is queued: another analysis is paid for as an upload is.
  await reserveReanalysis(deps.store, deps.quotas ?? DEFAULT_UPLOAD_QUOTAS, uid, at, fileName);
  const entry = {
    userId: uid,
    fileName,
    status: 'false' as const,
    reason: null,
    attempts: 0,
    uploaded_at: now,
    updated_at: now,
    content_type: queued?.entry.content_type ?? contentTypeOf(fileName),
    // Counted in the quota with the receipt already; the entry goes when the analysis is done.
    image_bytes: null,
  };
  try {
    // A failed earlier run is replaced by its etag; otherwise insert-only, so two clicks queue once.
    if (queued) await repos.scans.saveQueueEntry(entry, queued.etag);
    else await repos.scans.createQueueEntry(entry);
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) throw alreadyQueued(error);
    throw error;
  }
  try {
    await deps.queue.enqueue({ userId: uid, fileName });
  } catch (error) {
    deps.logger.error('enqueue failed', { userId: uid, fileName, error: String(error) });
    await repos.scans.deleteQueueEntry(uid, fileName).catch(() => undefined);
    throw new ServiceUnavailableError(
      'The receipt could not be queued for analysis; try again in a moment.',
      {
        cause: error,
        code: 'QueueUnavailable',
      },
    );
  }
  deps.logger.info('receipt queued for analysis again', { userId: uid, receiptId: receipt.receipt_id });
  return { receiptId: receipt.receipt_id, fileName, status: 'false' };
}

function alreadyQueued(cause?: unknown): ConflictError {
  return new ConflictError('This receipt is already being analysed again.', { code: 'AlreadyQueued', cause });
}

function contentTypeOf(fileName: string): string {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'png') return 'image/png';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'pdf') return 'application/pdf';
  return 'image/jpeg';
}

/**
 * The analysis of a receipt as the analyzer wrote it (GET /api/getAnalysis): the JSON viewer shows
 * it, untouched by a person's edits.
 */
export async function getAnalysis(
  deps: Pick<AppDeps, 'blobs'>,
  identity: Identity,
  input: { userId: string; receiptId: string },
): Promise<unknown> {
  const parsed = ownReceiptId(identity, input);
  const stored = await deps.blobs.get(analysisKey(identity.uid, parsed.fileName));
  if (!stored) {
    throw new NotFoundError('There is no stored analysis of this receipt.', { code: 'AnalysisNotFound' });
  }
  return JSON.parse(new TextDecoder().decode(stored.bytes)) as unknown;
}

/** The brand dataset for the item form's type-ahead (GET /api/listBrands), sorted by name. */
export function listBrands(
  deps: { brandCatalog?: readonly BrandOption[] },
  identity: Identity,
  input: { userId: string },
): BrandOption[] {
  assertOwnUserId(identity, input.userId);
  const seen = new Set<string>();
  return (deps.brandCatalog ?? [])
    .filter((b) => (seen.has(b.name) ? false : (seen.add(b.name), true)))
    .map((b) => ({ name: b.name, owning_corporation: b.owning_corporation }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
