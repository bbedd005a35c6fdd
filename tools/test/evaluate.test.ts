import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, formatReport, scoreItems } from '../src/eval/evaluate';

const item = (
  description: string,
  quantity: number | null,
  unitPrice: number | null,
  amount: number | null,
) => ({
  description,
  quantity,
  unitPrice,
  amount,
});

describe('scoreItems', () => {
  it('pairs items one to one and compares only what the truth gives', () => {
    const expected = [
      item('Egg Tart', 2, null, 26000),
      item('Egg Tart', 2, null, 26000),
      item('Tea', 1, 5000, 5000),
    ];
    const got = [item('EGG TART', 2, 13000, 26000), item('Tea', 1, 5000, 50), item('Bag', 1, 0, 0)];
    const scored = scoreItems(expected, got);
    expect(scored.matched).toBe(1);
    expect(scored.missed).toEqual([expected[1], expected[2]]);
    expect(scored.extra).toEqual([got[1], got[2]]);
  });
});

describe('evaluate on CORD-style truth', () => {
  let dir: string;
  const response = (total: string, tax: string | null, items: Array<[string, string, string]>) => ({
    ExpenseDocuments: [
      {
        SummaryFields: [
          { Type: { Text: 'TOTAL' }, LabelDetection: { Text: 'TOTAL' }, ValueDetection: { Text: total } },
          ...(tax
            ? [{ Type: { Text: 'TAX' }, LabelDetection: { Text: 'PB1' }, ValueDetection: { Text: tax } }]
            : []),
        ],
        LineItemGroups: [
          {
            LineItems: items.map(([name, qty, price]) => ({
              LineItemExpenseFields: [
                { Type: { Text: 'ITEM' }, ValueDetection: { Text: name } },
                { Type: { Text: 'QUANTITY' }, ValueDetection: { Text: qty } },
                { Type: { Text: 'PRICE' }, ValueDetection: { Text: price } },
              ],
            })),
          },
        ],
      },
    ],
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'receipt-eval-cord-'));
    const write = (id: string, truth: object, textract: object) =>
      Promise.all([
        writeFile(path.join(dir, `${id}.json`), JSON.stringify(truth)),
        writeFile(path.join(dir, `${id}.textract.json`), JSON.stringify(textract)),
      ]);
    await write(
      'a',
      { items: [item('EGG TART', 2, null, 26000)], tax: 2600, total: 28600 },
      response('28.600', '2.600', [['EGG TART', '2', '26.000']]),
    );
    await write(
      'b',
      { items: [item('TEA', 1, null, 5000), item('RICE', 1, null, 8000)], tax: null, total: 13000 },
      response('13,000', null, [['TEA', '1', '5,000']]),
    );
    await write(
      'c',
      { items: [item('SOUP', 1, null, 9000)], tax: null, total: null },
      response('9.000', null, []),
    );
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('scores total, tax and items, and lists every miss', async () => {
    const report = await evaluate({ analyzer: 'textract', dir });
    expect(report.fields.total).toMatchObject({ correct: 2, total: 2 });
    expect(report.fields.tax).toMatchObject({ correct: 3, total: 3 });
    expect(report.totalAndTax).toMatchObject({ correct: 2, total: 2 });
    expect(report.items).toMatchObject({ expected: 4, got: 2, matched: 2, precision: 1, recall: 0.5 });
    const text = formatReport(report);
    expect(text).toMatch(/items\s+precision 100\.0 %\s+recall 50\.0 %/);
    expect(text).toContain('expected "RICE" 1 x - = 8000');
    expect(text).toContain('expected "SOUP" 1 x - = 9000');
  });

  it('reports one half of the folder with split', async () => {
    expect((await evaluate({ analyzer: 'textract', dir, split: 'even' })).results.map((r) => r.id)).toEqual([
      'a',
      'c',
    ]);
    expect((await evaluate({ analyzer: 'textract', dir, split: 'odd' })).results.map((r) => r.id)).toEqual([
      'b',
    ]);
  });
});
