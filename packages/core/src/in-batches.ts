/**
 * Runs `run` on every value, `size` at a time (a batch waits for the one before it), so a long list
 * never opens more requests at once than a store or blob service takes well.
 * @returns the results in the order of `values`
 */
export async function inBatches<T, R>(
  values: readonly T[],
  size: number,
  run: (value: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) {
    out.push(...(await Promise.all(values.slice(i, i + size).map(run))));
  }
  return out;
}
