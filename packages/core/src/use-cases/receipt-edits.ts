import { STALE_EDIT_MESSAGE, type BrandOption, type SaveReceiptBody } from '../contract/edits';
import { totalChecksOut, type AnalysisResult } from '../analysis';
import { brandOwnerIn } from '../enrich';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { analysisKey, itemIdFor, normaliseName, parseReceiptId } from '../repository/keys';
import { repositories, type Repositories } from '../repository/repositories';
import type { ItemRow, ReceiptRow } from '../repository/rows';
import type { WrittenItems } from '../reports/totals-update';
import { assertOwnUserId, nowOf, type AppDeps } from './context';
import { commitWrite, type Applied } from './commit-write';
import { reviewAsItStands } from './analysis-rows';

/*
 * What every edit of a receipt shares (not a use case itself): the receipt loaded and checked by
 * its etag, written back by it, the edit run through the commit step, the review assessed again
 * after it, and the items a form's save leaves.
 */

/** What the edit use cases need: the request ports, and the brand dataset for item brands. */
export type EditDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'now'> & {
  /** The brand dataset (name and owner) the item form offers; owners of typed brands come from it. */
  brandCatalog?: readonly BrandOption[];
};

export interface ReceiptEditInput {
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
  repos: Repositories,
  identity: Identity,
  input: ReceiptEditInput,
): Promise<ReceiptRow & { etag: string }> {
  const parsed = ownReceiptId(identity, input);
  const [receipt, queued] = await Promise.all([
    repos.receipts.getReceipt(identity.uid, input.receiptId),
    repos.scans.getQueueEntry(identity.uid, parsed.fileName),
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
export async function writeReceipt(repos: Repositories, receipt: ReceiptRow, etag: string): Promise<string> {
  try {
    return await repos.receipts.updateReceipt(receipt, etag);
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
export function editReceipt<T>(
  deps: EditDeps,
  identity: Identity,
  input: ReceiptEditInput,
  apply: (repos: Repositories, receipt: ReceiptRow & { etag: string }) => Promise<Applied<T>>,
): Promise<T> {
  const repos = repositories(deps.store);
  return commitWrite(deps, identity.uid, {
    prepare: async () => {
      const receipt = await loadReceiptForEdit(repos, identity, input);
      return { files: [receipt.file_name], receipt };
    },
    apply: ({ receipt }) => apply(repos, receipt),
  });
}

/** The fields a person has edited on the receipt, with `fields`. */
export const withEdited = (receipt: ReceiptRow, fields: string[]): string[] => [
  ...new Set([...(receipt.edited ?? []), ...fields]),
];

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
export async function reviewAfterEdit(
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
      analysis?.receipt.adjustments,
    ),
  };
}

/** The fields of an item a person can set, for telling whether a save changed it. */
export const ITEM_FIELDS = ['description', 'quantity', 'unit_price', 'total_price', 'brand'] as const;

/**
 * The receipt's items after a whole-receipt save: the listed ones in the listed order (existing
 * ones keep what a person cannot edit), new ones numbered after the last. Null when nothing changed.
 * @throws NotFoundError when an item id is not (any more) one of the receipt's
 */
export function itemsAfterSave(
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
    const brand = brandOwner(deps.brandCatalog, item.brand, receipt.country_region);
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
 * The owner of a brand of the dataset (compared as normalised names) on a receipt of `country`, or
 * null for a new name.
 */
export function brandOwner(
  catalog: readonly BrandOption[] | undefined,
  brand: string | null,
  country: string | null,
): { name: string | null; owner: string | null } {
  if (!brand) return { name: null, owner: null };
  const key = normaliseName(brand);
  const known = catalog?.find((b) => normaliseName(b.name) === key);
  return known ? { name: known.name, owner: brandOwnerIn(known, country) } : { name: brand, owner: null };
}

/** The 0-based line index after the receipt's last item. */
export function nextItemIndex(items: ItemRow[]): number {
  let last = 0;
  for (const item of items) {
    const n = Number(item.item_id.slice(item.item_id.lastIndexOf('~') + 1));
    if (Number.isInteger(n) && n > last) last = n;
  }
  return last;
}

/**
 * The caller's own receipt id, parsed: 400 when it is not a receipt id of this app, 403 when it is
 * another user's.
 */
export function ownReceiptId(
  identity: Identity,
  input: { userId: string; receiptId: string },
): { userId: string; fileName: string } {
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
  return parsed;
}
