import { describe, expect, it } from 'vitest';
import { mapAnalyzeExpense } from '../src';
import { rowDiscount } from '../src/adjustments';
import { expenseResponse, field, lineItem } from './expense-builder';

const item = (description: string, price: string) => lineItem(['ITEM', description], ['PRICE', price]);
const labelled = (type: string, label: string, value: string) => field(type, value, { label });

describe('mapAnalyzeExpense: adjustments between the items and the amount paid', () => {
  it('reads a service charge and makes the items with it and the tax add up', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          labelled('SUBTOTAL', 'SUBTOTAL', '215,000'),
          labelled('SERVICE_CHARGE', 'Service Charge 6%', '12,900'),
          labelled('OTHER', 'Service Charge', '6%'),
          labelled('TAX', 'TAX 10%', '22,790'),
          labelled('TOTAL', 'TOTAL', '250,690'),
        ],
        items: [
          item('MEATBALL PASTA', '79,000'),
          item('TRUFFLE CREAM', '77,000'),
          item('MILK TEA', '59,000'),
        ],
      }),
    );
    expect(r.receipt.adjustments).toEqual([{ kind: 'charge', amount: 12900 }]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('takes a discount off the bill whatever sign was read', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          labelled('SUBTOTAL', 'SUB TOTAL', '20.00'),
          labelled('DISCOUNT', 'DISCOUNT', '2.00'),
          labelled('TOTAL', 'TOTAL', '18.00'),
        ],
        items: [item('TEA', '8.00'), item('CAKE', '12.00')],
      }),
    );
    expect(r.receipt.adjustments).toEqual([{ kind: 'discount', amount: -2 }]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('counts a discount printed among the items (the subtotal already less it) and the charge after it', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          labelled('DISCOUNT', 'Disc -100%(ITM06)', '-6.70'),
          labelled('SUBTOTAL', 'SUBTTL', '11.75'),
          labelled('SERVICE_CHARGE', 'SVC CHG 6%', '1.10'),
          labelled('TAX', 'TAX 10%', '1.29'),
          labelled('TOTAL', 'TOTAL', '14.14'),
        ],
        items: [item('POTATO', '5.05'), item('TUNA', '6.70'), item('TUNA', '6.70')],
      }),
    );
    expect(r.receipt.adjustments).toEqual([
      { kind: 'discount', amount: -6.7 },
      { kind: 'charge', amount: 1.1 },
    ]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('leaves out a coupon tendered as payment, which the figures add up without', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          labelled('AMOUNT_PAID', 'CASH', '20.00'),
          labelled('DISCOUNT', 'Coupon', '10.00'),
          labelled('SUBTOTAL', 'SUBTOTAL', '23.80'),
          labelled('SERVICE_CHARGE', 'Service', '1.79'),
          labelled('TAX', 'PB1', '2.56'),
          labelled('TOTAL', 'TOTAL', '28.15'),
          labelled('OTHER', 'Change', '1.85'),
        ],
        items: [item('SOUP', '10.00'), item('RICE', '13.80')],
      }),
    );
    expect(r.receipt.adjustments).toEqual([{ kind: 'charge', amount: 1.79 }]);
  });

  it('does not count twice a savings line that repeats the discounts under the items', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [labelled('OTHER', 'Total Savings', '0.75'), labelled('TOTAL', 'TOTAL', '5.25')],
        items: [item('SOAP', '2.50'), item('DISC 30%', '-0.75'), item('BREAD', '3.50')],
      }),
    );
    expect(r.items.map((i) => i.description)).toEqual(['SOAP', 'BREAD']);
    expect(r.receipt.adjustments).toEqual([{ kind: 'discount', amount: -0.75 }]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it("reads a discount row that prints the item's amount after its rate as the difference", () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [labelled('TOTAL', 'TOTAL', '2,335,200')],
        items: [
          lineItem(
            ['ITEM', 'LUNCH BOX'],
            ['QUANTITY', '8 PCS'],
            ['UNIT_PRICE', '243,000'],
            ['PRICE', '1,944,000'],
          ),
          item('DISKON (20%)', '1,555,200'),
          lineItem(
            ['ITEM', 'RICE CASE'],
            ['QUANTITY', '5 PCS'],
            ['UNIT_PRICE', '195,000'],
            ['PRICE', '975,000'],
          ),
          item('DISKON (20%)', '195,000'),
        ],
      }),
    );
    expect(r.items).toHaveLength(2);
    expect(r.receipt.adjustments).toEqual([
      { kind: 'discount', amount: -388800 },
      { kind: 'discount', amount: -195000 },
    ]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('gives a cash rounding the sign that moves the printed figures to the total, not the sign read', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [
          labelled('TOTAL', 'Total Amount', '7.72'),
          labelled('OTHER', 'Rounding', '0.02'),
          labelled('TOTAL', 'Nett Total', '7.70'),
        ],
        items: [item('NOODLES', '4.22'), item('TEA', '3.50')],
      }),
    );
    expect(r.receipt.total_amount).toBe(7.7);
    expect(r.receipt.adjustments).toEqual([{ kind: 'rounding', amount: -0.02 }]);
    expect(r.receipt.total_checks_out).toBe(true);
  });

  it('reads a rounding in whole units when a printed figure confirms it, and not a larger amount', () => {
    const summary = (rounding: string) => [
      labelled('SUBTOTAL', 'ITEMS: 2', '303,646'),
      labelled('TAX', 'Pb1 10%', '30,365'),
      labelled('OTHER', 'Rounding', rounding),
      labelled('TOTAL', 'Total', '334,000'),
    ];
    const items = [item('NASI GORENG', '165,460'), item('BIHUN', '138,186')];
    const rounded = mapAnalyzeExpense(expenseResponse({ summary: summary('11'), items }));
    expect(rounded.receipt.adjustments).toEqual([{ kind: 'rounding', amount: -11 }]);
    expect(rounded.receipt.total_checks_out).toBe(true);
    // Nothing printed makes 334,000 from 2,011 away: no rounding.
    const unconfirmed = mapAnalyzeExpense(expenseResponse({ summary: summary('2,011'), items }));
    expect(unconfirmed.receipt.adjustments).toBeUndefined();
  });

  it('leaves adjustments out when none is printed, or when there is no total', () => {
    const plain = mapAnalyzeExpense(
      expenseResponse({ summary: [field('TOTAL', '10.00')], items: [item('A', '10.00')] }),
    );
    expect(plain.receipt.adjustments).toBeUndefined();
    const noTotal = mapAnalyzeExpense(
      expenseResponse({
        summary: [labelled('SERVICE_CHARGE', 'Service', '1.00')],
        items: [item('A', '10.00')],
      }),
    );
    expect(noTotal.receipt.total_amount).toBe(null);
    expect(noTotal.receipt.adjustments).toBeUndefined();
  });

  it('drops a fee that is the items own amount, which the figures add up without', () => {
    const r = mapAnalyzeExpense(
      expenseResponse({
        summary: [labelled('TOTAL', 'Fee', '$60.00'), labelled('TOTAL', 'Total', '$60.00')],
        items: [item('Treatment', '$60.00')],
      }),
    );
    expect(r.receipt.adjustments).toBeUndefined();
    expect(r.receipt.total_checks_out).toBe(true);
  });
});

describe('rowDiscount', () => {
  it('takes the amount of a discount row as the discount', () => {
    expect(rowDiscount({ amount: -0.75, rate: 30, itemAmount: 2.5 })).toBe(0.75);
    expect(rowDiscount({ amount: 1.5, rate: null, itemAmount: 10 })).toBe(1.5);
  });

  it("reads the item's amount less the rate as that amount after the discount", () => {
    expect(rowDiscount({ amount: 80, rate: 20, itemAmount: 100 })).toBe(20);
    expect(rowDiscount({ amount: 20, rate: 20, itemAmount: 100 })).toBe(20);
  });

  it('gives nothing for a row whose amount did not read or is zero', () => {
    expect(rowDiscount({ amount: null, rate: 10, itemAmount: 5 })).toBe(null);
    expect(rowDiscount({ amount: 0, rate: 10, itemAmount: 5 })).toBe(null);
  });
});
