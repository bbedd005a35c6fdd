import type { ContradictedField, ReviewReason } from './review-reasons';

/**
 * What an Analyzer returns for one receipt image: one receipt, one merchant, items and taxes with the
 * spec's field names, plus per-field confidence and the analyzer's raw output kept whole.
 */
export interface AnalyzedReceipt {
  doc_type: string | null;
  receipt_type: string | null;
  country_region: string | null;
  /** The amount paid (not a subtotal, tax line or change given). */
  total_amount: number | null;
  subtotal: number | null;
  currency_code: string | null;
  total_tax: number | null;
  /** `YYYY-MM-DD` */
  transaction_date: string | null;
  /** `HH:MM:SS` */
  transaction_time: string | null;
  /** True when item totals match the total (less tax where the receipt adds it) or the subtotal within 0.01. */
  total_checks_out: boolean;
  /**
   * What the receipt prints between its items (with their tax) and the amount paid: a cash rounding,
   * a service charge, a discount or coupon on the bill or under an item. Absent: none read (analyses
   * stored before it existed, analyzers that do not read them).
   */
  adjustments?: ReceiptAdjustment[];
}

/** One amount that moves the items' sum to the amount paid (see {@link AnalyzedReceipt.adjustments}). */
export interface ReceiptAdjustment {
  kind: 'rounding' | 'charge' | 'discount';
  /** Signed as it moves the amount paid: a discount is negative, a rounding either. */
  amount: number;
}

export interface AnalyzedMerchant {
  name: string | null;
  phone_number: string | null;
  postal_code: string | null;
  city: string | null;
  street_address: string | null;
  owning_corporation?: string | null;
  /** The name came from one of the person's corrections (a merchant renamed or merged before). */
  from_corrections?: boolean;
}

export interface AnalyzedItem {
  description: string;
  quantity: number | null;
  unit_price: number | null;
  total_price: number | null;
  product_type?: string | null;
  product_identifier?: string | null;
  brand?: string | null;
  owning_corporation?: string | null;
  /** True when the brand was read weakly and a person should check it (see BrandMatch.unsure). */
  brand_unsure?: boolean;
  /** The brand or description came from one of the person's corrections (see corrections.ts). */
  from_corrections?: boolean;
}

export interface AnalyzedTax {
  description: string;
  rate: number | null;
  amount: number | null;
}

export interface AnalysisResult {
  analyzer: 'ocr' | 'textract' | string;
  receipt: AnalyzedReceipt;
  merchant: AnalyzedMerchant;
  items: AnalyzedItem[];
  taxes: AnalyzedTax[];
  /** Confidence 0..1 per field path where the source gives one, e.g. `receipt.total_amount`. */
  confidence: Record<string, number>;
  /** The analyzer's own output, whole, for the JSON viewer. */
  raw: unknown;
  /**
   * Whether a person should check this reading, and why (see `assessReview` in ./review). Set by the
   * scan pipeline after enrichment; absent on analyses stored before it existed.
   */
  needs_review?: boolean;
  review_reasons?: ReviewReason[];
  /**
   * Fields that another figure of the same receipt contradicts (the total beside a tender minus the
   * change, or a subtotal, that disagree with it), as the analyzer found them. Absent: none.
   */
  contradicted?: ContradictedField[];
  /**
   * Whether the receipt prints a date at all, read or not. `false`: the analyzer saw no date on it
   * (no date field, no date-like text), so the day it was uploaded may stand in (see
   * `uploadDateFor` in ./review). Absent: not known, and a missing date is flagged `no_date`.
   */
  prints_date?: boolean;
}

/**
 * Whether the line totals add up: to the total, to the total less the tax (where the receipt adds
 * it), or to the printed subtotal (which the total's own evidence relates to the total), within 0.01.
 * The receipt's adjustments (its cash rounding, service charges and discounts, as printed) are the
 * difference between the items and the total: the items with all of them, and with or without the
 * tax, may make the total too. False when there is no total or no priced item.
 */
export function totalChecksOut(
  total: number | null,
  items: Pick<AnalyzedItem, 'total_price'>[],
  tax: number | null,
  subtotal: number | null = null,
  adjustments: readonly ReceiptAdjustment[] = [],
): boolean {
  if (total === null) return false;
  const priced = items.filter((i) => typeof i.total_price === 'number');
  if (priced.length === 0) return false;
  const sum = priced.reduce((s, i) => s + (i.total_price as number), 0);
  const near = (x: number, y = total) => Math.abs(x - y) <= 0.01 + 1e-9;
  const adjusted = sum + adjustments.reduce((s, a) => s + a.amount, 0);
  const sums = adjustments.length > 0 ? [sum, adjusted] : [sum];
  return (
    sums.some((s) => near(s) || (tax !== null && near(s + tax))) || (subtotal !== null && near(sum, subtotal))
  );
}

/**
 * Fills in what quantity × unit price = line amount determines: the unit price when only the quantity
 * and the amount are printed (when it comes out in whole cents), the amount from the quantity and the
 * unit price, and a whole quantity from the unit price and the amount.
 */
export function completeLinePrices(line: {
  quantity: number | null;
  unitPrice: number | null;
  total: number | null;
}): { quantity: number | null; unitPrice: number | null; total: number | null } {
  let { quantity, unitPrice, total } = line;
  if (total === null && quantity !== null && unitPrice !== null) total = roundMoney(quantity * unitPrice);
  if (unitPrice === null && quantity !== null && quantity > 0 && total !== null) {
    const unit = total / quantity;
    if (Math.abs(unit * 100 - Math.round(unit * 100)) < 1e-6) unitPrice = roundMoney(unit);
  }
  if (quantity === null && unitPrice !== null && unitPrice > 0 && total !== null && total > 0) {
    const q = total / unitPrice;
    if (Math.abs(q - Math.round(q)) < 1e-9 && Math.round(q) >= 1) quantity = Math.round(q);
  }
  return { quantity, unitPrice, total };
}

/**
 * Adds what the receipt's own items say to the per-field confidence (0..1): items that add up mark
 * the item list (`items`) 0.95 sure; items that do not add up mark it unsure (at most 0.4). The
 * total's confidence is what its evidence gave it (the analyzers weigh the items' sum among the other
 * figures). A total or date found without any confidence starts at 0.7. Fields not found get no entry. Returns a new map; the result is
 * not changed.
 */
export function checkedConfidence(
  result: Pick<AnalysisResult, 'receipt' | 'items' | 'confidence'>,
): Record<string, number> {
  const confidence = { ...result.confidence };
  const { receipt } = result;
  const priced = result.items.some((i) => typeof i.total_price === 'number');
  if (receipt.total_amount !== null) {
    confidence['receipt.total_amount'] = confidence['receipt.total_amount'] ?? 0.7;
  }
  if (priced) confidence['items'] = receipt.total_checks_out ? 0.95 : Math.min(confidence['items'] ?? 1, 0.4);
  if (receipt.transaction_date !== null)
    confidence['receipt.transaction_date'] = confidence['receipt.transaction_date'] ?? 0.7;
  return confidence;
}

/** Rounds to cents, avoiding binary float residue in sums shown to people. */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
