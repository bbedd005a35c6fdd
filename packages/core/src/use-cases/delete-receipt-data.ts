import type { DeleteReceiptAnswer } from '../contract/requests';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { analysisKey, imageKey, parseReceiptId } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { removeMerchantIfUnused } from '../repository/merchant-repository';
import { recordVisit } from './possible-duplicates';
import { releaseStoredBytes } from './quotas';
import { commitWrite } from './commit-write';
import { isStale } from '../contract/routes';

/**
 * Deletes a receipt with everything that belongs to it (spec §7 DELETE /api/deleteReceiptData):
 * items, taxes, image, analysis JSON and a queue entry of the same upload; the merchant goes too
 * when no other receipt is from it. Brand and corporation figures are computed from the items, so
 * they follow. Children are removed before the receipt row, so an interrupted delete can be
 * repeated to finish it. It also discards a failed scan that never became a receipt.
 */
export async function deleteReceiptData(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'>,
  identity: Identity,
  input: { receiptId: string; userId: string; blobName?: string | undefined },
): Promise<DeleteReceiptAnswer> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const parsed = parseReceiptId(input.receiptId);
  if (!parsed) {
    throw new ValidationError('receiptId is not the id of a receipt of this app.', {
      code: 'InvalidReceiptId',
    });
  }
  if (parsed.userId !== uid) {
    throw new ForbiddenError('This receipt belongs to another user.', { code: 'WrongUser' });
  }
  const { fileName } = parsed;
  if (input.blobName !== undefined && input.blobName !== fileName) {
    throw new ValidationError(
      'blobName does not match the receipt: it must be the last part of its document_url.',
      {
        code: 'BlobNameMismatch',
      },
    );
  }

  const repos = repositories(deps.store);
  const { receiptId } = input;
  const blobKeys = [imageKey(uid, fileName), analysisKey(uid, fileName)];
  const beingAnalysed = () =>
    new ConflictError('This receipt is being analysed; delete it when the analysis has finished.', {
      code: 'BeingAnalysed',
    });
  return commitWrite(deps, uid, {
    prepare: async () => {
      const [receipt, queued, items, taxes, blobs] = await Promise.all([
        repos.receipts.getReceipt(uid, receiptId),
        repos.scans.getQueueEntry(uid, fileName),
        repos.receipts.listItemsOfReceipt(receiptId),
        repos.receipts.listTaxesOfReceipt(receiptId),
        deps.blobs.list(imageKey(uid, fileName)),
      ]);
      const storedBlobs = blobKeys.filter((key) => blobs.includes(key));
      if (!receipt && !queued && items.length === 0 && taxes.length === 0 && storedBlobs.length === 0) {
        throw new NotFoundError(`There is no receipt "${receiptId}".`, { code: 'ReceiptNotFound' });
      }
      if (queued?.entry.status === 'Analyzing' && !isStale(queued.entry.updated_at, nowOf(deps))) {
        throw beingAnalysed();
      }
      // Its merchant goes with its last receipt, also when the delete stops half-way.
      const merchants = receipt ? [receipt.merchant_id] : [];
      const hash = receipt?.image_sha256 ?? queued?.entry.image_sha256 ?? null;
      const uploads = [{ f: fileName, h: hash }];
      return { files: [fileName], merchants, uploads, receipt, queued, items, storedBlobs };
    },
    apply: async ({ receipt, queued, items, storedBlobs }) => {
      if (queued) {
        // First, and with the etag read above: a worker that claimed the scan since then keeps it
        // (and this delete answers 409), and one whose claim this removes writes nothing more (its
        // writes are fenced by the entry it claimed) or takes back what it wrote.
        try {
          await repos.scans.deleteQueueEntry(uid, fileName, queued.etag);
        } catch (error) {
          if (error instanceof ConflictError) throw beingAnalysed();
          throw error;
        }
      }
      await Promise.all([
        repos.receipts.replaceItems(receiptId, []),
        repos.receipts.replaceTaxes(receiptId, []),
      ]);
      await Promise.all(storedBlobs.map((key) => deps.blobs.delete(key)));
      // The same image may be uploaded again once the receipt is gone.
      const hashes = new Set([receipt?.image_sha256, queued?.entry.image_sha256].filter((h) => !!h));
      await Promise.all([...hashes].map((hash) => repos.scans.deleteImageHash(uid, hash!, fileName)));
      if (storedBlobs.includes(imageKey(uid, fileName))) {
        const size = receipt?.image_bytes ?? queued?.entry.image_bytes ?? 0;
        await releaseStoredBytes(deps.store, uid, size, fileName).catch((error: unknown) =>
          deps.logger.warn('stored bytes not released', { userId: uid, error: String(error) }),
        );
      }
      // The visit before the row: a visit never lists a receipt that is gone.
      if (receipt) await recordVisit(repos, uid, null, receipt);
      await repos.receipts.deleteReceipt(uid, receiptId);
      if (receipt) await removeMerchantIfUnused(repos, uid, receipt.merchant_id);
      // The report totals lose this receipt's part when the commit step finishes.
      deps.logger.info('receipt deleted', { userId: uid, receiptId, items: items.length });
      return { answer: { deleted: true, receiptId } };
    },
  });
}
