import type { Repositories } from '../repository/repositories';
import { sha256Hex } from '../repository/keys';
import type { ReceiptRow } from '../repository/rows';
import { needsReview, type ReviewReason } from '../review';

/**
 * Receipts that may be one receipt scanned twice: the same merchant, day, total and currency, and
 * the same time where both have one. The user's visit rows (see VISIT_PREFIX) list the receipts of
 * each (merchant, day, total, currency), so a check costs one point read plus one per candidate,
 * whatever the user's history.
 */

type VisitFields = Pick<
  ReceiptRow,
  'merchant_id' | 'transaction_date' | 'total_amount' | 'currency_code' | 'transaction_time'
>;

/** The visit key of a receipt, or null when it lacks a merchant, date or total (nothing to compare). */
export async function visitKeyOf(receipt: VisitFields): Promise<string | null> {
  if (!receipt.merchant_id || !receipt.transaction_date || receipt.total_amount === null) return null;
  const parts = [
    receipt.merchant_id,
    receipt.transaction_date,
    receipt.total_amount.toFixed(2),
    (receipt.currency_code ?? '').toUpperCase(),
  ];
  return sha256Hex(new TextEncoder().encode(parts.join('\n')));
}

/** Times agree when either is missing, or both read the same hour and minute. */
const sameTime = (a: string | null, b: string | null): boolean => !a || !b || a.slice(0, 5) === b.slice(0, 5);

/** Whether two receipts look like the same visit. */
export function sameVisit(a: VisitFields, b: VisitFields): boolean {
  return (
    a.merchant_id === b.merchant_id &&
    a.transaction_date === b.transaction_date &&
    a.total_amount !== null &&
    a.total_amount === b.total_amount &&
    (a.currency_code ?? '').toUpperCase() === (b.currency_code ?? '').toUpperCase() &&
    sameTime(a.transaction_time, b.transaction_time)
  );
}

/**
 * The user's earliest other receipt this one may duplicate, or null. Receipts the person kept beside
 * this one ("Keep both", either way round) do not count.
 */
export async function findPossibleDuplicate(
  repos: Repositories,
  receipt: ReceiptRow,
): Promise<string | null> {
  const key = await visitKeyOf(receipt);
  if (!key) return null;
  const kept = new Set(receipt.not_duplicate_of ?? []);
  const ids = (await repos.receipts.visitReceipts(receipt.user_id, key)).filter(
    (id) => id !== receipt.receipt_id && !kept.has(id),
  );
  // The rows say what the receipts are now: a listed receipt may have been edited or deleted since.
  const others = await Promise.all(ids.map((id) => repos.receipts.getReceipt(receipt.user_id, id)));
  const matches = others.filter(
    (other): other is ReceiptRow =>
      other !== null &&
      sameVisit(other, receipt) &&
      !(other.not_duplicate_of ?? []).includes(receipt.receipt_id),
  );
  matches.sort(
    (a, b) => a.analyzed_at.localeCompare(b.analyzed_at) || a.receipt_id.localeCompare(b.receipt_id),
  );
  return matches[0]?.receipt_id ?? null;
}

/**
 * Sets the receipt's `possible_duplicate_of`; after an analysis (`review`), the 'possible_duplicate'
 * review reason with it, so the receipt waits in the review list. An edit is a review already: it
 * sets the warning only. Call before writing the row.
 */
export async function flagPossibleDuplicate(
  repos: Repositories,
  receipt: ReceiptRow,
  { review }: { review: boolean },
): Promise<void> {
  const other = await findPossibleDuplicate(repos, receipt);
  receipt.possible_duplicate_of = other;
  const reasons: ReviewReason[] = (receipt.review_reasons ?? []).filter((r) => r !== 'possible_duplicate');
  if (other && review) reasons.push('possible_duplicate');
  receipt.review_reasons = reasons;
  receipt.needs_review = needsReview(reasons);
}

/**
 * Keeps the visit rows in step with a receipt row just written (`previous`: the row it replaced, if
 * any) or deleted (`receipt` null).
 */
export async function recordVisit(
  repos: Repositories,
  userId: string,
  receipt: ReceiptRow | null,
  previous: ReceiptRow | null,
): Promise<void> {
  const [key, oldKey] = await Promise.all([
    receipt ? visitKeyOf(receipt) : null,
    previous ? visitKeyOf(previous) : null,
  ]);
  if (oldKey && previous && oldKey !== key)
    await repos.receipts.removeFromVisit(userId, oldKey, previous.receipt_id);
  if (key && receipt) await repos.receipts.addToVisit(userId, key, receipt.receipt_id);
}
