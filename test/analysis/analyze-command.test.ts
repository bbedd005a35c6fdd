/**
 * `npm run analyze` on a rendered receipt image, with the real local OCR and the shipped brand
 * dictionary: what a person running the command on a photo gets.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisResult } from '@receipts/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyze } from '../../tools/src/cli/analyze-command';
import { SAMPLE_RECEIPTS, sampleReceiptJpeg } from '../support/receipt-images';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'analyze-command-'));
  await writeFile(join(dir, 'receipt.jpg'), await sampleReceiptJpeg(0));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run analyze on an image', () => {
  it('prints the receipt read by OCR, with brands and their owners', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runAnalyze([join(dir, 'receipt.jpg')], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as AnalysisResult;
    const truth = SAMPLE_RECEIPTS[0]!.truth;
    expect(result.analyzer).toBe('ocr');
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt.total_amount).toBe(truth.receipt.total_amount);
    expect(result.receipt.transaction_date).toBe(truth.receipt.transaction_date);
    const brands = new Map(result.items.map((i) => [i.description, [i.brand, i.owning_corporation]]));
    expect(brands.get('COCA-COLA 1.5L')).toEqual(['Coca-Cola', 'The Coca-Cola Company']);
    expect(brands.get('HEINZ KETCHUP')).toEqual(['Heinz', 'The Kraft Heinz Company']);
    expect(brands.get('DOVE SOAP')).toEqual(['Dove', 'Unilever']);
    expect(result.raw).toBeTruthy();
  });
});
