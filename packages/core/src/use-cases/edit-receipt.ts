import type { ReceiptChanges, ReceiptEditAnswer, SaveReceiptBody } from '../contract/edits';
import { ValidationError } from '../errors';
import { needsReview } from '../review';
import type { Identity } from '../ports';
import { merchantIdFor, normaliseName, receiptIdOfItem } from '../repository/keys';
import { removeMerchantIfUnused } from '../repository/merchant-repository';
import { repositories, type Repositories } from '../repository/repositories';
import type { MerchantRow, ReceiptRow } from '../repository/rows';
import { assertStorableText, commitWrite } from './commit-write';
import { learnItemCorrections, learnMerchantName } from './correction-rules';
import { flagPossibleDuplicate, recordVisit } from './possible-duplicates';
import {
  editReceipt,
  itemsAfterSave,
  loadReceiptForEdit,
  reviewAfterEdit,
  withEdited,
  writeReceipt,
  writtenItems,
  type EditDeps,
  type ReceiptEditInput,
} from './receipt-edits';

/**
 * Sets receipt fields a person corrected (POST /api/updateReceipt). Fields given with the value
 * they have are not counted as edited. A new merchant name moves the receipt to the user's
 * merchant of that name (a new one when there is none; the old one goes when it has no receipt
 * left). A new currency is the items' and taxes' currency too. `total_checks_out` is recomputed,
 * and the receipt leaves the review queue.
 */
export async function updateReceipt(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { changes: ReceiptChanges },
): Promise<ReceiptEditAnswer> {
  return saveReceipt(deps, identity, { ...input, items: undefined });
}

/**
 * Saves the whole edit form at once (POST /api/saveReceipt): the receipt's fields (as
 * updateReceipt) and, when `items` is given, its items as listed (left-out ones removed, new ones
 * added), all under the one etag the form was read with. The receipt row is written first, by that
 * etag, so a stale save changes nothing; the items are then written in one transaction per receipt.
 * A new currency is the items' and taxes' currency too; `total_checks_out` and the review reasons
 * are assessed again from the receipt as it now stands.
 */
export async function saveReceipt(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { changes: ReceiptChanges; items?: SaveReceiptBody['items'] | undefined },
): Promise<ReceiptEditAnswer> {
  for (const { itemId } of input.items ?? []) {
    if (itemId !== undefined && receiptIdOfItem(itemId) !== input.receiptId) {
      throw new ValidationError('itemId is not an item of this receipt.', { code: 'ItemNotOfReceipt' });
    }
  }
  assertStorableText({ ...input.changes });
  for (const { item } of input.items ?? []) assertStorableText({ ...item });
  const repos = repositories(deps.store);
  const uid = identity.uid;
  const { merchant_name: merchantName, ...fields } = input.changes;
  return commitWrite(deps, uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repos, identity, input);
      let target: { merchant: MerchantRow; isNew: boolean } | null = null;
      let alone = false;
      if (
        merchantName !== undefined &&
        normaliseName(merchantName) !== normaliseName(receipt.merchant_name)
      ) {
        // The only receipt of a misread merchant: the new one takes over its address.
        alone = !(await repos.receipts.merchantHasReceipts(uid, receipt.merchant_id, receipt.receipt_id));
        const template = alone ? await repos.merchants.getMerchant(uid, receipt.merchant_id) : null;
        target = await merchantForName(repos, uid, merchantName, template);
      }
      const before = await repos.receipts.listItemsOfReceipt(receipt.receipt_id);
      const edited = input.items ? itemsAfterSave(deps, receipt, before, input.items) : null;
      // Both merchants are named: should the edit stop half-way, the one left without receipts goes.
      const merchants = target ? [receipt.merchant_id, target.merchant.merchant_id] : [];
      return { files: [receipt.file_name], merchants, receipt, target, before, edited, renamed: alone };
    },
    apply: async ({ receipt, target, before, edited, renamed }) => {
      const next: ReceiptRow = { ...receipt };
      const changed: string[] = [];
      for (const [field, value] of Object.entries(fields) as [
        keyof typeof fields,
        string | number | null,
      ][]) {
        if (value === undefined || receipt[field] === value) continue;
        (next as unknown as Record<string, unknown>)[field] = value;
        changed.push(field);
      }
      if (target) {
        if (target.isNew) await repos.merchants.saveMerchant(target.merchant);
        next.merchant_id = target.merchant.merchant_id;
        next.merchant_name = target.merchant.name;
        delete next.merchant_from_corrections;
        changed.push('merchant_name');
      }
      if (edited) changed.push('items');
      const currencyChanged = changed.includes('currency_code');
      const items = (edited ?? before).map((i) =>
        currencyChanged || !before.some((b) => b.item_id === i.item_id)
          ? { ...i, currency_code: next.currency_code }
          : i,
      );
      next.item_count = items.length;
      next.edited = withEdited(receipt, changed);
      Object.assign(next, await reviewAfterEdit(deps, next, items));
      await flagPossibleDuplicate(repos, next, { review: false });
      // The receipt row first, by its etag: a stale edit changes nothing. A reader between the
      // writes finds the item count ahead of the listing and reads the partition itself.
      const etag = await writeReceipt(repos, next, receipt.etag);
      await recordVisit(repos, uid, next, receipt);

      if (edited || currencyChanged) await repos.receipts.replaceItems(receipt.receipt_id, items);
      if (currencyChanged) {
        const taxes = await repos.receipts.listTaxesOfReceipt(receipt.receipt_id);
        await repos.receipts.replaceTaxes(
          receipt.receipt_id,
          taxes.map((t) => ({ ...t, currency_code: next.currency_code })),
        );
      }
      for (const item of edited ?? []) {
        if (!item.brand) continue;
        await repos.dictionaries.saveBrand(item.brand, item.owning_corporation);
        if (item.owning_corporation) await repos.dictionaries.saveCorporation(item.owning_corporation);
      }
      if (next.merchant_id !== receipt.merchant_id)
        await removeMerchantIfUnused(repos, uid, receipt.merchant_id);
      // A misread merchant renamed on its only receipt, and the items corrected, are remembered.
      if (target && renamed) await learnMerchantName(deps, uid, receipt.merchant_name, target.merchant.name);
      if (edited) await learnItemCorrections(deps, repos, next, before, edited, target?.merchant);
      deps.logger.info('receipt edited', { userId: uid, receiptId: receipt.receipt_id, fields: changed });
      return {
        answer: { receiptId: receipt.receipt_id, etag },
        written: writtenItems(receipt.file_name, items),
      };
    },
  });
}

