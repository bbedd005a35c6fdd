import type { AnalysisResult } from './analysis';

/**
 * Why a receipt needs a person to check what was read. The analysis carries these; the receipt row
 * keeps them until the person marks the receipt reviewed or saves an edit.
 */
export type ReviewReason =
  /** The items (plus tax where the receipt adds it) do not add up to the total. */
  | 'total_check_fails'
  /** No total amount was found. */
  | 'no_total'
  /** No transaction date was found. */
  | 'no_date'
  /** The transaction date lies after the day the receipt was analysed. */
  | 'future_date'
  /** The analyzer was unsure of the total, the date or the merchant. */
  | 'low_confidence'
  /** Another receipt of the user has the same merchant, date and total: maybe a second scan of it. */
  | 'possible_duplicate';

export const REVIEW_REASONS: readonly ReviewReason[] = [
  'total_check_fails',
  'no_total',
  'no_date',
  'future_date',
  'low_confidence',
  'possible_duplicate',
];

/** Words for a person, per reason (the review list and the Receipt page show them). */
export const REVIEW_REASON_TEXT: Record<ReviewReason, string> = {
  total_check_fails: "The items don't add up to the total",
  no_total: 'No total was found',
  no_date: 'No date was found',
  future_date: 'The date is in the future',
  low_confidence: 'Parts of the receipt were hard to read',
  possible_duplicate: 'It looks like another receipt you have (same shop, date and total)',
};

/** The fields whose confidence decides 'low_confidence'. */
export const KEY_FIELDS = ['receipt.total_amount', 'receipt.transaction_date', 'merchant.name'] as const;

/** Below this confidence (0..1) a key field makes the receipt 'low_confidence'. */
export const LOW_CONFIDENCE = 0.5;

export interface ReviewAssessment {
  needs_review: boolean;
  review_reasons: ReviewReason[];
}

/**
 * Decides whether a person should check an analysis, and why.
 *
 * @param result - the analysis (its receipt fields and per-field `confidence`)
 * @param today - the day of analysis, `YYYY-MM-DD`; a transaction date after it is 'future_date'
 */
export function assessReview(
  result: Pick<AnalysisResult, 'receipt' | 'items' | 'confidence'>,
  today: string,
): ReviewAssessment {
  const reasons: ReviewReason[] = [];
  const { receipt } = result;
  if (receipt.total_amount === null) reasons.push('no_total');
  else if (!receipt.total_checks_out && result.items.some((i) => typeof i.total_price === 'number'))
    reasons.push('total_check_fails');
  if (receipt.transaction_date === null) reasons.push('no_date');
  else if (receipt.transaction_date > today) reasons.push('future_date');
  if (
    KEY_FIELDS.some((f) => typeof result.confidence[f] === 'number' && result.confidence[f] < LOW_CONFIDENCE)
  )
    reasons.push('low_confidence');
  return { needs_review: reasons.length > 0, review_reasons: reasons };
}
