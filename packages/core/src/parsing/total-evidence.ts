import { findAmounts } from './parse-amount';
import {
  isCashRounding,
  type Agreement,
  type Figure,
  type FigureKind,
  type TotalVerdict,
  type WeighOptions,
} from './total-figures';

/**
 * The total of a receipt chosen by evidence: every amount printed in its summary block is a figure,
 * and the total is the amount that the most independent figures agree with. Both analyzers read their
 * figures their own way (OCR lines, Textract fields) and weigh them here.
 */

export type { Agreement, Figure, FigureKind, TotalVerdict, WeighOptions } from './total-figures';
export { MAX_CASH_ROUNDING, isCashRounding, signedRounding } from './total-figures';

const cents = (n: number) => Math.round(n * 100);
const same = (a: number, b: number) => cents(a) === cents(b);

/** Adds the amounts of a kind, or null when there are none. */
function sumOf(figures: Figure[], kind: FigureKind): number | null {
  const values = figures.filter((f) => f.kind === kind && f.value !== null).map((f) => Math.abs(f.value!));
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0);
}

/** The distinct values of a kind. */
function valuesOf(figures: Figure[], kind: FigureKind): number[] {
  const values = figures.filter((f) => f.kind === kind && f.value !== null).map((f) => f.value!);
  return values.filter((v, i) => values.findIndex((w) => same(v, w)) === i);
}

/**
 * The amounts a subtotal leads to: itself, plus the taxes added and the charges, minus the discounts,
 * and moved by a cash rounding, each part either applied or not (a subtotal may be printed before or
 * after a discount). The rounding's sign is taken either way: OCR reads `--0.01` and `(0.01)`.
 */
function subtotalSums(figures: Figure[]): { plain: number[]; adjusted: number[] } {
  const subtotals = valuesOf(figures, 'subtotal').filter((v) => v > 0);
  const tax = sumOf(figures, 'tax') ?? 0;
  const charge = sumOf(figures, 'charge') ?? 0;
  const discount = sumOf(figures, 'discount') ?? 0;
  const rounding = Math.abs(valuesOf(figures, 'rounding').find(isCashRounding) ?? 0);
  const adjusted: number[] = [];
  for (const s of subtotals) {
    for (const t of tax > 0 ? [0, tax] : [0])
      for (const c of charge > 0 ? [0, charge] : [0])
        for (const d of discount > 0 ? [0, discount] : [0])
          for (const r of rounding > 0 ? [0, rounding, -rounding] : [0])
            if (t + c + d + Math.abs(r) > 0) adjusted.push(Math.round((s + t + c - d + r) * 100) / 100);
  }
  return { plain: subtotals, adjusted };
}

/**
 * The amounts paid that the tenders and the change give: each tender minus the change, and all the
 * tenders together minus it (a payment split between card and cash). A till may print the cash paid
 * and the cash handed over (`Cash 8.60`, `Tendered 9.00`, `Change 0.40`): one of them is the one.
 */
function paidOptions(figures: Figure[]): number[] {
  const tender = valuesOf(figures, 'tender').filter((v) => v > 0);
  const change = sumOf(figures, 'change');
  if (tender.length === 0 || change === null) return [];
  const all = tender.length > 1 ? [...tender, tender.reduce((s, v) => s + v, 0)] : tender;
  return all.filter((t) => t > change).map((t) => Math.round((t - change) * 100) / 100);
}

interface Candidate {
  value: number;
  weight: number;
  printed: boolean;
  /** For a derived amount, the figures it was derived from: they do not agree with it a second time. */
  origin: Agreement | null;
  /** Where it is printed, lowest of its printings. */
  at: number;
}

