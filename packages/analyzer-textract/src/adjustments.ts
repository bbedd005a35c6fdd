import { isCashRounding, signedRounding, type Figure, type ReceiptAdjustment } from '@receipts/core';

const cents = (n: number) => Math.round(n * 100);

/** A discount row under an item (`DISKON (20%)`), as read, with the item it is printed under. */
export interface DiscountRow {
  /** The row's amount as read (sign as read), or null when it did not read. */
  amount: number | null;
  /** The rate printed in the row's name (`20` of `DISKON (20%)`), or null. */
  rate: number | null;
  /** The amount of the item above it, or null when there is none or it did not read. */
  itemAmount: number | null;
}

/**
 * The discount a row under an item takes off. The row prints the discount (`DISC 30% 0.75`), or, on
 * some tills, the item's amount after it (`1,944,000` / `DISKON (20%) 1,555,200`): a row whose amount
 * is the item's amount less its printed rate, and not the rate of it, gives the difference. Null
 * when it did not read.
 */
export function rowDiscount(row: DiscountRow): number | null {
  if (row.amount === null || cents(row.amount) === 0) return null;
  const read = Math.abs(row.amount);
  const { rate, itemAmount } = row;
  if (rate !== null && rate > 0 && rate < 100 && itemAmount !== null && itemAmount > read) {
    const off = (itemAmount * rate) / 100;
    if (cents(read) !== cents(off) && cents(read) === cents(itemAmount - off)) return itemAmount - read;
  }
  return read;
}

/**
 * The largest rounding a till printing whole units (rupiah, yen) applies to a total: half the
 * largest step of 10, 100 or 1000 the total is a multiple of (a total of 334,000 is rounded to a
 * thousand, by 500 at most). Zero for a total that is no round amount.
 */
function wholeUnitRounding(total: number): number {
  const step = [1000, 100, 10].find((s) => cents(total) % (s * 100) === 0);
  return step === undefined ? 0 : step / 2;
}

/**
 * The receipt's adjustments between its items and the amount paid, from an AnalyzeExpense answer,
 * with the same meaning as the OCR analyzer's: discounts under the items, the bill's service charges
 * and discounts, and the cash rounding, each signed as it moves the amount paid. Textract's reduced
 * answers say nothing of where a field is printed, so the printed figures place the bill's
 * discounts and charges: a discount counts when the items less it make the subtotal (it is printed
 * among the items); the others and the charges count when the subtotal (the items, with none
 * printed) with the tax and them makes the total, as many of them as can. One the figures place
 * nowhere while they add up without it is a savings line repeating discounts already taken, a coupon
 * tendered as payment (`CASH 200,000`, `Coupon 100,000`) or a fee that is the items' own amount,
 * and moves nothing; so does a savings line equal to the discounts under the items. Where the
 * figures do not add up either way, all count as read. A discount takes off and a charge adds,
 * whatever sign was read. A rounding is a cash rounding (0.10 at most) with the sign that moves a printed
 * figure to the total (core's `signedRounding`); on a receipt printing whole units, one that a
 * printed figure confirms and no larger than half the step the total is rounded to.
 *
 * @param input.figures - the summary block's figures (`summaryFigures`: totals, subtotals, the tax,
 *   discounts, charges, roundings), each field once
 * @param input.itemDiscounts - the discounts under the items (see {@link rowDiscount})
 * @param input.itemSum - the items' amounts added up, or null when none was read
 */
export function expenseAdjustments(input: {
  figures: readonly Figure[];
  itemDiscounts: readonly number[];
  itemSum: number | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  wholeUnits: boolean;
}): ReceiptAdjustment[] {
  const { figures, subtotal, total } = input;
  if (total === null) return [];
  const near = (a: number, b: number) => Math.abs(cents(a) - cents(b)) <= 1;
  const distinct = (kind: Figure['kind']) => [
    ...new Set(
      figures
        .filter((f) => f.kind === kind && f.value !== null && cents(f.value) !== 0)
        .map((f) => cents(Math.abs(f.value!))),
    ),
  ];
  const adjustments: ReceiptAdjustment[] = input.itemDiscounts
    .filter((d) => cents(d) !== 0)
    .map((d) => ({ kind: 'discount', amount: -Math.abs(d) }));
  const underItems = adjustments.reduce((s, a) => s - cents(a.amount), 0);
  const charges = distinct('charge');
  const discounts = distinct('discount').filter((d) => !(underItems > 0 && d === underItems));
  const roundings = distinct('rounding').map((c) => c / 100);

  // Where the bill's discounts stand: among the items (before the subtotal), or after it with the
  // charges. Amounts in cents, signed as they move the amount paid.
  const netItems = input.itemSum === null ? null : input.itemSum - underItems / 100;
  const amongItems = discounts.filter(
    (d) => subtotal !== null && netItems !== null && near(netItems - d / 100, subtotal),
  );
  const onTheBill = [...discounts.filter((d) => !amongItems.includes(d)).map((d) => -d), ...charges];
  const base = subtotal ?? netItems;
  const makesTotal = (taken: readonly number[]) => {
    if (base === null) return false;
    const before = base + taken.reduce((s, d) => s + d, 0) / 100;
    const taxes = input.tax === null ? [0] : [0, input.tax];
    const rounded = [0, ...roundings.flatMap((r) => [r, -r])];
    return taxes.some((t) => rounded.some((r) => near(before + t + r, total)));
  };
  const afterSubtotal = subsets(onTheBill).find(makesTotal) ?? onTheBill;
  adjustments.push(
    ...amongItems.map((d) => ({ kind: 'discount' as const, amount: -d / 100 })),
    ...afterSubtotal.map((a) => ({
      kind: a < 0 ? ('discount' as const) : ('charge' as const),
      amount: a / 100,
    })),
  );

  const moved = afterSubtotal.reduce((s, a) => s + a, 0) / 100;
  for (const read of roundings) {
    const { amount, confirmed } = signedRounding(read, total, figures, moved);
    const fits = input.wholeUnits
      ? confirmed && Math.abs(amount) <= wholeUnitRounding(total)
      : isCashRounding(amount);
    if (fits) {
      adjustments.push({ kind: 'rounding', amount });
      break;
    }
  }
  return adjustments;
}

/** The subsets of a short list, the largest first (the whole list first; the empty one last). */
function subsets<T>(list: readonly T[]): T[][] {
  const capped = list.slice(0, 6);
  const all: T[][] = [];
  for (let mask = (1 << capped.length) - 1; mask >= 0; mask--)
    all.push(capped.filter((_, i) => (mask & (1 << i)) !== 0));
  return all.sort((a, b) => b.length - a.length);
}
