import { describe, expect, it } from 'vitest';
import { sameBrand, scoreLabelledItems, type EvalItem } from '../src/eval/labels';
import { summarise, type ReceiptEvaluation } from '../src/eval/evaluate';

const item = (description: string, amount: number, brand: string | null, brandUnsure = false): EvalItem => ({
  description,
  quantity: 1,
  unitPrice: amount,
  amount,
  brand,
  ...(brandUnsure ? { brandUnsure: true } : {}),
});

describe('brand scoring against the labels', () => {
  it('names a brand alike whatever its case, accents and punctuation', () => {
    expect(sameBrand('Coca-Cola', 'COCA COLA')).toBe(true);
    expect(sameBrand('gut & günstig', 'GUT & GUNSTIG')).toBe(true);
    expect(sameBrand('Milram', 'Milka')).toBe(false);
    expect(sameBrand(null, null)).toBe(false);
  });

  it('checks a brand read only on items paired with a label, and finds a labelled brand only on its own item', () => {
    const labels = [
      item('COKE 1.5L', 5.2, 'Coca-Cola'),
      item('LKK SOS TIRAM', 7.5, 'Lee Kum Kee'),
      item('BANANEN LOSE', 1.1, null),
      item('NESC CLASSIC', 12.9, 'Nescafé'),
      item('MILR QUARK', 0.99, 'Milram'),
    ];
    const got = [
      item('COKE 1.5L', 5.2, 'Coca-Cola'), // right
      item('LKK SOS TIRAM', 7.5, 'Kikkoman', true), // wrong, unsure
      item('BANANEN LOSE', 1.1, 'Chiquita'), // wrong: the label names none
      item('NESC CLASSIC', 12.9, null), // not found
      item('MILR QUARK', 9.99, 'Milram'), // its amount is wrong: not paired, so neither right nor found
      item('PLASTIC BAG', 0.2, null),
    ];
    const { brands } = scoreLabelledItems(labels, got);
    expect(brands).toMatchObject({
      given: 3,
      right: 1,
      unsure: 1,
      labelled: 4,
      found: 1,
      read: 6,
      branded: 4,
    });
    expect(brands.misses).toEqual([
      { description: 'LKK SOS TIRAM', expected: 'Lee Kum Kee', got: 'Kikkoman' },
      { description: 'BANANEN LOSE', expected: null, got: 'Chiquita' },
      { description: 'NESC CLASSIC', expected: 'Nescafé', got: null },
    ]);
  });

  it('leaves items whose label says nothing of brands out of precision and recall', () => {
    const label: EvalItem = { description: 'TEA', quantity: 1, unitPrice: 2, amount: 2 };
    const { brands } = scoreLabelledItems([label], [item('TEA', 2, 'Lipton')]);
    expect(brands).toMatchObject({ given: 0, right: 0, labelled: 0, found: 0, read: 1, branded: 1 });
  });

  it('adds the receipts’ brand figures up in the summary', () => {
    const receipt = (index: number, labels: EvalItem[], got: EvalItem[]): ReceiptEvaluation => ({
      id: String(index),
      file: `${index}.jpg`,
      seconds: 0,
      index,
      expected: {},
      got: {},
      correct: {},
      labelled: scoreLabelledItems(labels, got),
      needsReview: false,
      reviewReasons: [],
    });
    const summary = summarise([
      receipt(0, [item('COKE', 1, 'Coca-Cola')], [item('COKE', 1, 'Coca-Cola')]),
      receipt(
        1,
        [item('MILO', 2, 'Milo'), item('RICE', 3, null)],
        [item('MILO', 2, null), item('RICE', 3, null)],
      ),
    ]);
    expect(summary.brands).toEqual({
      given: 1,
      right: 1,
      unsure: 0,
      labelled: 2,
      found: 1,
      read: 3,
      branded: 1,
    });
  });
});