/**
 * Chooses the total of a receipt from the figures of its summary block (see {@link Figure}).
 *
 * Candidates are the printed totals, the tender minus the change, the tender alone and the subtotal
 * with its taxes, charges and discounts. Each candidate scores its label weight (a derived amount
 * scores less than any printed total), plus 2 for each independent figure that agrees with it:
 * the tender minus the change, the subtotal with its additions, the items' sum, another total
 * printed with the same amount, another total moved by the rounding adjustment; and loses 3 for
 * each figure that contradicts it (see {@link contradictionsOf}). The highest score wins; ties go to
 * a printed total, then to the one printed lowest (`at`, else the order of the figures).
 */
export function weighTotal(figures: Figure[], options: WeighOptions = {}): TotalVerdict {
  const tolerance = options.rounding ?? 0.1;
  const candidates: Candidate[] = [];
  const add = (value: number, weight: number, origin: Agreement | null, at = -1) => {
    // A printed total may be negative (a refund); a derived one is a payment.
    if (value === 0 || (origin !== null && value < 0)) return;
    const printed = origin === null;
    const known = candidates.find((c) => same(c.value, value) && c.printed === printed);
    if (known) {
      known.weight = Math.max(known.weight, weight);
      known.at = Math.max(known.at, at);
    } else candidates.push({ value, weight, printed, origin, at });
  };
  figures.forEach((f, index) => {
    if (f.kind === 'total' && f.value !== null) add(f.value, f.weight ?? 2, null, f.at ?? index);
  });
  const tender = valuesOf(figures, 'tender').filter((v) => v > 0);
  const change = sumOf(figures, 'change');
  const paid = tender.length === 1 && change !== null && tender[0]! > change ? tender[0]! - change : null;
  if (paid !== null) add(Math.round(paid * 100) / 100, -0.5, 'tender');
  for (const t of tender) add(t, -1.5, 'tender');
  const sums = subtotalSums(figures);
  const rounding = valuesOf(figures, 'rounding').find(isCashRounding);
  if (rounding !== undefined)
    for (const f of figures)
      if (f.kind === 'total' && f.value !== null)
        add(Math.round((f.value + rounding) * 100) / 100, -0.5, 'rounding');
  for (const s of sums.adjusted) add(s, -1, 'subtotal');
  for (const s of sums.plain) add(s, -1.25, 'subtotal');

  const unreadableTotal = figures.some((f) => f.kind === 'total' && f.value === null && (f.weight ?? 2) >= 2);
  const judge = options.judge;
  if (judge !== undefined && !candidates.some((c) => same(c.value, judge) && c.printed))
    candidates.push({ value: judge, weight: -1, printed: false, origin: null, at: -1 });
  if (candidates.length === 0) {
    return {
      value: null,
      agreements: [],
      contradictions: [],
      printed: false,
      weight: 0,
      unreadableTotal,
      surelyAgreed: false,
    };
  }
  const judged = candidates.map((c) => {
    const agreements = agreementsOf(c, figures, candidates, options.itemSum ?? null, paid);
    const contradictions = contradictionsOf(c.value, figures, paid, tolerance);
    return {
      c,
      agreements,
      contradictions,
      score: c.weight + 2 * agreements.length - 3 * contradictions.length,
    };
  });
  const best =
    judge !== undefined
      ? judged.find((j) => same(j.c.value, judge) && (j.c.printed || j.c.origin === null))!
      : judged.reduce((a, b) => {
          if (b.score !== a.score) return b.score > a.score ? b : a;
          if (b.c.printed !== a.c.printed) return b.c.printed ? b : a;
          return b.c.at > a.c.at ? b : a;
        });
  const sure = figures.filter((f) => !f.doubted);
  return {
    value: best.c.value,
    agreements: best.agreements,
    contradictions: best.contradictions,
    printed: best.c.printed,
    weight: best.c.printed ? best.c.weight : 0,
    unreadableTotal,
    surelyAgreed:
      best.agreements.length > 0 &&
      agreementsOf(best.c, sure, candidates, options.itemSum ?? null, null).length > 0,
  };
}

