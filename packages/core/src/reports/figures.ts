import { roundMoney } from '../analysis';

/** Money per currency, a row count and (items) a quantity sum over a set of rows. */
export interface Figures {
  money: CurrencySums;
  count: number;
  quantity: ExactSum;
}

export function emptyFigures(): Figures {
  return { money: new CurrencySums(), count: 0, quantity: new ExactSum() };
}

export function addFigures(to: Figures, from: Figures): void {
  to.money.addSums(from.money);
  to.count += from.count;
  to.quantity.addSum(from.quantity);
}

/** Thousandths: amounts and quantities with at most three decimals are added as whole numbers. */
const UNITS = 1000;

/**
 * A sum that does not depend on the order of its terms when they have at most three decimals
 * (money, quantities): those are added exactly in thousandths, any other term as a float. So the
 * figures of a set of rows summed row by row equal those summed from its groups' sums.
 */
export class ExactSum {
  private units = 0;
  private rest = 0;
  add(value: number): void {
    const units = Math.round(value * UNITS);
    if (units / UNITS === value) this.units += units;
    else this.rest += value;
  }
  addSum(other: ExactSum): void {
    this.units += other.units;
    this.rest += other.rest;
  }
  get value(): number {
    return this.units / UNITS + this.rest;
  }
  /** What the sum is made of, `[thousandths, other terms]`, to be stored and added back exactly. */
  parts(): [number, number] {
    return [this.units, this.rest];
  }
  addParts(parts: readonly [number, number], sign: 1 | -1 = 1): void {
    this.units += sign * parts[0];
    this.rest += sign * parts[1];
  }
}

export class CurrencySums {
  /**
   * The currency added to last and its sum: rows of one set are mostly in one currency, and a set in
   * one currency needs no map (the search dictionary has a set per distinct text).
   */
  private lastKey: string | undefined;
  private lastSum: ExactSum | undefined;
  /** Every currency's sum, once there is more than one currency. */
  private more: Map<string, ExactSum> | undefined;
  add(currency: string | null, amount: number | null): void {
    if (amount === null) return;
    this.sumOf(currency ?? '').add(amount);
  }
  addSums(other: CurrencySums): void {
    if (other.more) other.more.forEach((sum, c) => this.sumOf(c).addSum(sum));
    else if (other.lastKey !== undefined) this.sumOf(other.lastKey).addSum(other.lastSum!);
  }
  /** Adds a stored sum (see ExactSum.parts) to one currency's (`''` for none). */
  addParts(currency: string, parts: readonly [number, number]): void {
    this.sumOf(currency).addParts(parts);
  }
  private sumOf(key: string): ExactSum {
    if (key === this.lastKey) return this.lastSum!;
    let sum: ExactSum | undefined;
    if (this.lastKey !== undefined) {
      this.more ??= new Map([[this.lastKey, this.lastSum!]]);
      sum = this.more.get(key);
    }
    if (!sum) {
      sum = new ExactSum();
      this.more?.set(key, sum);
    }
    this.lastKey = key;
    this.lastSum = sum;
    return sum;
  }
  private get sums(): Map<string, ExactSum> {
    return this.more ?? new Map(this.lastKey === undefined ? [] : [[this.lastKey, this.lastSum!]]);
  }
  /** Sums per currency, rounded, in code order; amounts without a currency under ''. */
  record(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [c, sum] of [...this.sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      out[c] = roundMoney(sum.value);
    return out;
  }
  /** The currency most amounts are in (ties: alphabetical) and its sum. */
  main(counts: Map<string, number>): { currency: string | null; total: number } {
    let best: string | null = null;
    let bestCount = -1;
    for (const [c, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (n > bestCount) {
        best = c;
        bestCount = n;
      }
    }
    return { currency: best || null, total: roundMoney(this.sums.get(best ?? '')?.value ?? 0) };
  }
}

export class Group {
  readonly money = new CurrencySums();
  readonly counts = new Map<string, number>();
  n = 0;
  add(currency: string | null, amount: number | null): void {
    this.n += 1;
    this.money.add(currency, amount);
    const key = currency ?? '';
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
