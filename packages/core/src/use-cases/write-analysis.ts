import type { AnalysisResult } from '../analysis';
import type { ScanJob } from '../ports';
import { analysisKey, receiptIdFor, sha256Hex } from '../repository/keys';
import { repositories } from '../repository/repositories';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';
import type { Tax } from '../entities';
import {
  dictionaryEntriesOf,
  itemRowsOf,
  keepsEditedItems,
  receiptCurrency,
  receiptRowOf,
  taxRowsOf,
} from './analysis-rows';
import { nowOf } from './context';
import type { WritePlan } from './commit-write';
import { matchMerchant } from './merchant-match';
import { flagPossibleDuplicate, recordVisit } from './possible-duplicates';
import { removeMerchantIfUnused } from '../repository/merchant-repository';
import type { ScanWorkerDeps } from './scan-worker';

/*
 * The scan worker's writes of an analysis, as the commit step's two halves (see commit-write.ts):
 * planAnalysis reads what the rows depend on and builds them, writeAnalysis writes them.
 */

/** The rows an analysis becomes, and the receipts, merchants and upload the write changes. */
export interface AnalysisPlan extends WritePlan {
  job: ScanJob;
  receipt: ReceiptRow;
  merchant: MerchantRow;
  previous: ReceiptRow | null;
  /** The receipt's items after the analysis: its own, or those a person edited (kept as they are). */
  items: ItemRow[];
  keepItems: boolean;
  taxes: Tax[];
  analysisJson: string;
}

/**
 * Reads the user's merchants and the receipt's earlier row, and builds the rows of the analysis
 * (from merchant-match.ts and analysis-rows.ts). Writes nothing.
 */
export async function planAnalysis(
  deps: ScanWorkerDeps,
  job: ScanJob,
  result: AnalysisResult,
  image: Uint8Array,
  uploadDay: string | null = null,
): Promise<AnalysisPlan> {
  const repos = repositories(deps.store);
  const { userId, fileName } = job;
  const receiptId = receiptIdFor(userId, fileName);
  const ids = { userId, receiptId };
  const [merchants, previous] = await Promise.all([
    repos.merchants.listMerchants(userId),
    repos.receipts.getReceipt(userId, receiptId),
  ]);
  const merchant: MerchantRow = matchMerchant({ userId, analysed: result.merchant, merchants, previous });
  const currency = receiptCurrency(result, previous);
  const keepItems = keepsEditedItems(previous);
  const items: ItemRow[] = keepItems
    ? await repos.receipts.listItemsOfReceipt(receiptId)
    : itemRowsOf(result, ids, currency);
  const analyzedAt = nowOf(deps).toISOString();
  const sha256 = await sha256Hex(image);
  const receipt = receiptRowOf({
    result,
    userId,
    fileName,
    receiptId,
    merchant,
    currency,
    items,
    analyzedAt,
    image: { bytes: image.length, sha256 },
    previous,
    now: nowOf(deps),
    uploadDay,
  });
  return {
    files: [fileName],
    // A merchant this scan creates, or leaves without receipts, goes if the write stops half-way.
    merchants: [merchant.merchant_id, ...(previous ? [previous.merchant_id] : [])],
    uploads: [{ f: fileName, h: sha256 }],
    job,
    receipt,
    merchant,
    previous,
    items,
    keepItems,
    taxes: taxRowsOf(result, ids, currency),
    analysisJson: JSON.stringify({ fileName, receiptId, analyzedAt, result }),
  };
}

/**
 * Writes an analysis: items and taxes, the merchant, the brand and corporation dictionaries, the
 * analysis JSON and last the receipt row. The order keeps the reports consistent at every step.
 */
export async function writeAnalysis(deps: ScanWorkerDeps, plan: AnalysisPlan): Promise<void> {
  const repos = repositories(deps.store);
  const { userId, fileName } = plan.job;
  const { receipt, merchant, previous } = plan;
  const receiptId = receipt.receipt_id;
  await Promise.all([
    plan.keepItems ? Promise.resolve() : repos.receipts.replaceItems(receiptId, plan.items),
    repos.receipts.replaceTaxes(receiptId, plan.taxes),
  ]);
  await repos.merchants.saveMerchant(merchant);

  const { brands, corporations } = dictionaryEntriesOf(plan.items, merchant);
  await Promise.all([
    ...[...brands].map(([name, owner]) => repos.dictionaries.saveBrand(name, owner)),
    ...[...corporations].map((name) => repos.dictionaries.saveCorporation(name)),
  ]);

  await deps.blobs.put(
    analysisKey(userId, fileName),
    new TextEncoder().encode(plan.analysisJson),
    'application/json',
  );
  await flagPossibleDuplicate(repos, receipt, { review: true });
  // Written last: its presence is what makes the receipt (and its items) part of the reports.
  await repos.receipts.saveReceipt(receipt);
  // Again after the receipt: a delete of the merchant's last other receipt that ran since the first
  // write removed the merchant, and either sees this receipt or is followed by this write.
  await repos.merchants.saveMerchant(merchant);
  // After the row: a scan that finds the receipt listed under its visit can read it.
  await recordVisit(repos, userId, receipt, previous);

  if (previous && previous.merchant_id !== merchant.merchant_id) {
    await removeMerchantIfUnused(repos, userId, previous.merchant_id, receiptId);
  }
}

/**
 * Takes back what writeAnalysis wrote, after the scan was deleted during the writes (the commit
 * step then updates the reports and removes a merchant left without receipts). A receipt row
 * written since by another delivery (a later analysed_at) is left alone.
 */
export async function takeBackAnalysis(deps: ScanWorkerDeps, receipt: ReceiptRow): Promise<void> {
  const repos = repositories(deps.store);
  const { user_id: userId, receipt_id: receiptId, file_name: fileName } = receipt;
  const stored = await repos.receipts.getReceipt(userId, receiptId);
  if (stored && stored.analyzed_at !== receipt.analyzed_at) return;
  await Promise.all([repos.receipts.replaceItems(receiptId, []), repos.receipts.replaceTaxes(receiptId, [])]);
  await deps.blobs.delete(analysisKey(userId, fileName)).catch(() => undefined);
  // The visit before the row: a visit never lists a receipt that is gone.
  await recordVisit(repos, userId, null, receipt);
  await repos.receipts.deleteReceipt(userId, receiptId);
}

/** Tells the user's devices the receipt is analysed; a lost notification changes nothing else. */
export async function notifyAnalysed(deps: ScanWorkerDeps, receipt: ReceiptRow): Promise<void> {
  if (!deps.notifier) return;
  const repos = repositories(deps.store);
  try {
    const tokens = await repos.users.pushTokensOf(receipt.user_id);
    if (tokens.length === 0) return;
    const total =
      receipt.total_amount === null
        ? ''
        : ` ${receipt.total_amount.toFixed(2)} ${receipt.currency_code ?? ''}`.trimEnd();
    const { invalidTokens } = await deps.notifier.send(tokens, {
      title: 'Receipt analysed',
      body: `${receipt.merchant_name}${total ? `:${total}` : ''}`,
      data: { receiptId: receipt.receipt_id, fileName: receipt.file_name },
    });
    await repos.users.removeFcmTokens(receipt.user_id, invalidTokens);
  } catch (error) {
    // The receipt is saved; a lost notification must not make the scan fail or repeat.
    deps.logger.warn('notification failed', { userId: receipt.user_id, error: String(error) });
  }
}
