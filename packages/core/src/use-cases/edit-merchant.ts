import { STALE_MERCHANT_MESSAGE, type MerchantEditAnswer, type UpdateMerchantBody } from '../contract/edits';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Identity } from '../ports';
import { normaliseName } from '../repository/keys';
import { repositories, type Repositories } from '../repository/repositories';
import type { MerchantRow, ReceiptRow } from '../repository/rows';
import { assertOwnUserId } from './context';
import { assertStorableText, commitWrite } from './commit-write';
import type { EditDeps } from './receipt-edits';
import { retryOnConflict } from '../retry';
import { learnMerchantName } from './correction-rules';

const stale = (cause?: unknown) =>
  new ConflictError(STALE_MERCHANT_MESSAGE, { code: 'StaleEdit', ...(cause ? { cause } : {}) });

async function loadMerchant(
  repos: Repositories,
  userId: string,
  merchantId: string,
  etag: string,
): Promise<MerchantRow & { etag: string }> {
  const merchant = await repos.merchants.getMerchant(userId, merchantId);
  if (!merchant || !merchant.etag) {
    throw new NotFoundError('There is no such merchant among yours; reload to see your merchants.', {
      code: 'MerchantNotFound',
    });
  }
  if (merchant.etag !== etag) throw stale();
  return merchant as MerchantRow & { etag: string };
}

async function writeMerchant(repos: Repositories, merchant: MerchantRow, etag: string): Promise<string> {
  try {
    return await repos.merchants.updateMerchant(merchant, etag);
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) throw stale(error);
    throw error;
  }
}

/**
 * Renames a merchant and edits its address (POST /api/updateMerchant). Its receipts show the new
 * name; analysing one of them again keeps it at this merchant.
 */
export async function updateMerchant(
  deps: EditDeps,
  identity: Identity,
  input: UpdateMerchantBody,
): Promise<MerchantEditAnswer> {
  assertOwnUserId(identity, input.userId);
  assertStorableText({ ...input.changes });
  const repos = repositories(deps.store);
  return commitWrite(deps, identity.uid, {
    prepare: async () => {
      const merchant = await loadMerchant(repos, identity.uid, input.merchantId, input.etag);
      // A name or address: the totals hold neither, so no receipt's totals change.
      return { files: [], merchants: [merchant.merchant_id], merchant };
    },
    apply: async ({ merchant }) => {
      const next: MerchantRow = { ...merchant, ...input.changes, edited: true };
      next.name_key = normaliseName(next.name);
      const etag = await writeMerchant(repos, next, merchant.etag);
      if (next.name_key !== merchant.name_key)
        await learnMerchantName(deps, identity.uid, merchant.name, next.name);
      deps.logger.info('merchant edited', { userId: identity.uid, merchantId: merchant.merchant_id });
      return { answer: { merchantId: merchant.merchant_id, etag } };
    },
  });
}

/**
 * Merges two merchants that are the same shop (POST /api/mergeMerchants): every receipt of
 * `duplicateId` moves to `merchantId`, which takes the duplicate's address fields it lacks, and the
 * duplicate is deleted, its id kept on the merchant it went into (`merged_ids`), so that a link to
 * it opens the merged merchant. Both etags must be current. Both merchants are claimed (written by
 * their etags) before any receipt moves, so of two merges of the same pair at once (either way
 * round) at most one goes on; receipts move next and the duplicate goes last, so an interrupted
 * merge can be repeated.
 */
export async function mergeMerchants(
  deps: EditDeps,
  identity: Identity,
  input: { userId: string; merchantId: string; etag: string; duplicateId: string; duplicateEtag: string },
): Promise<MerchantEditAnswer> {
  assertOwnUserId(identity, input.userId);
  if (input.merchantId === input.duplicateId) {
    throw new ValidationError('A merchant cannot be merged with itself; pick another merchant.', {
      code: 'SameMerchant',
    });
  }
  const uid = identity.uid;
  const repos = repositories(deps.store);
  return commitWrite(deps, uid, {
    prepare: async () => {
      const [kept, duplicate] = await Promise.all([
        loadMerchant(repos, uid, input.merchantId, input.etag),
        loadMerchant(repos, uid, input.duplicateId, input.duplicateEtag),
      ]);
      const receipts = await repos.receipts.listReceiptsOfMerchant(uid, duplicate.merchant_id);
      return {
        files: receipts.map((r) => r.file_name),
        merchants: [kept.merchant_id, duplicate.merchant_id],
        kept,
        duplicate,
      };
    },
    apply: async ({ kept, duplicate }) => {
      const fill = <K extends keyof MerchantRow>(key: K) => kept[key] ?? duplicate[key] ?? null;
      const merged: MerchantRow = {
        ...kept,
        phone_number: fill('phone_number'),
        postal_code: fill('postal_code'),
        city: fill('city'),
        street_address: fill('street_address'),
        owning_corporation: fill('owning_corporation'),
        edited: true,
        // The duplicate's id (and every id merged into it) now leads here: old links follow the merge.
        merged_ids: [
          ...new Set([...(kept.merged_ids ?? []), ...(duplicate.merged_ids ?? []), duplicate.merchant_id]),
        ],
      };
      const duplicateEtag = await writeMerchant(repos, duplicate, duplicate.etag);
      const etag = await writeMerchant(repos, merged, kept.etag);
      // Listed again once both are claimed: a scan may have added a receipt to the duplicate since.
      const receipts = await repos.receipts.listReceiptsOfMerchant(uid, duplicate.merchant_id);
      for (const listed of receipts) await moveOne(repos, listed, duplicate.merchant_id, kept);
      try {
        await repos.merchants.deleteMerchant(uid, duplicate.merchant_id, duplicateEtag);
      } catch (error) {
        if (error instanceof ConflictError) throw stale(error);
        throw error;
      }
      await learnMerchantName(deps, uid, duplicate.name, kept.name);
      deps.logger.info('merchants merged', {
        userId: uid,
        merchantId: kept.merchant_id,
        duplicateId: duplicate.merchant_id,
        receipts: receipts.length,
      });
      return { answer: { merchantId: kept.merchant_id, etag }, files: receipts.map((r) => r.file_name) };
    },
  });
}

/** Moves one receipt by its etag, reading it again when a person's edit of it came in between. */
async function moveOne(
  repos: Repositories,
  listed: ReceiptRow,
  fromMerchantId: string,
  to: MerchantRow,
): Promise<void> {
  await retryOnConflict(
    async (n) => {
      const receipt = n === 0 ? listed : await repos.receipts.getReceipt(listed.user_id, listed.receipt_id);
      if (!receipt || receipt.merchant_id !== fromMerchantId) return;
      const edited = [...new Set([...(receipt.edited ?? []), 'merchant'])];
      await repos.receipts.updateReceipt(
        { ...receipt, merchant_id: to.merchant_id, merchant_name: to.name, edited },
        receipt.etag ?? '*',
      );
    },
    { retryOn: (error) => error instanceof ConflictError },
  );
}
