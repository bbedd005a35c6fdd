import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '@receipts/core';
import { normaliseText } from './normalise';

/** An item as the CORD ground truth writes it; null where the receipt does not print it. */
export interface EvalItem {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
  /**
   * The brand the item names: in our labels the brand's name or null (none named); on an item read,
   * what enrichment gave it. Absent where nobody said (CORD truth, an analysis not enriched).
   */
  brand?: string | null;
  /** On an item read: the brand was a weak match, for a person to check (`brand_unsure`). */
  brandUnsure?: boolean;
}

/**
 * Our own item labels (tools/eval/labels/SET/ID.json, see the README there): the items a receipt
 * prints, as printed. The local analyzer's items are scored against them with a looser match than
 * CORD's (OCR misreads letters; the amount must be exact).
 */

/** Share of the longer description's words that the other must have for two items to match. */
export const DESCRIPTION_OVERLAP = 0.5;

/** How the items read compare with a receipt's labels. */
export interface LabelScore {
  expected: number;
  got: number;
  matched: number;
  /** Matched items whose quantity and unit price are the labels' too (see {@link sameMeasure}). */
  measured: number;
  missed: EvalItem[];
  extra: EvalItem[];
  /** The brands of the items read against the labels' (see {@link scoreBrands}). */
  brands: BrandScore;
}

/**
 * How the brands of the items read compare with the labels': precision over the paired items read
 * with a brand, recall over the labelled items naming one, and the share of all items read with one.
 */
export interface BrandScore {
  /** Items read with a brand that are paired with a label (so that the brand can be checked). */
  given: number;
  /** Of those, the ones with the brand the label names. */
  right: number;
  /** Of those given, the ones marked unsure. */
  unsure: number;
  /** Labelled items naming a brand. */
  labelled: number;
  /** Of those, the ones paired with an item read with that brand. */
  found: number;
  /** All items read, and those with a brand (paired or not). */
  read: number;
  branded: number;
  /** Paired items whose brand read differs from the label's (a wrong brand, a missed one). */
  misses: Array<{ description: string; expected: string | null; got: string | null }>;
}

/** The labelled items of receipt `id`, or null when it has no label file. */
export async function readLabels(dir: string, id: string): Promise<EvalItem[] | null> {
  const file = path.join(dir, `${id}.json`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const raw = JSON.parse(text) as { items?: unknown };
  if (!Array.isArray(raw.items)) throw new ValidationError(`${file} has no "items" list.`);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return (raw.items as Array<Record<string, unknown>>).map((i) => ({
    description: typeof i['description'] === 'string' ? i['description'] : '',
    quantity: num(i['quantity']),
    unitPrice: num(i['unitPrice']),
    amount: num(i['amount']),
    ...(typeof i['brand'] === 'string' || i['brand'] === null ? { brand: i['brand'] } : {}),
  }));
}

/** Whether two words are the same, allowing one misread letter in words of four letters or more. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 4 || b.length < 4 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  return Math.max(a.length, b.length) - i - j <= 1;
}

/**
 * How much two descriptions share: the words of one found in the other (each used once, after
 * text normalisation), over the word count of the longer.
 */
export function descriptionOverlap(a: string, b: string): number {
  const wa = normaliseText(a).split(' ').filter(Boolean);
  const wb = normaliseText(b).split(' ').filter(Boolean);
  if (wa.length === 0 || wb.length === 0) return 0;
  const left = [...wb];
  let common = 0;
  for (const w of wa) {
    const at = left.findIndex((x) => sameWord(w, x));
    if (at >= 0) {
      common++;
      left.splice(at, 1);
    }
  }
  return common / Math.max(wa.length, wb.length);
}

/** An item read matches a labelled one when the descriptions overlap enough and the amounts are equal. */
export function labelMatches(label: EvalItem, got: EvalItem): boolean {
  return (
    label.amount !== null &&
    got.amount !== null &&
    Math.abs(label.amount - got.amount) < 0.005 &&
    descriptionOverlap(label.description, got.description) >= DESCRIPTION_OVERLAP
  );
}

/**
 * Two brand names are the same when their letters and digits are, accents aside (`Coca-Cola`,
 * `COCA COLA`; `Château`, `CHATEAU`).
 */
export function sameBrand(a: string | null | undefined, b: string | null | undefined): boolean {
  const key = (x: string | null | undefined) =>
    normaliseText((x ?? '').normalize('NFKD').replace(/\p{M}/gu, '')).replace(/ /g, '');
  return key(a) !== '' && key(a) === key(b);
}

/**
 * Scores the brands of items read against their labels, given the pairs `[label, item read]`: a brand
 * read counts (for precision) only where it is paired with a label, whose brand it must equal; a
 * labelled brand is found when its item was read and given that brand.
 */
export function scoreBrands(
  labels: readonly EvalItem[],
  got: readonly EvalItem[],
  pairs: ReadonlyArray<readonly [number, number]>,
): BrandScore {
  const score: BrandScore = {
    given: 0,
    right: 0,
    unsure: 0,
    labelled: labels.filter((l) => typeof l.brand === 'string').length,
    found: 0,
    read: got.length,
    branded: got.filter((g) => typeof g.brand === 'string' && g.brand !== '').length,
    misses: [],
  };
  for (const [l, g] of pairs) {
    const label = labels[l]!;
    const item = got[g]!;
    if (label.brand === undefined) continue;
    const read = typeof item.brand === 'string' && item.brand !== '' ? item.brand : null;
    const right = read !== null && sameBrand(label.brand, read);
    if (read !== null) {
      score.given++;
      if (item.brandUnsure) score.unsure++;
      if (right) score.right++;
    }
    if (label.brand !== null && right) score.found++;
    if (!right && (read !== null || label.brand !== null))
      score.misses.push({ description: item.description, expected: label.brand, got: read });
  }
  return score;
}

/**
 * Whether an item read has the label's quantity and unit price: a quantity not printed is one, and a
 * unit price not printed is the amount of that one.
 */
export function sameMeasure(label: EvalItem, read: EvalItem): boolean {
  const quantity = (i: EvalItem) => i.quantity ?? 1;
  const unit = (i: EvalItem) => i.unitPrice ?? (quantity(i) === 1 ? i.amount : null);
  const [a, b] = [unit(label), unit(read)];
  return (
    Math.abs(quantity(label) - quantity(read)) < 0.0005 &&
    (a === null || b === null ? a === b : Math.abs(a - b) < 0.0005)
  );
}

/** Pairs labelled and read items one to one, each label with the first unused read item matching it. */
export function scoreLabelledItems(labels: EvalItem[], got: EvalItem[]): LabelScore {
  const used = new Set<number>();
  const missed: EvalItem[] = [];
  const pairs: Array<[number, number]> = [];
  labels.forEach((label, l) => {
    const at = got.findIndex((g, i) => !used.has(i) && labelMatches(label, g));
    if (at < 0) missed.push(label);
    else {
      used.add(at);
      pairs.push([l, at]);
    }
  });
  return {
    expected: labels.length,
    got: got.length,
    matched: used.size,
    measured: pairs.filter(([l, g]) => sameMeasure(labels[l]!, got[g]!)).length,
    missed,
    extra: got.filter((_, i) => !used.has(i)),
    brands: scoreBrands(labels, got, pairs),
  };
}
