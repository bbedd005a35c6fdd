import { totalChecksOut, type AnalysisResult } from './analysis';

export * from './review-reasons';
import { needsReview, type ReviewReason } from './review-reasons';

/**
 * The fields whose confidence decides 'low_confidence': the total and the date, which reports add up
 * and sort by. Their confidence says how much of the receipt's evidence agreed with them.
 */
export const KEY_FIELDS = ['receipt.total_amount', 'receipt.transaction_date'] as const;

/** Below this confidence (0..1) a key field makes the receipt 'low_confidence'. */
export const LOW_CONFIDENCE = 0.5;

/**
 * A total at least this sure (0..1) has an independent figure of its summary block agreeing with it
 * (the tender minus the change, the subtotal plus tax, a repeated printing): items that do not add up
 * to it are the misreading, not the total.
 */
export const CONFIRMED = 0.9;

/** Items whose amounts were all read at least this surely (0..1) are trusted to check the total. */
export const ITEMS_READ_SURELY = 0.85;

/** A date this many years before the day of analysis, or more, is doubtful. */
export const OLD_DATE_YEARS = 15;

export interface ReviewAssessment {
  needs_review: boolean;
  review_reasons: ReviewReason[];
}

/**
 * Whether the items' amounts were read with confidence: each priced item's amount that carries a
 * confidence has at least {@link ITEMS_READ_SURELY}, and no item prints a quantity and a unit price
 * that make another amount than the one read (`2 * 2.50` beside `5.03`: the line was misread, so the
 * list's sum is no evidence against the total). Items without a confidence (typed by a person)
 * count as sure.
 */
export function itemsReadSurely(result: Pick<AnalysisResult, 'items' | 'confidence'>): boolean {
  return result.items.every(
    (item, index) =>
      typeof item.total_price !== 'number' ||
      ((result.confidence[`items.${index}.total_price`] ?? 1) >= ITEMS_READ_SURELY && !lineDisagrees(item)),
  );
}

const cents = (n: number) => Math.round(n * 100);

/** Whether an item's printed quantity times its unit price is another amount than its own. */
function lineDisagrees(item: AnalysisResult['items'][number]): boolean {
  const { quantity, unit_price: unit, total_price: amount } = item;
  if (typeof quantity !== 'number' || typeof unit !== 'number' || typeof amount !== 'number') return false;
  return Math.abs(cents(quantity * unit) - cents(amount)) > 1;
}

/**
 * Whether the items add up once one item that repeats a summary figure is left out: the total or the
 * subtotal read as one more item (`Total Amount: $8.20` among the goods) doubles the sum. The items
 * then agree with the total; the list holds a summary line.
 */
function addsUpWithoutSummaryLine(result: Pick<AnalysisResult, 'receipt' | 'items'>): boolean {
  const { receipt } = result;
  const figures = [receipt.total_amount, receipt.subtotal].filter((v): v is number => v !== null);
  return result.items.some(
    (item, index) =>
      typeof item.total_price === 'number' &&
      figures.some((f) => cents(f) === cents(item.total_price!)) &&
      totalChecksOut(
        receipt.total_amount,
        result.items.filter((_, i) => i !== index),
        receipt.total_tax,
        receipt.subtotal,
        receipt.adjustments,
      ),
  );
}

/**
 * Decides whether a person should check an analysis, and why: a key field (total, date) is missing,
 * an independent figure contradicts the total (`contradicted`, or items read with confidence that
 * do not add up to a total nothing else confirms), the date is in the future or decades back, or
 * the evidence for the total or the date is thin (confidence below {@link LOW_CONFIDENCE}). Items
 * that do not add up but were read unsurely (a doubtful amount, or a quantity and unit price that
 * make another amount), that add up once a line repeating the total is left out, or that stand
 * beside a total that other figures confirm ({@link CONFIRMED}), flag nothing: they are the likelier
 * misreading, and are marked unsure. A receipt without a date is flagged `no_date`; where the
 * receipt row is made, one that prints no date at all takes its upload day instead
 * ({@link uploadDateFor}).
 *
 * @param result - the analysis (its receipt fields, items, per-field `confidence`, `contradicted`)
 * @param today - the day of analysis, `YYYY-MM-DD`
 */
export function assessReview(
  result: Pick<AnalysisResult, 'receipt' | 'items' | 'confidence'> & {
    contradicted?: readonly string[] | undefined;
  },
  today: string,
): ReviewAssessment {
  const reasons: ReviewReason[] = [];
  const { receipt } = result;
  const contradicted = result.contradicted ?? [];
  const priced = result.items.some((i) => typeof i.total_price === 'number');
  if (receipt.total_amount === null) reasons.push('no_total');
  else if (
    contradicted.includes('receipt.total_amount') ||
    (priced &&
      !receipt.total_checks_out &&
      itemsReadSurely(result) &&
      !addsUpWithoutSummaryLine(result) &&
      (result.confidence['receipt.total_amount'] ?? 0) < CONFIRMED)
  )
    reasons.push('total_check_fails');
  const date = receipt.transaction_date;
  if (date === null) reasons.push('no_date');
  else if (date > today) reasons.push('future_date');
  else if (Number(date.slice(0, 4)) <= Number(today.slice(0, 4)) - OLD_DATE_YEARS) reasons.push('old_date');
  if (
    contradicted.includes('receipt.transaction_date') ||
    KEY_FIELDS.some((f) => typeof result.confidence[f] === 'number' && result.confidence[f] < LOW_CONFIDENCE)
  )
    reasons.push('low_confidence');
  return { needs_review: needsReview(reasons), review_reasons: reasons };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The date of a receipt that prints none: the day it was uploaded, in the person's own day. Applies
 * only when the analysis read no date and its analyzer saw no date printed at all
 * (`prints_date: false`): a date printed but unreadable stays missing and flagged `no_date`, and a
 * contradicted date keeps its flag. The `no_date` reason becomes the informational
 * `date_from_upload`, so the receipt needs review only for its other reasons: a person who uploads at
 * the till gets the right day, one who uploads later sees the note and can set the day.
 *
 * @param analysis - the analysis: its date, and whether its receipt prints one
 * @param assessment - the analysis's review assessment (`assessReview`)
 * @param uploadDay - the person's day of the upload, `YYYY-MM-DD` (null when unknown)
 * @returns the date and the assessment to keep, or null when the receipt keeps its own
 */
export function uploadDateFor(
  analysis: { receipt: Pick<AnalysisResult['receipt'], 'transaction_date'>; prints_date?: boolean },
  assessment: ReviewAssessment,
  uploadDay: string | null,
): { transaction_date: string; assessment: ReviewAssessment } | null {
  if (analysis.receipt.transaction_date !== null || analysis.prints_date !== false) return null;
  if (uploadDay === null || !DAY.test(uploadDay)) return null;
  const reasons = assessment.review_reasons.map((r): ReviewReason =>
    r === 'no_date' ? 'date_from_upload' : r,
  );
  if (!reasons.includes('date_from_upload')) reasons.push('date_from_upload');
  return {
    transaction_date: uploadDay,
    assessment: { needs_review: needsReview(reasons), review_reasons: reasons },
  };
}
