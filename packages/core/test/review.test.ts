import { describe, expect, it } from 'vitest';
import { assessReview, checkedConfidence, totalChecksOut, type AnalysisResult } from '../src';

const base = (over: Partial<AnalysisResult['receipt']> = {}, confidence: Record<string, number> = {}) => ({
  receipt: {
    doc_type: 'receipt',
    receipt_type: null,
    country_region: null,
    total_amount: 12.5,
    subtotal: null,
    currency_code: 'EUR',
    total_tax: null,
    transaction_date: '2026-11-01',
    transaction_time: null,
    total_checks_out: true,
    ...over,
  },
  items: [{ description: 'BREAD', quantity: 1, unit_price: 12.5, total_price: 12.5 }],
  confidence,
});

describe('assessReview', () => {
  it('passes a complete reading whose items add up', () => {
    expect(assessReview(base(), '2026-11-24')).toEqual({ needs_review: false, review_reasons: [] });
  });

  it('flags a missing total and a missing date', () => {
    const r = assessReview(base({ total_amount: null, transaction_date: null }), '2026-11-24');
    expect(r).toEqual({ needs_review: true, review_reasons: ['no_total', 'no_date'] });
  });

  it('flags items that do not add up, a future date and a low-confidence total', () => {
    const r = assessReview(
      base({ total_checks_out: false, transaction_date: '2026-12-01' }, { 'receipt.total_amount': 0.3 }),
      '2026-11-24',
    );
    expect(r.review_reasons).toEqual(['total_check_fails', 'future_date', 'low_confidence']);
  });

  it('does not call a receipt without priced items inconsistent', () => {
    const r = assessReview({ ...base({ total_checks_out: false }), items: [] }, '2026-11-24');
    expect(r.needs_review).toBe(false);
  });

  it('flags a total that another figure of its receipt contradicts, items or none', () => {
    const contradicted = { ...base(), items: [], contradicted: ['receipt.total_amount'] };
    expect(assessReview(contradicted, '2026-11-24').review_reasons).toEqual(['total_check_fails']);
  });

  it('flags items read surely that do not add up to a total nothing else confirms', () => {
    const unsure = base(
      { total_checks_out: false },
      { 'receipt.total_amount': 0.8, 'items.0.total_price': 0.95 },
    );
    expect(assessReview(unsure, '2026-11-24').review_reasons).toEqual(['total_check_fails']);
  });

  it('leaves items read unsurely, or beside a confirmed total, as unsure items only', () => {
    const misread = base(
      { total_checks_out: false },
      { 'receipt.total_amount': 0.8, 'items.0.total_price': 0.6 },
    );
    expect(assessReview(misread, '2026-11-24').needs_review).toBe(false);
    const confirmed = base({ total_checks_out: false }, { 'receipt.total_amount': 0.97 });
    expect(
      assessReview({ ...confirmed, items: [{ ...confirmed.items[0]!, total_price: 3 }] }, '2026-11-24')
        .needs_review,
    ).toBe(false);
  });

  it('leaves items one digit away from a confirmed total unsure: the total rests on its own figures', () => {
    // 82.50 + 1.50 tax = 84.00 agree among themselves; the items add up to 92.50. A summary misread
    // the same way on every line is caught by its doubted digits (test/analysis/review-evidence).
    // A coincidence of one digit (7.00 of items beside a total of 7.40) is no evidence either way.
    const r = assessReview(
      {
        ...base(
          { total_amount: 84, subtotal: 82.5, total_tax: 1.5, total_checks_out: false },
          { 'receipt.total_amount': 0.97 },
        ),
        items: [
          { description: 'A', quantity: 1, unit_price: 50, total_price: 50 },
          { description: 'B', quantity: 1, unit_price: 42.5, total_price: 42.5 },
        ],
      },
      '2026-11-24',
    );
    expect(r.needs_review).toBe(false);
  });

  it('flags thin evidence for the total or the date, and a date decades back', () => {
    expect(assessReview(base({}, { 'receipt.total_amount': 0.45 }), '2026-11-24').review_reasons).toEqual([
      'low_confidence',
    ]);
    expect(assessReview(base({ transaction_date: '2009-04-03' }), '2026-11-24').review_reasons).toEqual([
      'old_date',
    ]);
    const twoYears = { ...base(), contradicted: ['receipt.transaction_date'] };
    expect(assessReview(twoYears, '2026-11-24').review_reasons).toEqual(['low_confidence']);
  });
});

describe('checkedConfidence', () => {
  const receipt = (total: number | null, checks: boolean) =>
    ({
      total_amount: total,
      total_checks_out: checks,
      transaction_date: '2024-01-02',
    }) as AnalysisResult['receipt'];
  const items = [{ description: 'A', quantity: 1, unit_price: 5, total_price: 5 }];

  it('marks items that do not add up unsure, and leaves the total as its evidence made it', () => {
    const added = checkedConfidence({
      receipt: receipt(5, true),
      items,
      confidence: { 'receipt.total_amount': 0.4 },
    });
    expect(added['items']).toBe(0.95);
    expect(added['receipt.total_amount']).toBe(0.4);
    const off = checkedConfidence({
      receipt: receipt(9, false),
      items,
      confidence: { 'receipt.total_amount': 0.99 },
    });
    expect(off['items']).toBe(0.4);
    expect(off['receipt.total_amount']).toBe(0.99);
    expect(off['receipt.transaction_date']).toBe(0.7);
  });
});

describe("totalChecksOut with the receipt's adjustments", () => {
  const items = [{ total_price: 150 }, { total_price: 145 }];

  it('adds the service charge, the tax and the cash rounding printed between the items and the total', () => {
    // 295.00 + service charge 29.50 + GST 19.47 - rounding 0.02 = 343.95
    const adjustments = [
      { kind: 'charge' as const, amount: 29.5 },
      { kind: 'rounding' as const, amount: -0.02 },
    ];
    expect(totalChecksOut(343.95, items, 19.47)).toBe(false);
    expect(totalChecksOut(343.95, items, 19.47, null, adjustments)).toBe(true);
  });

  it('takes a discount off, and still fails items that miss one', () => {
    const coupon = [{ kind: 'discount' as const, amount: -8.4 }];
    expect(totalChecksOut(7.2, [{ total_price: 15.6 }], 0.41, null, coupon)).toBe(true);
    expect(totalChecksOut(7.2, [{ total_price: 12.6 }], 0.41, null, coupon)).toBe(false);
    // All the adjustments or none: one charge left out of two does not make the total.
    const two = [...coupon, { kind: 'charge' as const, amount: 1 }];
    expect(totalChecksOut(7.2, [{ total_price: 15.6 }], null, null, two)).toBe(false);
  });
});
