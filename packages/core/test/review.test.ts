import { describe, expect, it } from 'vitest';
import { assessReview, checkedConfidence, type AnalysisResult } from '../src';

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
});

describe('checkedConfidence', () => {
  const receipt = (total: number | null, checks: boolean) =>
    ({
      total_amount: total,
      total_checks_out: checks,
      transaction_date: '2024-01-02',
    }) as AnalysisResult['receipt'];

  it('raises a total the items add up to and lowers one they contradict', () => {
    const items = [{ description: 'A', quantity: 1, unit_price: 5, total_price: 5 }];
    expect(
      checkedConfidence({ receipt: receipt(5, true), items, confidence: { 'receipt.total_amount': 0.4 } })[
        'receipt.total_amount'
      ],
    ).toBe(0.95);
    const contradicted = checkedConfidence({
      receipt: receipt(9, false),
      items,
      confidence: { 'receipt.total_amount': 0.99 },
    });
    expect(contradicted['receipt.total_amount']).toBe(0.6);
    expect(contradicted['receipt.transaction_date']).toBe(0.7);
  });
});
