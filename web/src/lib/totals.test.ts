import { describe, expect, it } from 'vitest';
import { plainTotal, totalsByCurrency } from './totals';

describe('totals', () => {
  it('sums per currency in order of appearance, rounding to cents', () => {
    expect(totalsByCurrency([{ EUR: 0.1 }, { USD: 1 }, { EUR: 0.2 }, { '': 3 }, { EUR: null }])).toEqual([
      { currency: 'EUR', amount: 0.3 },
      { currency: 'USD', amount: 1 },
      { currency: null, amount: 3 },
    ]);
  });

  it('sums plain numbers, skipping missing ones', () => {
    expect(plainTotal([1, null, 2.005, undefined, Number.NaN])).toBe(3.01);
  });
});
