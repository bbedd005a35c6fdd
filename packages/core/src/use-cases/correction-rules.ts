import type { AnalysisResult } from '../analysis';
import {
  MAX_CORRECTION_RULES,
  type DeleteCorrectionRuleAnswer,
  type DeleteCorrectionRuleQuery,
  type ListCorrectionRulesAnswer,
} from '../contract/corrections';
import { correctItems, correctMerchant, Corrections, correctionKey } from '../corrections';
import type { Identity, Logger } from '../ports';
import { CorrectionRuleStore, type LearntCorrection } from '../repository/correction-rules';
import { normaliseName, UNKNOWN_MERCHANT } from '../repository/keys';
import type { Repositories } from '../repository/repositories';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';
import type { TableStore } from '../table-store';
import { assertOwnUserId, nowOf } from './context';

/*
 * Learning from a person's corrections: the edit use cases record what a correction teaches, the
 * scan worker applies the person's rules to the receipts analysed after, and the person lists and
 * removes their rules (GET /api/listCorrectionRules, DELETE /api/deleteCorrectionRule).
 */

interface RuleDeps {
  store: TableStore;
  logger: Logger;
  now?: () => Date;
}

/** GET /api/listCorrectionRules: the caller's rules, most recently set first. */
export async function listCorrectionRules(
  deps: RuleDeps,
  identity: Identity,
  input: { userId: string },
): Promise<ListCorrectionRulesAnswer> {
  assertOwnUserId(identity, input.userId);
  const rules = await new CorrectionRuleStore(deps.store).list(identity.uid);
  return { rules, limit: MAX_CORRECTION_RULES };
}

/**
 * DELETE /api/deleteCorrectionRule: the rule no longer applies to receipts analysed from now on
 * (receipts it filled in keep their values).
 * @throws NotFoundError when the caller has no such rule
 */
export async function deleteCorrectionRule(
  deps: RuleDeps,
  identity: Identity,
  input: DeleteCorrectionRuleQuery,
): Promise<DeleteCorrectionRuleAnswer> {
  assertOwnUserId(identity, input.userId);
  await new CorrectionRuleStore(deps.store).remove(identity.uid, input.ruleId);
  deps.logger.info('correction rule removed', { userId: identity.uid, ruleId: input.ruleId });
  return { deleted: true };
}

/**
 * Records the rules a person's corrections make, after the edit's rows are written. A rule that
 * could not be stored is logged and the edit still succeeds: the correction itself is kept.
 */
export async function learnCorrections(
  deps: RuleDeps,
  userId: string,
  corrections: readonly LearntCorrection[],
): Promise<void> {
  if (corrections.length === 0) return;
  try {
    const rules = await new CorrectionRuleStore(deps.store).learn(userId, corrections, nowOf(deps));
    if (rules.length > 0) deps.logger.info('correction rules learnt', { userId, rules: rules.length });
  } catch (error) {
    deps.logger.warn('correction rule not stored', { userId, error: String(error) });
  }
}

/**
 * What changing items from `before` to `after` teaches: for each item that was there before and
 * whose brand or description the person changed, its text as read then (at the receipt's shop)
 * gets the new brand or description. New items teach nothing (there is no printed text to know
 * them by).
 * @param shop - the receipt's merchant after the edit
 */
export function itemCorrections(
  before: readonly ItemRow[],
  after: readonly ItemRow[],
  shop: Pick<MerchantRow, 'name' | 'owning_corporation'>,
): LearntCorrection[] {
  const was = new Map(before.map((item) => [item.item_id, item]));
  const learnt: LearntCorrection[] = [];
  for (const item of after) {
    const old = was.get(item.item_id);
    if (!old) continue;
    const brandChanged = correctionKey(old.brand) !== correctionKey(item.brand);
    const descriptionChanged = correctionKey(old.description) !== correctionKey(item.description);
    if (!brandChanged && !descriptionChanged) continue;
    learnt.push({
      kind: 'item',
      text: old.description,
      shop: shop.name,
      chain: shop.owning_corporation ?? null,
      ...(brandChanged ? { brand: { name: item.brand, owner: item.owning_corporation } } : {}),
      ...(descriptionChanged ? { description: item.description } : {}),
    });
  }
  return learnt;
}

/**
 * The scan worker's enrichment with the person's rules around it: merchant rules first (so the
 * brands are read in the context of the corrected shop), then `enrich`, then item rules (the
 * person's word counts over the dataset's). Without rules it is `enrich` alone.
 */
export async function enrichWithCorrections(
  store: TableStore,
  userId: string,
  result: AnalysisResult,
  enrich?: (result: AnalysisResult) => AnalysisResult | Promise<AnalysisResult>,
): Promise<AnalysisResult> {
  const corrections = new Corrections(await new CorrectionRuleStore(store).list(userId));
  let corrected = correctMerchant(result, corrections);
  if (enrich) corrected = await enrich(corrected);
  return correctItems(corrected, corrections);
}

/**
 * Learns from an edit of a receipt's items (see itemCorrections); the receipt's merchant is read
 * only when there is something to learn.
 * @param merchant - the receipt's merchant after the edit, when the caller has it
 */
export async function learnItemCorrections(
  deps: RuleDeps,
  repos: Repositories,
  receipt: Pick<ReceiptRow, 'user_id' | 'merchant_id' | 'merchant_name'>,
  before: readonly ItemRow[],
  after: readonly ItemRow[],
  merchant?: MerchantRow | null,
): Promise<void> {
  const probe = itemCorrections(before, after, { name: receipt.merchant_name, owning_corporation: null });
  if (probe.length === 0) return;
  const shop = merchant ?? (await repos.merchants.getMerchant(receipt.user_id, receipt.merchant_id));
  const learnt = itemCorrections(before, after, {
    name: shop?.name ?? receipt.merchant_name,
    owning_corporation: shop?.owning_corporation ?? null,
  });
  await learnCorrections(deps, receipt.user_id, learnt);
}

/** Learns that a merchant read as `from` is the person's merchant `to` (a rename or a merge). */
export async function learnMerchantName(
  deps: RuleDeps,
  userId: string,
  from: string,
  to: string,
): Promise<void> {
  if (normaliseName(from) === normaliseName(UNKNOWN_MERCHANT)) return;
  await learnCorrections(deps, userId, [{ kind: 'merchant', text: from, merchantName: to }]);
}

/**
 * Learns from a receipt moved to another of the person's merchants. When it was the last receipt of
 * the merchant it leaves, that merchant stood only for how this receipt's shop was read, and the move
 * is a merge of it into the chosen one: the spelling goes to the chosen merchant from now on, as a
 * merge teaches. A move that leaves receipts behind corrects this receipt only (the spelling still
 * names a shop of the person's) and teaches nothing.
 * @param from - the receipt as it was before the move (its merchant and that merchant's name)
 */
export async function learnMovedReceipt(
  deps: RuleDeps,
  repos: Repositories,
  userId: string,
  from: Pick<ReceiptRow, 'merchant_id' | 'merchant_name'>,
  to: Pick<MerchantRow, 'name'>,
): Promise<void> {
  if (correctionKey(from.merchant_name) === correctionKey(to.name)) return;
  if (await repos.receipts.merchantHasReceipts(userId, from.merchant_id)) return;
  await learnMerchantName(deps, userId, from.merchant_name, to.name);
}
