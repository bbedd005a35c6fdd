/**
 * The figures of a receipt's summary block and the verdict on its total: the shapes both analyzers
 * fill in and total-evidence.ts weighs.
 */

/** What a figure of the summary block is, as its label and place say. */
export type FigureKind =
  /** An amount named as the total (TOTAL, AMOUNT DUE, NETT TOTAL, SUMME, JUMLAH…). */
  | 'total'
  /** Money handed over: cash, card, tendered. */
  | 'tender'
  /** Change given back. */
  | 'change'
  /** The sum before tax, charges or discounts. */
  | 'subtotal'
  /** A tax amount added to the subtotal. */
  | 'tax'
  /** A tax amount already inside the prices (`incl. 19 % MwSt`): it adds nothing. */
  | 'included_tax'
  /** A service charge or fee added to the subtotal. */
  | 'charge'
  /** A discount taken off the subtotal (its sign as printed does not matter). */
  | 'discount'
  /** A rounding adjustment (either sign). */
  | 'rounding'
  /**
   * The gross amount of one row of a tax summary table (`C 7,00% 17,33 1,21 18,54`): net plus tax,
   * from a row whose own figures agree (see {@link taxRowGross}). The rows add up to the amount taxed.
   */
  | 'gross';

export interface Figure {
  kind: FigureKind;
  /** The amount; null when the label was read but its amount was not. */
  value: number | null;
  /**
   * For a `total`: how strongly its label and the reader's field type name the amount to pay, from
   * 0 (a word that may be something else) to 4 (a rounded or nett total). Labels are one kind of
   * evidence among the others.
   */
  weight?: number;
  /**
   * Which printed line or field it was read from: one printed amount read as two kinds of figure
   * (a `TOTAL PAID` line, both a total and a tender) does not agree with itself.
   */
  source?: number;
  /** Where it is printed (larger: lower on the receipt); between equal totals the lower one wins. */
  at?: number;
  /**
   * Read from a digit the reader doubted (another digit nearly as likely): it may agree with a total
   * misread the same way, so it does not make the total sure (see {@link TotalVerdict.surelyAgreed}).
   */
  doubted?: boolean;
}

/** How sure a total is: which independent figures agree with it and which contradict it. */
export interface TotalVerdict {
  /** The total, or null when no figure gives one. */
  value: number | null;
  /** The figures agreeing with it, each named once: see {@link Agreement}. */
  agreements: Agreement[];
  /** The figures it contradicts. */
  contradictions: Agreement[];
  /** Whether it was printed as a total (else it is derived from the tender or the subtotal). */
  printed: boolean;
  /** The candidate's own label weight (0 for a derived amount). */
  weight: number;
  /** A printed total whose amount could not be read stands beside it. */
  unreadableTotal: boolean;
  /** Whether a figure read without doubt (see {@link Figure.doubted}) agrees with it. */
  surelyAgreed: boolean;
}

export type Agreement =
  /** Printed again on another total line. */
  | 'repeated'
  /** The tender minus the change (or the tender alone, with no change). */
  | 'tender'
  /** Subtotal plus taxes and charges, minus discounts. */
  | 'subtotal'
  /** The items' sum (with or without the tax). */
  | 'items'
  /** Another total moved by the rounding adjustment. */
  | 'rounding'
  /** The gross amounts of the tax summary table's rows (net plus tax), added up. */
  | 'tax_table';

export interface WeighOptions {
  /** The items' amounts added up, when items were read. */
  itemSum?: number | null;
  /**
   * The largest difference that still counts as the same amount paid, for cash rounding (0.10 for
   * cents; 0 for currencies printed in whole units, where a till's rounding is not a cash rounding).
   */
  rounding?: number;
  /**
   * Judge this amount (the reader's own choice) instead of choosing among the candidates: the
   * verdict then says what agrees with it and what contradicts it.
   */
  judge?: number;
}

/** The largest cash rounding a till applies (to the nearest 0.05 or 0.10), either way. */
export const MAX_CASH_ROUNDING = 0.1;

/** Whether a printed rounding amount can be a cash rounding: not zero, and at most MAX_CASH_ROUNDING. */
export function isCashRounding(value: number): boolean {
  return value !== 0 && Math.abs(value) <= MAX_CASH_ROUNDING + 1e-9;
}

/**
 * A printed rounding amount with the sign that moves another printed figure to the total: a total
 * printed before the rounding (`Total Amount: RM7.72`, `Rounding: RM0.02`, `Nett Total: RM7.70` is
 * -0.02), or the subtotal with its tax and with the charges and discounts of the bill (`moved`, their
 * signed sum). Where no figure or both signs do, the sign as read (`confirmed` is then false). The
 * items' sum plays no part: it is what the rounding is checked against.
 *
 * @param read - the rounding as read, with the sign as read (readers drop and double signs)
 * @param total - the amount paid
 * @param figures - the summary block's figures (totals, subtotals, taxes)
 * @param moved - the charges and discounts of the bill, signed as they move the amount paid
 */
export function signedRounding(
  read: number,
  total: number,
  figures: readonly Figure[],
  moved = 0,
): { amount: number; confirmed: boolean } {
  const cents = (n: number) => Math.round(n * 100);
  const valuesOf = (kind: FigureKind) =>
    figures.filter((f) => f.kind === kind && f.value !== null).map((f) => f.value!);
  const tax = valuesOf('tax').reduce((s, v) => s + v, 0);
  const before = [
    ...valuesOf('total'),
    ...valuesOf('subtotal').flatMap((s) => [s, s + tax, s + moved, s + tax + moved]),
  ];
  const size = cents(Math.abs(read));
  const signs = new Set(
    before
      .map((b) => cents(total) - cents(b))
      .filter((d) => Math.abs(d) === size)
      .map(Math.sign),
  );
  const confirmed = signs.size === 1;
  const sign = confirmed ? [...signs][0]! : Math.sign(read);
  return { amount: (sign * size) / 100, confirmed };
}