function agreementsOf(
  c: Candidate,
  figures: Figure[],
  candidates: Candidate[],
  itemSum: number | null,
  paid: number | null,
): Agreement[] {
  const agreements: Agreement[] = [];
  const totals = figures.filter((f) => f.kind === 'total' && f.value !== null && same(f.value, c.value));
  const sources = new Set(totals.map((f, i) => f.source ?? `t${i}`));
  if (sources.size >= (c.printed ? 2 : 1)) agreements.push('repeated');
  const change = sumOf(figures, 'change');
  // A tender alone (no change given) equal to a printed total, on a line of its own.
  const tenderAlone =
    c.printed &&
    (change === null || change === 0) &&
    figures.some(
      (f) =>
        f.kind === 'tender' &&
        f.value !== null &&
        same(f.value, c.value) &&
        totals.some((t) => t.source === undefined || t.source !== f.source),
    );
  const paidAmounts = paid !== null ? [paid] : paidOptions(figures);
  if (paidAmounts.length > 0 ? paidAmounts.some((p) => same(p, c.value)) : tenderAlone)
    agreements.push('tender');
  const sums = subtotalSums(figures);
  const taxAdded = (sumOf(figures, 'tax') ?? 0) > 0;
  if (
    sums.adjusted.some((s) => same(s, c.value)) ||
    (c.printed && !taxAdded && sums.plain.some((s) => same(s, c.value)))
  )
    agreements.push('subtotal');
  const tax = sumOf(figures, 'tax');
  // Items add up to the subtotal as printed: they say nothing more of an amount derived from it.
  if (
    c.origin !== 'subtotal' &&
    itemSum !== null &&
    itemSum > 0 &&
    (same(itemSum, c.value) || (tax !== null && same(itemSum + tax, c.value)))
  )
    agreements.push('items');
  const rounding = valuesOf(figures, 'rounding').find((r) => r !== 0);
  if (
    rounding !== undefined &&
    isCashRounding(rounding) &&
    cents(c.value) % 5 === 0 &&
    candidates.some(
      (o) => o.printed && o !== c && Math.abs(cents(o.value) - cents(c.value)) === cents(Math.abs(rounding)),
    )
  )
    agreements.push('rounding');
  // The tax table's rows add up to the amount taxed: the total, or the total before a cash rounding.
  const gross = sumOf(figures, 'gross');
  if (
    gross !== null &&
    (same(gross, c.value) ||
      (rounding !== undefined &&
        isCashRounding(rounding) &&
        Math.abs(cents(gross) - cents(c.value)) === cents(Math.abs(rounding))))
  )
    agreements.push('tax_table');
  // Items that add up to a printed subtotal are that subtotal's evidence once, not twice.
  const itemsAreSubtotal = itemSum !== null && valuesOf(figures, 'subtotal').some((v) => same(v, itemSum));
  const fromSubtotal = [...sums.plain, ...sums.adjusted].some((s) => same(s, c.value));
  return agreements.filter(
    (a) =>
      a !== c.origin &&
      !(a === 'items' && itemsAreSubtotal && (fromSubtotal || agreements.includes('subtotal'))),
  );
}

/**
 * The figures an amount cannot be the total beside: a cash rounding is printed and the amount is no
 * multiple of 0.05 (`rounding`); the tender minus the change differs from it by
 * more than a cash rounding (`tender`); it is below the subtotal and no discount or rounding
 * explains it (`subtotal`; only where one subtotal is printed: several may be parts of the total).
 */
