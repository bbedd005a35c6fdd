import {
  STALE_EDIT_MESSAGE,
  type BrandOption,
  type ItemFields,
  type ReceiptChanges,
  type ReceiptEditAnswer,
  type SaveReceiptBody,
} from '../api-edits';
import { totalChecksOut, type AnalysisResult } from '../analysis';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import {
  analysisKey,
  itemIdFor,
  merchantIdFor,
  normaliseName,
  parseReceiptId,
  receiptIdOfItem,
} from '../repository/keys';
import { ReceiptRepository } from '../repository/receipt-repository';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';
import type { WrittenItems } from '../reports/totals-update';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { assertStorableText, commitWrite, type Applied } from './commit-write';
import { removeMerchantIfUnused } from './remove-merchant';
import { flagPossibleDuplicate, recordVisit } from './possible-duplicates';
import { reviewAsItStands } from './analysis-rows';
import { learnItemCorrections, learnMerchantName } from './correction-rules';

/** What the edit use cases need: the request ports, and the brand dataset for item brands. */
export type EditDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'> & {
  /** The brand dataset (name and owner) the item form offers; owners of typed brands come from it. */
  brandCatalog?: readonly BrandOption[];
};

interface ReceiptEditInput {
  userId: string;
  receiptId: string;
  etag: string;
}

const stale = (cause?: unknown) =>
  new ConflictError(STALE_EDIT_MESSAGE, { code: 'StaleEdit', ...(cause ? { cause } : {}) });

/**
 * The caller's receipt as read now, checked: it is theirs (403), it exists (404), it is not being
 * analysed (409) and the edit was made on its current values (409 with STALE_EDIT_MESSAGE).
 */
export async function loadReceiptForEdit(
  repo: ReceiptRepository,
  identity: Identity,
  input: ReceiptEditInput,
): Promise<ReceiptRow & { etag: string }> {
  assertOwnUserId(identity, input.userId);
  const parsed = parseReceiptId(input.receiptId);
  if (!parsed) {
    throw new ValidationError('receiptId is not the id of a receipt of this app.', {
      code: 'InvalidReceiptId',
    });
  }
  if (parsed.userId !== identity.uid) {
    throw new ForbiddenError('This receipt belongs to another user.', { code: 'WrongUser' });
  }
  const [receipt, queued] = await Promise.all([
    repo.getReceipt(identity.uid, input.receiptId),
    repo.getQueueEntry(identity.uid, parsed.fileName),
  ]);
  if (!receipt || !receipt.etag) {
    throw new NotFoundError('This receipt does not exist any more; it may have been deleted.', {
      code: 'ReceiptNotFound',
    });
  }
  if (queued && queued.entry.status !== 'Failed') {
    throw new ConflictError('This receipt is being analysed again; edit it when the analysis has finished.', {
      code: 'BeingAnalysed',
    });
  }
  if (receipt.etag !== input.etag) throw stale();
  return receipt as ReceiptRow & { etag: string };
}

/** Writes the receipt row if it is still as read; a lost race is the same 409 as a stale edit. */
async function writeReceipt(repo: ReceiptRepository, receipt: ReceiptRow, etag: string): Promise<string> {
  try {
    return await repo.updateReceipt(receipt, etag);
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) throw stale(error);
    throw error;
  }
}

/** The item keys of a receipt as an edit left them: the report totals read them by key. */
export const writtenItems = (fileName: string, items: readonly ItemRow[]): WrittenItems =>
  new Map([[fileName, items.map((i) => i.item_id)]]);

/**
 * One edit of one receipt through the commit step (see commit-write.ts): the receipt is loaded and
 * checked before anything is written, and the reports take the edit whatever happens after.
 */
function editReceipt<T>(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput,
  apply: (repo: ReceiptRepository, receipt: ReceiptRow & { etag: string }) => Promise<Applied<T>>,
): Promise<T> {
  const repo = new ReceiptRepository(deps.store);
  return commitWrite(deps, identity.uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repo, identity, input);
      return { files: [receipt.file_name], receipt };
    },
    apply: ({ receipt }) => apply(repo, receipt),
  });
}

const withEdited = (receipt: ReceiptRow, fields: string[]): string[] => [
  ...new Set([...(receipt.edited ?? []), ...fields]),
];

/** "Mark reviewed": the receipt leaves the review queue, whatever its checks say. */
const reviewed: Pick<ReceiptRow, 'needs_review' | 'review_reasons'> = {
  needs_review: false,
  review_reasons: [],
};

