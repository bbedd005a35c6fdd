import { describe, expect, it } from 'vitest';
import { parseReceiptText } from '../src';

/** Receipt texts as OCR returns them: one printed line per line, columns collapsed to spaces. */
const text = (lines: string[]) => lines.join('\n');

const heading = [
  'KEDAI RUNCIT MAJU SDN BHD',
  '(123456-A)',
  'NO 5, JALAN MAJU 3, 43000 KAJANG, SELANGOR',
  'TAX INVOICE',
  'Date: 12/03/2018 10:25:49',
  'Description Qty Price Amount',
];

/** The receipt of the heading above and the lines given, as the parser reads it. */
const parse = (lines: string[]) => parseReceiptText(text([...heading, ...lines]));

describe('adjustments between the items and the total', () => {
  it('reads a cash rounding whose sign was lost by the total printed above it', () => {
    const parsed = parse([
      'TEH TARIK 1 2.54 2.54',
      'NASI GORENG 1 5.18 5.18',
      'Total Amount: RM7.72',
      'Rounding: RM0.02',
      'Nett Total: RM7.70',
      'CASH RM10.00',
      'Change RM2.30',
    ]);
    expect(parsed.receipt.total_amount).toBe(7.7);
    expect(parsed.receipt.adjustments).toEqual([{ kind: 'rounding', amount: -0.02 }]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('signs the rounding by the subtotal and its tax when no total is printed before it', () => {
    const parsed = parse([
      'YAM MILK TEA 1 7.90 7.90',
      'Sub-Total RM7.90',
      '6% GST RM0.47',
      'Rounding RM0.02',
      'Grand Total RM8.35',
      'Cash RM10.50',
      'Change RM2.15',
    ]);
    expect(parsed.receipt.adjustments).toEqual([{ kind: 'rounding', amount: -0.02 }]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('adds a service charge and the tax, and takes the rounding, not the summary table under the total', () => {
    const parsed = parse([
      '1 GUINNESS BUCKET 150.00',
      '1 TIGER BUCKET 145.00',
      'SUB TOTAL 295.00',
      'SERVICE CHARGE 10% 29.50',
      'GST 6% 19.47',
      'ROUNDING ADJ -0.02',
      'NET TOTAL 343.95',
      'Summary Amount',
      'SERVICE CHARGE 10 295.00',
      'SR GST 6% 324.50 19.47',
    ]);
    expect(parsed.receipt.total_amount).toBe(343.95);
    expect(parsed.receipt.adjustments).toEqual([
      { kind: 'charge', amount: 29.5 },
      { kind: 'rounding', amount: -0.02 },
    ]);
  });

  it('takes a coupon off the bill, whatever sign was read', () => {
    const parsed = parse([
      'REGULAR PIZZA 15.60',
      'Sub-Total 15.60',
      'Coupon Discount 8.40',
      'Grand Total 7.20',
      'Payment 10.00',
      'Change Due 2.80',
    ]);
    expect(parsed.receipt.adjustments).toEqual([{ kind: 'discount', amount: -8.4 }]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('keeps a discount under an item out of the items, and counts it once beside the savings line', () => {
    const parsed = parse([
      '1x 000000811101 2.50SR',
      'TAMAGO (S)',
      'DISC 30% @1.75 --0.75',
      'BROWN EGGS 10S 1 4.20 4.20SR',
      'Sub-total 5.95',
      'Total Savings 0.75',
      'Total Sales Incl GST 5.95',
      'CASH 6.00',
      'Change Amt 0.05',
    ]);
    expect(parsed.items.map((i) => i.total_price)).toEqual([2.5, 4.2]);
    expect(parsed.receipt.adjustments).toEqual([{ kind: 'discount', amount: -0.75 }]);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('reads a tax whose mark was glued to its amount, and the rounding beside it', () => {
    const parsed = parse([
      '1 FISHBALL NOODLE 7.00',
      '1 SUB TOTAL 7.00',
      'GST 6% 0.42v',
      'ROUNDING ADJ -0.02',
      'NET TOTAL 7.40',
      'Cash 7.40',
    ]);
    expect(parsed.receipt.total_tax).toBe(0.42);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('reads none where none is printed, and items that miss one still do not add up', () => {
    const parsed = parse([
      'TEH TARIK 1 2.54 2.54',
      'NASI GORENG 5.18',
      'AIR KOSONG',
      'Total Amount: RM8.72',
      'Rounding: RM0.02',
      'Nett Total: RM8.70',
    ]);
    expect(parsed.receipt.adjustments).toEqual([{ kind: 'rounding', amount: -0.02 }]);
    expect(parsed.receipt.total_checks_out).toBe(false);
    const plain = parse(['TEH TARIK 1 2.50 2.50', 'TOTAL 2.50', 'CASH 2.50']);
    expect(plain.receipt.adjustments).toBeUndefined();
  });
});
