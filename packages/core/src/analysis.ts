import type { ReviewReason } from './review';

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
  /** True when item totals (plus tax where the receipt adds it) match the total within 0.01. */
  total_checks_out: boolean;
}

export interface AnalyzedMerchant {
  name: string | null;
  phone_number: string | null;
  postal_code: string | null;
  city: string | null;
  street_address: string | null;
  owning_corporation?: string | null;
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
}

/**
 * Whether the line totals (plus tax where the receipt adds it) match the total within 0.01.
 * False when there is no total or no priced item.
 */
export function totalChecksOut(
  total: number | null,
  items: Pick<AnalyzedItem, 'total_price'>[],
  tax: number | null,
): boolean {
  if (total === null) return false;
  const priced = items.filter((i) => typeof i.total_price === 'number');
  if (priced.length === 0) return false;
  const sum = priced.reduce((s, i) => s + (i.total_price as number), 0);
  const near = (x: number) => Math.abs(x - total) <= 0.01 + 1e-9;
  return near(sum) || (tax !== null && near(sum + tax));
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
 * Adds what the receipt's own arithmetic says to the engine's per-field confidence (0..1): a total
 * that the items (plus tax) add up to is at least 0.95 sure; one they contradict is at most 0.6; a
 * total or date found without any engine confidence starts at 0.7. Fields not found get no entry.
 * Returns a new map; the result is not changed.
 */
export function checkedConfidence(
  result: Pick<AnalysisResult, 'receipt' | 'items' | 'confidence'>,
): Record<string, number> {
  const confidence = { ...result.confidence };
  const { receipt } = result;
  if (receipt.total_amount !== null) {
    const base = confidence['receipt.total_amount'] ?? 0.7;
    const priced = result.items.some((i) => typeof i.total_price === 'number');
    confidence['receipt.total_amount'] = receipt.total_checks_out
      ? Math.max(base, 0.95)
      : priced
        ? Math.min(base, 0.6)
        : base;
  }
  if (receipt.transaction_date !== null)
    confidence['receipt.transaction_date'] = confidence['receipt.transaction_date'] ?? 0.7;
  return confidence;
}

/** Rounds to cents, avoiding binary float residue in sums shown to people. */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
