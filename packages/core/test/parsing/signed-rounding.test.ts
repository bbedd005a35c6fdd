import { describe, expect, it } from 'vitest';
import { signedRounding, type Figure } from '../../src';

describe('signedRounding', () => {
  it('takes the sign that moves a total printed before the rounding to the total', () => {
    const figures: Figure[] = [
      { kind: 'total', value: 7.72 },
      { kind: 'total', value: 7.7 },
    ];
    expect(signedRounding(0.02, 7.7, figures)).toEqual({ amount: -0.02, confirmed: true });
  });

  it('moves the subtotal with its tax and the bill’s charges and discounts', () => {
    const figures: Figure[] = [
      { kind: 'subtotal', value: 24.43 },
      { kind: 'tax', value: 1.61 },
    ];
    // 24.43 + 1.61 + a charge of 2.45 = 28.49, rounded up to 28.50.
    expect(signedRounding(-0.01, 28.5, figures, 2.45)).toEqual({ amount: 0.01, confirmed: true });
  });

  it('keeps the sign as read when no printed figure, or both signs, tell', () => {
    expect(signedRounding(-0.02, 42.5, [])).toEqual({ amount: -0.02, confirmed: false });
    const both: Figure[] = [
      { kind: 'total', value: 10.02 },
      { kind: 'total', value: 9.98 },
    ];
    expect(signedRounding(0.02, 10, both)).toEqual({ amount: 0.02, confirmed: false });
  });

  it('does not confirm an amount that moves no figure to the total', () => {
    const figures: Figure[] = [
      { kind: 'subtotal', value: 303646 },
      { kind: 'tax', value: 30365 },
    ];
    expect(signedRounding(11, 334000, figures)).toEqual({ amount: -11, confirmed: true });
    expect(signedRounding(2011, 334000, figures).confirmed).toBe(false);
  });
});
