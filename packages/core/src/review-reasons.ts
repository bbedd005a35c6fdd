// The review reasons are the words of the review contract: the analysis carries them and the web
// shows them. Kept apart from review.ts, which assesses an analysis, so analysis.ts can name them
// without importing review.ts back.

/**
 * Why a receipt needs a person to check what was read. The analysis carries these; the receipt row
 * keeps them, assessed again after every edit from the receipt as it then stands, until the person
 * marks the receipt reviewed.
 */
export type ReviewReason =
  /**
   * An independent figure of the receipt contradicts its total (the tender minus the change, the
   * subtotal), or items read with confidence do not add up to it.
   */
  | 'total_check_fails'
  /** No total amount was found. */
  | 'no_total'
  /** No transaction date was found. */
  | 'no_date'
  /**
   * Informational: the receipt prints no date, so it took the day it was uploaded (the person's own
   * day). It does not by itself make the receipt need review (see {@link INFORMATIONAL_REASONS}).
   */
  | 'date_from_upload'
  /** The transaction date lies after the day the receipt was analysed. */
  | 'future_date'
  /** The transaction date lies decades back: more likely a misread year than an old receipt. */
  | 'old_date'
  /** Little agreed with the total or the date: read from one unsure figure, or hard to read. */
  | 'low_confidence'
  /** Another receipt of the user has the same merchant, date and total: maybe a second scan of it. */
  | 'possible_duplicate';

export const REVIEW_REASONS: readonly ReviewReason[] = [
  'total_check_fails',
  'no_total',
  'no_date',
  'date_from_upload',
  'future_date',
  'old_date',
  'low_confidence',
  'possible_duplicate',
];

/** Words for a person, per reason (the review list and the Receipt page show them). */
export const REVIEW_REASON_TEXT: Record<ReviewReason, string> = {
  total_check_fails: "The receipt's own figures don't agree with the total",
  no_total: 'No total was found',
  no_date: 'No date was found',
  date_from_upload: 'No date printed: the upload date is used',
  future_date: 'The date is in the future',
  old_date: 'The date is many years back',
  low_confidence: 'The total or the date rests on little evidence',
  possible_duplicate: 'It looks like another receipt you have (same shop, date and total)',
};

/**
 * Reasons that are notes for the person, not doubts: shown with the receipt, but a receipt whose
 * reasons are only these does not need review.
 */
export const INFORMATIONAL_REASONS: ReadonlySet<ReviewReason> = new Set(['date_from_upload']);

/** Whether these reasons make a receipt need review: any of them is more than a note. */
export function needsReview(reasons: readonly ReviewReason[]): boolean {
  return reasons.some((r) => !INFORMATIONAL_REASONS.has(r));
}

/** The paths of fields that a figure of their own receipt contradicts, as the analyzer found them. */
export type ContradictedField = 'receipt.total_amount' | 'receipt.transaction_date';
