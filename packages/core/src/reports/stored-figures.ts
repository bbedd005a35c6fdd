import { ExactSum } from './figures';

/** `[thousandths, other terms]` of an exact sum (see ExactSum.parts). */
export type Parts = [number, number];

/** Figures of a set of rows, storable: count, money per currency (`[...parts, rows]`), quantity. */
export interface StoredFigures {
  count: number;
  money: Record<string, [number, number, number]>;
  quantity: Parts;
}

export const emptyStoredFigures = (): StoredFigures => ({ count: 0, money: {}, quantity: [0, 0] });

export function partsOf(value: number): Parts {
  const sum = new ExactSum();
  sum.add(value);
  return sum.parts();
}

/** Adds one row (its currency, amount and, for items, quantity) to stored figures. */
export function addRow(
  figures: StoredFigures,
  currency: string | null,
  amount: number | null,
  quantity?: number | null,
): void {
  figures.count += 1;
  if (quantity !== undefined) addInto(figures.quantity, partsOf(quantity ?? 0), 1);
  if (amount === null) return;
  const money = (figures.money[currency ?? ''] ??= [0, 0, 0]);
  const [units, rest] = partsOf(amount);
  money[0] += units;
  money[1] += rest;
  money[2] += 1;
}

function addInto(to: Parts, from: Parts, sign: 1 | -1): void {
  to[0] += sign * from[0];
  to[1] += sign * from[1];
}

/** `into` plus (or minus) `other`; a currency left without rows is dropped, as a build never has it. */
export function mergeFigures(into: StoredFigures, other: StoredFigures, sign: 1 | -1): void {
  into.count += sign * other.count;
  addInto(into.quantity, other.quantity, sign);
  for (const [currency, [units, rest, n]] of Object.entries(other.money)) {
    const money = (into.money[currency] ??= [0, 0, 0]);
    money[0] += sign * units;
    money[1] += sign * rest;
    money[2] += sign * n;
    if (money[2] <= 0) delete into.money[currency];
  }
}

export function copyFigures(figures: StoredFigures): StoredFigures {
  return {
    count: figures.count,
    quantity: [...figures.quantity],
    money: Object.fromEntries(
      Object.entries(figures.money).map(([c, m]) => [c, [...m] as [number, number, number]]),
    ),
  };
}