/**
 * The user's merchant called `name` (compared as normalised names), or a new one to write (with the
 * address of `template`, when given: the misread merchant it replaces); it is removed again with its
 * last receipt like any other.
 */
export async function merchantForName(
  repos: Repositories,
  userId: string,
  name: string,
  template?: MerchantRow | null,
): Promise<{ merchant: MerchantRow; isNew: boolean }> {
  const nameKey = normaliseName(name);
  const merchants = await repos.merchants.listMerchants(userId);
  const known = merchants.find((m) => m.name_key === nameKey);
  if (known) return { merchant: known, isNew: false };
  const merchant: MerchantRow = {
    merchant_id: merchantIdFor(name, template?.postal_code ?? null),
    name,
    phone_number: template?.phone_number ?? null,
    postal_code: template?.postal_code ?? null,
    city: template?.city ?? null,
    street_address: template?.street_address ?? null,
    user_id: userId,
    owning_corporation: template?.owning_corporation ?? null,
    vectors: null,
    name_key: nameKey,
    edited: true,
  };
  return { merchant, isNew: true };
}

/** "Mark reviewed": the receipt leaves the review queue, whatever its checks say. */
const reviewed: Pick<ReceiptRow, 'needs_review' | 'review_reasons'> = {
  needs_review: false,
  review_reasons: [],
};

/** The person checked the receipt: it leaves the review queue (POST /api/markReviewed). */
export async function markReviewed(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput,
): Promise<ReceiptEditAnswer> {
  return editReceipt(deps, identity, input, async (repos, receipt) => {
    const etag = await writeReceipt(repos, { ...receipt, ...reviewed }, receipt.etag);
    return { answer: { receiptId: receipt.receipt_id, etag } };
  });
}

/**
 * The person says the receipt is not the one it looked like a duplicate of ("Keep both", POST
 * /api/keepBothReceipts): the warning goes, and neither is taken for a duplicate of the other again.
 */
export async function keepBothReceipts(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput,
): Promise<ReceiptEditAnswer> {
  return editReceipt(deps, identity, input, async (repos, receipt) => {
    const other = receipt.possible_duplicate_of;
    if (!other) return { answer: { receiptId: receipt.receipt_id, etag: receipt.etag } };
    const reasons = (receipt.review_reasons ?? []).filter((r) => r !== 'possible_duplicate');
    const etag = await writeReceipt(
      repos,
      {
        ...receipt,
        possible_duplicate_of: null,
        not_duplicate_of: [...new Set([...(receipt.not_duplicate_of ?? []), other])],
        review_reasons: reasons,
        needs_review: needsReview(reasons),
      },
      receipt.etag,
    );
    deps.logger.info('possible duplicate kept', { userId: identity.uid, receiptId: receipt.receipt_id });
    return { answer: { receiptId: receipt.receipt_id, etag } };
  });
}
