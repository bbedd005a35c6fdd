import type { ItemFields, ReceiptEditAnswer } from '../contract/edits';
import { NotFoundError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { itemIdFor, receiptIdOfItem } from '../repository/keys';
import type { ItemRow, ReceiptRow } from '../repository/rows';
import { assertStorableText } from './commit-write';
import { learnItemCorrections } from './correction-rules';
import {
  brandOwner,
  editReceipt,
  nextItemIndex,
  reviewAfterEdit,
  withEdited,
  writeReceipt,
  writtenItems,
  type EditDeps,
  type ReceiptEditInput,
} from './receipt-edits';

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
  return editReceipt(deps, identity, input, async (repos, receipt) => {
    const brand = brandOwner(deps.brandCatalog, input.item.brand, receipt.country_region);
    const items = await repos.receipts.listItemsOfReceipt(receipt.receipt_id);
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
    const etag = await writeReceipt(repos, next, receipt.etag);
    await repos.receipts.saveItem(item);
    if (brand.name) {
      await repos.dictionaries.saveBrand(brand.name, brand.owner);
      if (brand.owner) await repos.dictionaries.saveCorporation(brand.owner);
    }
    if (existing) await learnItemCorrections(deps, repos, receipt, [existing], [item]);
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
  return editReceipt(deps, identity, input, async (repos, receipt) => {
    const items = await repos.receipts.listItemsOfReceipt(receipt.receipt_id);
    if (!items.some((i) => i.item_id === input.itemId)) {
      throw new NotFoundError('This item does not exist any more; reload to see the receipt.', {
        code: 'ItemNotFound',
      });
    }
    const after = items.filter((i) => i.item_id !== input.itemId);
    const next = await withItemsEdited(deps, receipt, after);
    const etag = await writeReceipt(repos, next, receipt.etag);
    await repos.receipts.deleteItem(receipt.receipt_id, input.itemId);
    deps.logger.info('item deleted', { userId: identity.uid, itemId: input.itemId });
    return {
      answer: { receiptId: receipt.receipt_id, etag },
      written: writtenItems(receipt.file_name, after),
    };
  });
}
