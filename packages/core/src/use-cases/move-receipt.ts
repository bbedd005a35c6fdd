import type { ReceiptEditAnswer } from '../contract/edits';
import { NotFoundError } from '../errors';
import type { Identity } from '../ports';
import { removeMerchantIfUnused } from '../repository/merchant-repository';
import { repositories } from '../repository/repositories';
import type { ReceiptRow } from '../repository/rows';
import { commitWrite } from './commit-write';
import { learnMovedReceipt } from './correction-rules';
import { flagPossibleDuplicate, recordVisit } from './possible-duplicates';
import {
  loadReceiptForEdit,
  reviewAfterEdit,
  withEdited,
  writeReceipt,
  type EditDeps,
  type ReceiptEditInput,
} from './receipt-edits';

/** The receipt is from another of the user's merchants (POST /api/moveReceipt). */
export async function moveReceipt(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { merchantId: string },
): Promise<ReceiptEditAnswer> {
  const repos = repositories(deps.store);
  return commitWrite(deps, identity.uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repos, identity, input);
      const merchant = await repos.merchants.getMerchant(identity.uid, input.merchantId);
      if (!merchant) {
        throw new NotFoundError('There is no such merchant among yours; reload to see your merchants.', {
          code: 'MerchantNotFound',
        });
      }
      // The merchant it leaves goes with its last receipt, also when the move stops half-way.
      return { files: [receipt.file_name], merchants: [receipt.merchant_id], receipt, merchant };
    },
    apply: async ({ receipt, merchant }) => {
      if (merchant.merchant_id === receipt.merchant_id) {
        return { answer: { receiptId: receipt.receipt_id, etag: receipt.etag } };
      }
      const moved: ReceiptRow = {
        ...receipt,
        merchant_id: merchant.merchant_id,
        merchant_name: merchant.name,
        edited: withEdited(receipt, ['merchant']),
      };
      const items = await repos.receipts.listItemsOfReceipt(receipt.receipt_id);
      Object.assign(moved, await reviewAfterEdit(deps, moved, items));
      await flagPossibleDuplicate(repos, moved, { review: false });
      const etag = await writeReceipt(repos, moved, receipt.etag);
      await recordVisit(repos, identity.uid, moved, receipt);
      await learnMovedReceipt(deps, repos, identity.uid, receipt, merchant);
      await removeMerchantIfUnused(repos, identity.uid, receipt.merchant_id);
      deps.logger.info('receipt moved', { userId: identity.uid, receiptId: receipt.receipt_id });
      return { answer: { receiptId: receipt.receipt_id, etag } };
    },
  });
}
