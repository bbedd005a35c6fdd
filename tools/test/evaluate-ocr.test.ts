import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult, Analyzer } from '@receipts/core';
import { chainMatches, evaluate, formatReport } from '../src/eval/evaluate';
import { descriptionOverlap, sameMeasure, scoreLabelledItems } from '../src/eval/labels';

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

/** An analysis as the analyzer under test would give it. */
function analysis(
  name: string,
  date: string,
  total: number,
  items: Array<[string, number]>,
  confidence: Record<string, number> = {},
): AnalysisResult {
  const sum = items.reduce((s, [, a]) => s + a, 0);
  return {
    analyzer: 'test',
    merchant: { name } as AnalysisResult['merchant'],
    receipt: {
      transaction_date: date,
      total_amount: total,
      total_tax: null,
      total_checks_out: items.length > 0 && Math.abs(sum - total) < 0.01,
    } as AnalysisResult['receipt'],
    items: items.map(([description, amount]) => ({
      description,
      quantity: 1,
      unit_price: amount,
      total_price: amount,
    })) as AnalysisResult['items'],
    taxes: [],
    confidence,
    raw: null,
  };
}

/** Stands in for the OCR analyzer: each "image" holds the analysis to return, as JSON. */
const fromFile: Analyzer = {
  name: 'test',
  analyze: (bytes: Uint8Array) =>
    Promise.resolve(JSON.parse(Buffer.from(bytes).toString('utf8')) as AnalysisResult),
};

describe('chainMatches', () => {
  it('finds the chain in the merchant name read, letters only, either way round', () => {
    expect(chainMatches('aldi', 'ALDI GmbH & Co. KG')).toBe(true);
    expect(chainMatches('real', 'real,- SB-Warenhaus')).toBe(true);
    expect(chainMatches('marktkauf', 'Markt')).toBe(true);
    expect(chainMatches('aldi', 'Pohlweg 110')).toBe(false);
    expect(chainMatches('aldi', null)).toBe(false);
    expect(chainMatches('aldi', '110')).toBe(false);
  });
});

describe('labelled items', () => {
  it('match on shared words (one misread letter allowed) and an equal amount', () => {
    expect(descriptionOverlap('GARDENIA CLASSIC 400G', 'GARDENlA CLASSIC 400G')).toBe(1);
    expect(descriptionOverlap('Bio Bananen', 'BANANEN')).toBe(0.5);
    expect(descriptionOverlap('TEA', 'TEE')).toBe(0);
    const score = scoreLabelledItems(
      [item('Bio Bananen', 1, 1.99, 1.99), item('Milch 3,5%', 2, 0.89, 1.78), item('Brot', 1, 2.5, 2.5)],
      [
        item('BIO BANANEN', 1, 1.99, 1.99),
        item('MILCH 3 5', 2, 0.89, 1.87),
        item('ZU ZAHLEN', 1, 6.27, 6.27),
      ],
    );
    expect(score).toMatchObject({ expected: 3, got: 3, matched: 1, measured: 1 });
    expect(score.missed.map((m) => m.description)).toEqual(['Milch 3,5%', 'Brot']);
  });

  it('count a matched item as measured when its quantity and unit price are the label’s', () => {
    expect(sameMeasure(item('Kiwis', 3, 0.79, 2.37), item('KIWIS', 3, 0.79, 2.37))).toBe(true);
    expect(sameMeasure(item('Kiwis', 3, 0.79, 2.37), item('KIWIS', null, null, 2.37))).toBe(false);
    expect(sameMeasure(item('Brot', 1, 2.5, 2.5), item('BROT', null, null, 2.5))).toBe(true);
    expect(sameMeasure(item('Bananen', 0.158, 1.19, 0.19), item('BANANEN', 0.158, 1.2, 0.19))).toBe(false);
    const score = scoreLabelledItems(
      [item('Kiwis', 3, 0.79, 2.37), item('Brot', 1, 2.5, 2.5)],
      [item('KIWIS', null, null, 2.37), item('BROT', 1, 2.5, 2.5)],
    );
    expect(score).toMatchObject({ matched: 2, measured: 1 });
  });
});

describe('evaluate on German-style truth with labels and review flags', () => {
  let dir: string;
  let labels: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'receipt-eval-de-'));
    labels = path.join(dir, 'labels');
    await mkdir(labels);
    const write = async (id: string, truth: object, read: AnalysisResult, label?: object) => {
      await writeFile(path.join(dir, `${id}.json`), JSON.stringify(truth));
      await writeFile(path.join(dir, `${id}.jpg`), JSON.stringify(read));
      if (label) await writeFile(path.join(labels, `${id}.json`), JSON.stringify(label));
    };
    // Right, and its items add up: not flagged.
    await write(
      'a',
      { company: 'aldi', date: '2020-03-02', total: '3.49', items_count: 2 },
      analysis('ALDI GmbH & Co. KG', '2020-03-02', 3.49, [
        ['Bio Bananen', 1.99],
        ['Brot', 1.5],
      ]),
      { items: [item('Bio Bananen', 1, 1.99, 1.99), item('Brot', 1, 1.5, 1.5)] },
    );
    // A wrong total, no items, nothing unsure: a silent error.
    await write(
      'b',
      { company: 'real', date: '2020-04-15', total: '19.46', items_count: null },
      analysis('Pohlweg 110', '2020-04-15', 16.49, []),
    );
    // Right total and date, items that do not add up: flagged, a false alarm.
    await write(
      'c',
      { company: 'toom', date: '2020-04-04', total: '48.77', items_count: 3 },
      analysis('toom Baumarkt GmbH', '2020-04-04', 48.77, [
        ['Farbe', 40],
        ['ZU ZAHLEN EURO', 48.77],
      ]),
      { items: [item('Farbe', 1, 40, 40), item('Pinsel', 2, 4.39, 8.78)] },
    );
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('scores the chain, item count, labelled items, review flags and each half', async () => {
    const report = await evaluate({
      analyzer: 'ocr',
      dir,
      ocr: fromFile,
      labelsDir: labels,
      today: '2026-01-01',
    });
    const s = report.summary;
    expect(s.fields.company).toEqual({ count: 2, of: 3 });
    expect(s.fields.total).toEqual({ count: 2, of: 3 });
    expect(s.itemCount).toEqual({ count: 1, of: 2 });
    expect(s.labelled).toMatchObject({ receipts: 2, expected: 4, got: 4, matched: 3 });
    expect(s.itemsAddUp).toEqual({ count: 1, of: 3 });
    expect(s.flagged).toEqual({ count: 1, of: 3 });
    expect(s.silent).toEqual({ count: 1, of: 3 });
    expect(s.falseAlarms).toEqual({ count: 1, of: 3 });
    expect(report.halves?.even.fields.total).toEqual({ count: 2, of: 2 });
    expect(report.halves?.odd.silent).toEqual({ count: 1, of: 1 });
    const text = formatReport(report);
    expect(text).toMatch(/silent\s+33\.3 \(1\/3\)\s+0\.0 \(0\/2\)\s+100\.0 \(1\/1\)/);
    expect(text).toContain('b  total "16.49" (truth "19.46")');
    expect(text).toContain('expected "Pinsel" 2 x 4.39 = 8.78');
  });
});