export function contradictionsOf(
  value: number,
  figures: Figure[],
  paid: number | null = null,
  tolerance = 0.1,
): Agreement[] {
  const contradictions: Agreement[] = [];
  // A printed cash rounding brings the amount due to a multiple of 0.05: an amount off it is the
  // total before the rounding.
  const rounding = valuesOf(figures, 'rounding').some(isCashRounding);
  if (rounding && cents(value) % 5 !== 0) contradictions.push('rounding');
  // Several tenders: the amount contradicts them only when none of their readings gives it.
  const paidAmounts = paid !== null ? [paid] : paidOptions(figures);
  if (paidAmounts.length > 0 && paidAmounts.every((p) => Math.abs(p - value) > tolerance + 0.005))
    contradictions.push('tender');
  // Several different subtotals may be parts of the total (one per tax rate, some negative).
  const subtotals = valuesOf(figures, 'subtotal');
  const discount =
    (sumOf(figures, 'discount') ?? 0) + Math.abs(Math.min(0, ...valuesOf(figures, 'rounding')));
  if (value > 0 && subtotals.length === 1 && value + discount + tolerance + 0.005 < subtotals[0]!)
    contradictions.push('subtotal');
  return contradictions;
}

/** Confidence of a total that is contradicted by an independent figure of its receipt. */
export const CONTRADICTED_CONFIDENCE = 0.3;
/** Confidence of a total that nothing confirms and that was not printed as a named total. */
export const THIN_CONFIDENCE = 0.45;

/**
 * How sure a total is from its evidence (0..1), given the reader's own confidence in its reading
 * (`read`, absent when the reader gives none): contradicted, at most 0.3; confirmed by two
 * independent figures, at least 0.97; by one, at least 0.9 (0.6 to 0.8 beside a printed total
 * whose amount could not be read); alone, a printed total named as such keeps the reading's
 * confidence (at most 0.8), anything else (a derived amount, a weak label, a total beside an
 * unreadable one) at most 0.45.
 */
export function totalConfidence(verdict: TotalVerdict, read: number | undefined): number {
  const base = read ?? 0.7;
  if (verdict.contradictions.length > 0) return Math.min(base, CONTRADICTED_CONFIDENCE);
  const agreeing = verdict.agreements.length;
  if (agreeing >= 2) return Math.max(base, 0.97);
  if (agreeing === 1 && !verdict.unreadableTotal) return Math.max(base, 0.9);
  if (agreeing === 1) return Math.min(Math.max(base, 0.6), 0.8);
  if (!verdict.printed || verdict.weight < 1 || verdict.unreadableTotal)
    return Math.min(base, THIN_CONFIDENCE);
  return Math.min(base, 0.8);
}

const RATE = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%/;

/**
 * The gross amount (net plus tax) of a row of a tax summary table, when the row's own figures agree:
 * three amounts of which one is the sum of the other two (`7,0% 0,79 11,28 12,07`: tax, net, gross,
 * in any order), or two amounts of which the smaller is the row's rate of the larger, as tax on a net
 * amount (`SR @6% 62.00 3.72`) or inside a gross one. A row that does not check itself gives null:
 * a misread figure in it must not confirm a total.
 *
 * @param text - one printed line with a tax rate (`6%`, `19,0 %`)
 */
export function taxRowGross(text: string): number | null {
  const rate = RATE.exec(text);
  if (!rate) return null;
  const r = Number(rate[1]!.replace(',', '.')) / 100;
  const after = text.slice(rate.index + rate[0].length);
  const amounts = findAmounts(after)
    .map((a) => a.value)
    .filter((v) => v > 0);
  if (amounts.length === 3) {
    const [a, b, c] = [...amounts].sort((x, y) => x - y) as [number, number, number];
    return cents(a) + cents(b) === cents(c) ? c : null;
  }
  if (amounts.length === 2 && r > 0) {
    const [tax, base] = [...amounts].sort((x, y) => x - y) as [number, number];
    // Within a cent of the rate's tax, on the net amount or inside the gross one.
    if (Math.abs(cents(base * r) - cents(tax)) <= 1) return Math.round((base + tax) * 100) / 100;
    if (Math.abs(cents((base * r) / (1 + r)) - cents(tax)) <= 1) return base;
  }
  return null;
}
