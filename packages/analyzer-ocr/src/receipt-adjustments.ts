import { isCashRounding, signedRounding, type Figure, type ReceiptAdjustment } from '@receipts/core';

/** A rounding, service charge or discount line of the summary block, and where it is printed. */
export interface PrintedAdjustment {
  kind: ReceiptAdjustment['kind'];
  /** The amount as read, with the sign as read (OCR drops and doubles signs: `--0.75`, `(0.02)`). */
  value: number;
  /** The line's position among the receipt's lines. */
  at: number;
}

const cents = (n: number) => Math.round(n * 100);

/**
 * The receipt's adjustments between its items and the amount paid, as printed: discounts under the
 * items (`DISC 30% @1.75 --0.75`), and the service charges, discounts and cash rounding printed
 * between the last item and the total line (an adjustment printed under the total, or in a tax
 * summary, moves nothing it is checked against). A discount takes off and a charge adds, whatever
 * sign OCR read; a line that repeats the discounts under the items (`Total Savings 3.80`) is not
 * counted again. The rounding's sign is the one that moves another printed figure (a total before
 * rounding, or the subtotal with its tax, charges and discounts) to the total; where no printed
 * figure tells, the sign as read. The items' own sum plays no part.
 *
 * @param input.printed - the adjustment lines of the summary block (`readTotals`)
 * @param input.itemDiscounts - the discounts printed under items (negative)
 * @param input.itemsEnd - the position of the line that ends the items
 * @param input.totalAt - the position of the total's line (the number of lines when none)
 * @param input.figures - the summary block's figures (totals, subtotals, taxes)
 */
export function receiptAdjustments(input: {
  printed: readonly PrintedAdjustment[];
  itemDiscounts: readonly number[];
  itemsEnd: number;
  total: number | null;
  totalAt: number;
  figures: readonly Figure[];
}): ReceiptAdjustment[] {
  const { total, figures } = input;
  if (total === null) return [];
  const between = input.printed.filter(
    (a) => a.at >= input.itemsEnd && a.at < input.totalAt && cents(a.value) !== 0,
  );
  const adjustments: ReceiptAdjustment[] = input.itemDiscounts
    .filter((d) => cents(d) !== 0)
    .map((d) => ({ kind: 'discount', amount: -Math.abs(d) }));
  const underItems = cents(adjustments.reduce((s, a) => s - a.amount, 0));
  for (const a of between) {
    if (a.kind === 'discount' && !(underItems > 0 && cents(Math.abs(a.value)) === underItems))
      adjustments.push({ kind: 'discount', amount: -Math.abs(a.value) });
    if (a.kind === 'charge') adjustments.push({ kind: 'charge', amount: Math.abs(a.value) });
  }
  const rounding = between.find((a) => a.kind === 'rounding' && isCashRounding(a.value));
  if (rounding) {
    const moved = adjustments.slice(input.itemDiscounts.length).reduce((s, a) => s + a.amount, 0);
    adjustments.push({
      kind: 'rounding',
      amount: signedRounding(rounding.value, total, figures, moved).amount,
    });
  }
  return adjustments;
}