/** The stored analysis of a receipt, or null when there is none (or it cannot be read). */
async function storedAnalysis(deps: EditDeps, receipt: ReceiptRow): Promise<AnalysisResult | null> {
  const stored = await deps.blobs.get(analysisKey(receipt.user_id, receipt.file_name));
  if (!stored) return null;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(stored.bytes)) as { result?: AnalysisResult };
    return parsed.result?.receipt ? parsed.result : null;
  } catch {
    return null;
  }
}

/**
 * After an edit the review reasons are assessed again from the receipt as it now stands, with the
 * analysis's evidence for the values a person did not set (see `reviewAsItStands`): a correction
 * that leaves items read surely not adding up keeps the receipt in review. Only "Mark reviewed"
 * clears the reasons regardless.
 */
async function reviewAfterEdit(
  deps: EditDeps,
  receipt: ReceiptRow,
  items: ReadonlyArray<Pick<ItemRow, 'total_price'>>,
): Promise<Pick<ReceiptRow, 'needs_review' | 'review_reasons' | 'total_checks_out'>> {
  const analysis = await storedAnalysis(deps, receipt);
  const assessment = reviewAsItStands(receipt, items, analysis, nowOf(deps).toISOString().slice(0, 10));
  return {
    ...assessment,
    total_checks_out: totalChecksOut(
      receipt.total_amount,
      [...items],
      receipt.total_tax,
      analysis?.receipt.subtotal ?? null,
    ),
  };
}

/** The receipt row after an edit of its items: their count, 'items' marked edited, review assessed again. */
async function withItemsEdited(
  deps: EditDeps,
  receipt: ReceiptRow,
  items: readonly ItemRow[],
): Promise<ReceiptRow> {
  const edited: ReceiptRow = { ...receipt, item_count: items.length, edited: withEdited(receipt, ['items']) };
  return { ...edited, ...(await reviewAfterEdit(deps, edited, items)) };
}

/**
 * The user's merchant called `name` (compared as normalised names), or a new one to write (with the
 * address of `template`, when given: the misread merchant it replaces); it is removed again with its
 * last receipt like any other.
 */
export async function merchantForName(
  repo: ReceiptRepository,
  userId: string,
  name: string,
  template?: MerchantRow | null,
): Promise<{ merchant: MerchantRow; isNew: boolean }> {
  const nameKey = normaliseName(name);
  const merchants = await repo.listMerchants(userId);
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

/** The fields of an item a person can set, for telling whether a save changed it. */
const ITEM_FIELDS = ['description', 'quantity', 'unit_price', 'total_price', 'brand'] as const;

/**
 * The receipt's items after a whole-receipt save: the listed ones in the listed order (existing
 * ones keep what a person cannot edit), new ones numbered after the last. Null when nothing changed.
 * @throws NotFoundError when an item id is not (any more) one of the receipt's
 */
function itemsAfterSave(
  deps: EditDeps,
  receipt: ReceiptRow,
  before: ItemRow[],
  listed: NonNullable<SaveReceiptBody['items']>,
): ItemRow[] | null {
  const byId = new Map(before.map((i) => [i.item_id, i]));
  let nextIndex = nextItemIndex(before);
  const after = listed.map(({ itemId, item }): ItemRow => {
    const existing = itemId ? byId.get(itemId) : undefined;
    if (itemId && !existing) {
      throw new NotFoundError('An item of this receipt does not exist any more; reload to see the receipt.', {
        code: 'ItemNotFound',
      });
    }
    const brand = brandOwner(deps.brandCatalog, item.brand);
    const unchangedBrand = existing && existing.brand === item.brand;
    return {
      item_id: existing?.item_id ?? itemIdFor(receipt.receipt_id, nextIndex++),
      receipt_id: receipt.receipt_id,
      description: item.description,
      quantity: item.quantity,
      unit_price: item.unit_price,
      total_price: item.total_price,
      currency_code: existing?.currency_code ?? receipt.currency_code,
      user_id: receipt.user_id,
      // A brand left as it was keeps the owner it had (the analysis may know one the dataset lacks).
      brand: unchangedBrand ? existing.brand : brand.name,
      owning_corporation: unchangedBrand ? existing.owning_corporation : brand.owner,
      product_type: existing?.product_type ?? null,
      product_identifier: existing?.product_identifier ?? null,
      vectors: existing?.vectors ?? null,
      // Still what the person's corrections filled in, unless they changed it now.
      ...(existing?.from_corrections && ITEM_FIELDS.every((f) => existing[f] === item[f])
        ? { from_corrections: true }
        : {}),
    };
  });
  const same =
    after.length === before.length &&
    after.every((item, i) => {
      const was = before[i]!;
      return was.item_id === item.item_id && ITEM_FIELDS.every((f) => was[f] === item[f]);
    });
  return same ? null : after;
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
  const repo = new ReceiptRepository(deps.store);
  const uid = identity.uid;
  const { merchant_name: merchantName, ...fields } = input.changes;
  return commitWrite(deps, uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repo, identity, input);
      let target: { merchant: MerchantRow; isNew: boolean } | null = null;
      let alone = false;
      if (
        merchantName !== undefined &&
        normaliseName(merchantName) !== normaliseName(receipt.merchant_name)
      ) {
        // The only receipt of a misread merchant: the new one takes over its address.
        alone = !(await repo.merchantHasReceipts(uid, receipt.merchant_id, receipt.receipt_id));
        const template = alone ? await repo.getMerchant(uid, receipt.merchant_id) : null;
        target = await merchantForName(repo, uid, merchantName, template);
      }
      const before = await repo.listItemsOfReceipt(receipt.receipt_id);
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
        if (target.isNew) await repo.saveMerchant(target.merchant);
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
      await flagPossibleDuplicate(repo, next, { review: false });
      // The receipt row first, by its etag: a stale edit changes nothing. A reader between the
      // writes finds the item count ahead of the listing and reads the partition itself.
      const etag = await writeReceipt(repo, next, receipt.etag);
      await recordVisit(repo, uid, next, receipt);

      if (edited || currencyChanged) await repo.replaceItems(receipt.receipt_id, items);
      if (currencyChanged) {
        const taxes = await repo.listTaxesOfReceipt(receipt.receipt_id);
        await repo.replaceTaxes(
          receipt.receipt_id,
          taxes.map((t) => ({ ...t, currency_code: next.currency_code })),
        );
      }
      for (const item of edited ?? []) {
        if (!item.brand) continue;
        await repo.saveBrand(item.brand, item.owning_corporation);
        if (item.owning_corporation) await repo.saveCorporation(item.owning_corporation);
      }
      if (next.merchant_id !== receipt.merchant_id)
        await removeMerchantIfUnused(repo, uid, receipt.merchant_id);
      // A misread merchant renamed on its only receipt, and the items corrected, are remembered.
      if (target && renamed) await learnMerchantName(deps, uid, receipt.merchant_name, target.merchant.name);
      if (edited) await learnItemCorrections(deps, repo, next, before, edited, target?.merchant);
      deps.logger.info('receipt edited', { userId: uid, receiptId: receipt.receipt_id, fields: changed });
      return {
        answer: { receiptId: receipt.receipt_id, etag },
        written: writtenItems(receipt.file_name, items),
      };
    },
  });
}

