/** One currency's total. `currency` is null for amounts whose currency is unknown. */
export interface CurrencyTotal {
  currency: string | null;
  amount: number;
}

function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/**
 * Sums amounts per currency, so different currencies are never added together. Unknown currencies
 * form their own group. Groups come out in order of first appearance.
 *
 * @param entries - each row's amounts, keyed by currency code ('' or null for unknown)
 */
export function totalsByCurrency(
  entries: Iterable<Record<string, number | null | undefined>>,
): CurrencyTotal[] {
  const sums = new Map<string, number>();
  for (const amounts of entries) {
    for (const [currency, amount] of Object.entries(amounts)) {
      if (typeof amount !== 'number' || !Number.isFinite(amount)) continue;
      sums.set(currency, (sums.get(currency) ?? 0) + amount);
    }
  }
  return [...sums].map(([currency, amount]) => ({ currency: currency || null, amount: roundCents(amount) }));
}

/** A plain sum, for counts and quantities. */
export function plainTotal(values: Iterable<number | null | undefined>): number {
  let sum = 0;
  for (const value of values) if (typeof value === 'number' && Number.isFinite(value)) sum += value;
  return roundCents(sum);
}
