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

/** Rounds to cents, avoiding binary float residue in sums shown to people. */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