/** The owner of a brand of the dataset (compared as normalised names), or null for a new name. */
export function brandOwner(
  catalog: readonly BrandOption[] | undefined,
  brand: string | null,
): { name: string | null; owner: string | null } {
  if (!brand) return { name: null, owner: null };
  const key = normaliseName(brand);
  const known = catalog?.find((b) => normaliseName(b.name) === key);
  return known ? { name: known.name, owner: known.owning_corporation } : { name: brand, owner: null };
}

/** The 0-based line index after the receipt's last item. */
function nextItemIndex(items: ItemRow[]): number {
  let last = 0;
  for (const item of items) {
    const n = Number(item.item_id.slice(item.item_id.lastIndexOf('~') + 1));
    if (Number.isInteger(n) && n > last) last = n;
  }
  return last;
}

/**
 * Changes one item of a receipt, or adds one (POST /api/saveItem). A brand of the dataset brings
 * its owning corporation; a new name has none. The receipt's item count and total check follow.
 */
export async function saveItem(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { itemId?: string | undefined; item: ItemFields },
): Promise<ReceiptEditAnswer & { itemId: string }> {
  if (input.itemId !== undefined && receiptIdOfItem(input.itemId) !== input.receiptId) {
    throw new ValidationError('itemId is not an item of this receipt.', { code: 'ItemNotOfReceipt' });
  }
  assertStorableText({ ...input.item });
  const brand = brandOwner(deps.brandCatalog, input.item.brand);
  return editReceipt(deps, identity, input, async (repo, receipt) => {
    const items = await repo.listItemsOfReceipt(receipt.receipt_id);
    const existing = input.itemId ? items.find((i) => i.item_id === input.itemId) : undefined;
    if (input.itemId && !existing) {
      throw new NotFoundError('This item does not exist any more; reload to see the receipt.', {
        code: 'ItemNotFound',
      });
    }
    const item: ItemRow = {
      item_id: existing?.item_id ?? itemIdFor(receipt.receipt_id, nextItemIndex(items)),
      receipt_id: receipt.receipt_id,
      description: input.item.description,
      quantity: input.item.quantity,
      unit_price: input.item.unit_price,
      total_price: input.item.total_price,
      currency_code: receipt.currency_code,
      user_id: identity.uid,
      brand: brand.name,
      owning_corporation: brand.owner,
      product_type: existing?.product_type ?? null,
      product_identifier: existing?.product_identifier ?? null,
      vectors: existing?.vectors ?? null,
    };
    const after = existing ? items.map((i) => (i.item_id === item.item_id ? item : i)) : [...items, item];
    const next = await withItemsEdited(deps, receipt, after);
    // The receipt row first, by its etag: a stale edit changes nothing. A reader between the two
    // writes finds the item count ahead of the listing and reads the partition itself.
    const etag = await writeReceipt(repo, next, receipt.etag);
    await repo.saveItem(item);
    if (brand.name) {
      await repo.saveBrand(brand.name, brand.owner);
      if (brand.owner) await repo.saveCorporation(brand.owner);
    }
    if (existing) await learnItemCorrections(deps, repo, receipt, [existing], [item]);
    deps.logger.info(existing ? 'item edited' : 'item added', { userId: identity.uid, itemId: item.item_id });
    return {
      answer: { receiptId: receipt.receipt_id, etag, itemId: item.item_id },
      written: writtenItems(receipt.file_name, after),
    };
  });
}

