import { totalChecksOut, type AnalyzedMerchant, type AnalyzedReceipt } from '@receipts/core';
import type { ParsedReceipt } from './parse-receipt';
import type { Rendering } from './preprocess';
import { editDistance } from './combine-engines';

/** One OCR reading of a receipt image and what the parser made of it. */
export interface Reading {
  rendering: Rendering;
  pageSegMode: string;
  steps: string[];
  text: string;
  lines: Array<{ text: string; confidence: number }>;
  /** Tesseract's mean confidence for the page, 0..100. */
  confidence: number;
  ms: number;
  parsed: ParsedReceipt;
}

/** One way of reading an image: which rendering, and how Tesseract segments the page. */
export interface ReadingPlan {
  rendering: Rendering;
  /** Tesseract page segmentation: `6` one uniform block of text, `3` automatic layout analysis. */
  pageSegMode: '3' | '6';
}

/**
 * The readings made of each receipt. The first two always run (side by side when there are two
 * workers): the image as it is and its contrast-stretched greyscale, both read as one block of
 * text. The third runs only when those two disagree on the merchant, the date or the total, and
 * breaks the tie: the image again, with Tesseract's automatic layout analysis, which splits columns
 * and logos differently. Measured on the SROIE receipts (README.md), this reads one more date right
 * than the first reading alone, at about 2.3 readings per receipt.
 */
export const READING_PLAN: readonly ReadingPlan[] = [
  { rendering: 'original', pageSegMode: '6' },
  { rendering: 'contrast', pageSegMode: '6' },
  { rendering: 'original', pageSegMode: '3' },
];

/** Fields on which readings must agree before no further reading is needed. */
const KEY_FIELDS = ['merchant.name', 'receipt.transaction_date', 'receipt.total_amount'] as const;

function valueAt(parsed: ParsedReceipt, field: string): unknown {
  const [group, key] = field.split('.') as ['merchant' | 'receipt', string];
  return (parsed[group] as unknown as Record<string, unknown>)[key];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toUpperCase() === b.toUpperCase();
  return a === b;
}

/** Whether every reading found the same merchant name, date and total. */
export function readingsAgree(readings: Reading[]): boolean {
  const [first, ...rest] = readings;
  if (!first) return false;
  return KEY_FIELDS.every((field) =>
    rest.every((r) => sameValue(valueAt(r.parsed, field), valueAt(first.parsed, field))),
  );
}

interface Vote<T> {
  value: T;
  count: number;
  confidence: number;
  order: number;
}

/**
 * The value most readings agree on; between equally supported values, the one read with the higher
 * line confidence; then the earlier reading. Null only when no reading has a value. With `alike`, a
 * value also has the support of the readings whose values are alike (the same name with a letter
 * or two read differently), so two near readings outvote a third, different one.
 */
function elect<T>(
  readings: Reading[],
  pick: (p: ParsedReceipt) => T | null,
  field: string,
  alike?: (a: T, b: T) => boolean,
): T | null {
  const votes = new Map<string, Vote<T>>();
  readings.forEach((r, order) => {
    const value = pick(r.parsed);
    if (value === null || value === undefined) return;
    const key = JSON.stringify(typeof value === 'string' ? value.toUpperCase() : value);
    const confidence = r.parsed.confidence[field] ?? r.confidence / 100;
    const vote = votes.get(key);
    if (vote) {
      vote.count++;
      vote.confidence = Math.max(vote.confidence, confidence);
    } else {
      votes.set(key, { value, count: 1, confidence, order });
    }
  });
  const all = [...votes.values()];
  const support = (v: Vote<T>) =>
    alike ? all.reduce((n, w) => n + (w === v || alike(v.value, w.value) ? w.count : 0), 0) : v.count;
  let best: Vote<T> | null = null;
  let bestSupport = 0;
  for (const v of all) {
    const n = support(v);
    if (
      !best ||
      n > bestSupport ||
      (n === bestSupport && v.confidence > best.confidence + 1e-9) ||
      (n === bestSupport && Math.abs(v.confidence - best.confidence) <= 1e-9 && v.order < best.order)
    ) {
      best = v;
      bestSupport = n;
    }
  }
  return best ? best.value : null;
}

/** Names that differ by a few misread letters: at most a quarter of the longer, letters and digits only. */
function similarNames(a: string, b: string): boolean {
  const key = (name: string) => name.toUpperCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const x = key(a);
  const y = key(b);
  return x.length > 0 && y.length > 0 && editDistance(x, y) <= Math.max(x.length, y.length) / 4;
}

/**
 * Combines several readings of one receipt field by field (see {@link elect}). Items and taxes come
 * whole from one reading, with its adjustments: the one whose total was elected and whose items add
 * up to it, if any.
 */
export function mergeReadings(readings: Reading[]): ParsedReceipt {
  if (readings.length === 0) throw new Error('mergeReadings needs at least one reading');
  if (readings.length === 1) return readings[0]!.parsed;

  const receiptKeys = Object.keys(readings[0]!.parsed.receipt) as Array<keyof AnalyzedReceipt>;
  const merchantKeys = Object.keys(readings[0]!.parsed.merchant) as Array<keyof AnalyzedMerchant>;
  const receipt = { ...readings[0]!.parsed.receipt } as Record<string, unknown>;
  for (const key of receiptKeys) {
    // The adjustments go with the items they move to the total (below).
    if (key === 'total_checks_out' || key === 'adjustments') continue;
    receipt[key] = elect(readings, (p) => p.receipt[key] as unknown, `receipt.${key}`);
  }
  const merchant = { ...readings[0]!.parsed.merchant } as Record<string, unknown>;
  for (const key of merchantKeys) {
    merchant[key] = elect(
      readings,
      (p) => p.merchant[key] as unknown,
      `merchant.${key}`,
      key === 'name'
        ? (a, b) => typeof a === 'string' && typeof b === 'string' && similarNames(a, b)
        : undefined,
    );
  }

  const total = receipt.total_amount as number | null;
  const agreeing = readings.filter((r) => r.parsed.receipt.total_amount === total);
  const source =
    agreeing.find((r) => r.parsed.receipt.total_checks_out) ??
    agreeing.find((r) => r.parsed.items.length > 0) ??
    agreeing[0] ??
    readings[0]!;
  const { items, taxes } = source.parsed;
  const confidence: Record<string, number> = {};
  for (const [field, c] of Object.entries(source.parsed.confidence)) confidence[field] = c;
  for (const r of readings) {
    for (const [field, c] of Object.entries(r.parsed.confidence)) {
      if (field.startsWith('items.') || field.startsWith('taxes.')) continue;
      const [group, key] = field.split('.') as ['merchant' | 'receipt', string];
      const elected = (group === 'merchant' ? merchant : receipt)[key];
      if (elected !== null && sameValue(valueAt(r.parsed, field), elected)) {
        confidence[field] = Math.max(confidence[field] ?? 0, c);
      }
    }
  }
  const totalTax = receipt.total_tax as number | null;
  const { adjustments } = source.parsed.receipt;
  if (adjustments) receipt.adjustments = adjustments;
  else delete receipt.adjustments;
  receipt.total_checks_out = totalChecksOut(
    total,
    items,
    totalTax,
    receipt.subtotal as number | null,
    adjustments,
  );
  return {
    receipt: receipt as unknown as AnalyzedReceipt,
    merchant: merchant as unknown as AnalyzedMerchant,
    items,
    taxes,
    confidence,
    ...(source.parsed.contradicted ? { contradicted: source.parsed.contradicted } : {}),
  };
}