/** Deletes one item of a receipt (DELETE /api/deleteItem). */
export async function deleteItem(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { itemId: string },
): Promise<ReceiptEditAnswer> {
  if (receiptIdOfItem(input.itemId) !== input.receiptId) {
    throw new ValidationError('itemId is not an item of this receipt.', { code: 'ItemNotOfReceipt' });
  }
  return editReceipt(deps, identity, input, async (repo, receipt) => {
    const items = await repo.listItemsOfReceipt(receipt.receipt_id);
    if (!items.some((i) => i.item_id === input.itemId)) {
      throw new NotFoundError('This item does not exist any more; reload to see the receipt.', {
        code: 'ItemNotFound',
      });
    }
    const after = items.filter((i) => i.item_id !== input.itemId);
    const next = await withItemsEdited(deps, receipt, after);
    const etag = await writeReceipt(repo, next, receipt.etag);
    await repo.deleteItem(receipt.receipt_id, input.itemId);
    deps.logger.info('item deleted', { userId: identity.uid, itemId: input.itemId });
    return {
      answer: { receiptId: receipt.receipt_id, etag },
      written: writtenItems(receipt.file_name, after),
    };
  });
}

/** The person checked the receipt: it leaves the review queue (POST /api/markReviewed). */
export async function markReviewed(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput,
): Promise<ReceiptEditAnswer> {
  return editReceipt(deps, identity, input, async (repo, receipt) => {
    const etag = await writeReceipt(repo, { ...receipt, ...reviewed }, receipt.etag);
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
  return editReceipt(deps, identity, input, async (repo, receipt) => {
    const other = receipt.possible_duplicate_of;
    if (!other) return { answer: { receiptId: receipt.receipt_id, etag: receipt.etag } };
    const reasons = (receipt.review_reasons ?? []).filter((r) => r !== 'possible_duplicate');
    const etag = await writeReceipt(
      repo,
      {
        ...receipt,
        possible_duplicate_of: null,
        not_duplicate_of: [...new Set([...(receipt.not_duplicate_of ?? []), other])],
        review_reasons: reasons,
        needs_review: reasons.length > 0,
      },
      receipt.etag,
    );
    deps.logger.info('possible duplicate kept', { userId: identity.uid, receiptId: receipt.receipt_id });
    return { answer: { receiptId: receipt.receipt_id, etag } };
  });
}

/** The receipt is from another of the user's merchants (POST /api/moveReceipt). */
export async function moveReceipt(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput & { merchantId: string },
): Promise<ReceiptEditAnswer> {
  const repo = new ReceiptRepository(deps.store);
  return commitWrite(deps, identity.uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repo, identity, input);
      const merchant = await repo.getMerchant(identity.uid, input.merchantId);
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
      const items = await repo.listItemsOfReceipt(receipt.receipt_id);
      Object.assign(moved, await reviewAfterEdit(deps, moved, items));
      await flagPossibleDuplicate(repo, moved, { review: false });
      const etag = await writeReceipt(repo, moved, receipt.etag);
      await recordVisit(repo, identity.uid, moved, receipt);
      await removeMerchantIfUnused(repo, identity.uid, receipt.merchant_id);
      deps.logger.info('receipt moved', { userId: identity.uid, receiptId: receipt.receipt_id });
      return { answer: { receiptId: receipt.receipt_id, etag } };
    },
  });
}
