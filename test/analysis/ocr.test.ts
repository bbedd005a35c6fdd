import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyzerError } from '@receipts/core';
import { HEADING_SHARE, OcrAnalyzer, englishDataPath, renderPdfFirstPage } from '@receipts/analyzer-ocr';
import { SAMPLE_RECEIPTS, receiptPdf, renderReceipt, sampleReceiptJpeg } from '../support/receipt-images';
import { longPdf, multiPageReceiptPdf } from '../support/receipt-pdfs';

let analyzer: OcrAnalyzer;

beforeAll(async () => {
  analyzer = await OcrAnalyzer.create({ workers: 2 });
});

afterAll(async () => {
  await analyzer?.close();
});

describe('OcrAnalyzer on the sample receipts', () => {
  it.each(SAMPLE_RECEIPTS.map((s, i) => [s.name, i] as const))('reads the %s exactly', async (_name, i) => {
    const { truth } = SAMPLE_RECEIPTS[i]!;
    const result = await analyzer.analyze(await sampleReceiptJpeg(i), 'image/jpeg');
    expect(result.analyzer).toBe('ocr');
    expect(result.merchant).toMatchObject(truth.merchant);
    expect(result.receipt).toMatchObject({ ...truth.receipt, total_checks_out: true });
    expect(result.items).toEqual(truth.items);
    expect(result.confidence['receipt.total_amount']).toBeGreaterThan(0.5);
    expect(result.confidence['receipt.total_amount']).toBeLessThanOrEqual(1);
  });

  it('keeps the OCR text and its lines with confidences as the raw output', async () => {
    const result = await analyzer.analyze(await sampleReceiptJpeg(0), 'image/jpeg');
    const raw = result.raw as {
      engine: string;
      readings: Array<{ text: string; lines: Array<{ text: string; confidence: number }> }>;
    };
    expect(raw.engine).toBe('tesseract.js');
    expect(raw.readings.length).toBeGreaterThanOrEqual(2);
    expect(raw.readings[0]!.text).toContain('FRESHMART GROCERS');
    expect(raw.readings[0]!.lines.find((l) => l.text.startsWith('TOTAL'))?.confidence).toBeGreaterThan(50);
    // The whole of it survives a JSON round trip, for storage and the JSON viewer.
    expect(JSON.parse(JSON.stringify(result.raw))).toEqual(result.raw);
  });

  it('reads PNG and WebP as well as JPEG', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[2]!;
    const png = await renderReceipt(spec, { format: 'png' });
    const webp = new Uint8Array(await sharp(png).webp({ quality: 90 }).toBuffer());
    for (const [bytes, type] of [
      [png, 'image/png'],
      [webp, 'image/webp'],
    ] as const) {
      const result = await analyzer.analyze(bytes, type);
      expect(result.receipt.total_amount, type).toBe(truth.receipt.total_amount);
      expect(result.merchant.name, type).toBe(truth.merchant.name);
    }
  });

  it('still finds the total and the date on a rotated, noisy, downscaled phone photo', async () => {
    for (const [i, { truth }] of SAMPLE_RECEIPTS.entries()) {
      const result = await analyzer.analyze(await sampleReceiptJpeg(i, { photo: true }), 'image/jpeg');
      expect(result.receipt.total_amount, truth.merchant.name).toBe(truth.receipt.total_amount);
      expect(result.receipt.transaction_date, truth.merchant.name).toBe(truth.receipt.transaction_date);
    }
  });

  it('turns a photo taken sideways upright from its EXIF orientation', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[0]!;
    // Small enough to be rescaled before OCR, and large enough to be read as it is.
    for (const lineHeight of [30, 48]) {
      const upright = await renderReceipt(spec, { format: 'png', lineHeight });
      // Stored rotated a quarter turn, with the orientation tag that tells viewers to turn it back.
      const sideways = new Uint8Array(
        await sharp(upright).rotate(-90).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer(),
      );
      const result = await analyzer.analyze(sideways, 'image/jpeg');
      expect(result.receipt.total_amount, `line height ${lineHeight}`).toBe(truth.receipt.total_amount);
    }
  });

  it('finds a small receipt on a large scanned page', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[1]!;
    const receipt = await renderReceipt(spec, { format: 'png' });
    const page = new Uint8Array(
      await sharp({ create: { width: 2480, height: 3508, channels: 3, background: '#ffffff' } })
        .composite([{ input: Buffer.from(receipt), left: 900, top: 400 }])
        .jpeg()
        .toBuffer(),
    );
    const result = await analyzer.analyze(page, 'image/jpeg');
    const raw = result.raw as { readings: Array<{ steps: string[] }> };
    expect(raw.readings[0]!.steps.some((s) => s.startsWith('crop'))).toBe(true);
    expect(result.receipt.total_amount).toBe(truth.receipt.total_amount);
    expect(result.merchant.name).toBe(truth.merchant.name);
  });

  it('reads a PDF receipt from its text layer', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[1]!;
    const result = await analyzer.analyze(receiptPdf(spec), 'application/pdf');
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt).toMatchObject({
      total_amount: truth.receipt.total_amount,
      transaction_date: truth.receipt.transaction_date,
      currency_code: 'GBP',
    });
    expect(result.items).toEqual(truth.items);
    expect((result.raw as { engine: string }).engine).toBe('pdf-text-layer');
  });
});

describe('OcrAnalyzer on multi-page and scanned PDFs: one receipt per PDF', () => {
  type PdfRaw = { engine: string; pages: number; pageTexts: Array<{ page: number; source: string }> };

  it('reads a 2-page PDF as one receipt: header from page 1, items from both pages, total from page 2', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[0]!;
    const result = await analyzer.analyze(await multiPageReceiptPdf(spec, { pages: 2 }), 'application/pdf');
    expect(result.merchant).toMatchObject(truth.merchant);
    expect(result.receipt).toMatchObject({ ...truth.receipt, total_checks_out: true });
    // COCA-COLA and HEINZ KETCHUP are printed on page 1, DOVE SOAP on page 2.
    expect(result.items).toEqual(truth.items);
    const raw = result.raw as PdfRaw;
    expect(raw.engine).toBe('pdf-text-layer');
    expect(raw.pages).toBe(2);
    expect((result.raw as { text: string }).text).not.toMatch(/Page \d of 2/);
  });

  it('reads a 3-page PDF whose totals are on the last page', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[1]!;
    const result = await analyzer.analyze(await multiPageReceiptPdf(spec, { pages: 3 }), 'application/pdf');
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt).toMatchObject({ total_amount: truth.receipt.total_amount, currency_code: 'GBP' });
    expect(result.items).toEqual(truth.items);
  });

  it('OCRs a scanned PDF page (a picture of the receipt, no text layer)', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[2]!;
    const result = await analyzer.analyze(
      await multiPageReceiptPdf(spec, { pages: 1, scannedPages: [1] }),
      'application/pdf',
    );
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt).toMatchObject({
      total_amount: truth.receipt.total_amount,
      transaction_date: truth.receipt.transaction_date,
      currency_code: 'MYR',
    });
    expect(result.items).toEqual(truth.items);
    expect((result.raw as PdfRaw).engine).toBe('pdf-ocr');
  });

  it('joins a text page and a scanned page: the items and the total of the scanned page 2 are read', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[0]!;
    const result = await analyzer.analyze(
      await multiPageReceiptPdf(spec, { pages: 2, scannedPages: [2] }),
      'application/pdf',
    );
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt).toMatchObject({
      total_amount: truth.receipt.total_amount,
      transaction_date: truth.receipt.transaction_date,
      total_checks_out: true,
    });
    expect(result.items.map((i) => [i.description, i.total_price])).toEqual(
      truth.items.map((i) => [i.description, i.total_price]),
    );
    const raw = result.raw as PdfRaw;
    expect(raw.pageTexts.map((p) => p.source)).toEqual(['text-layer', 'ocr']);
  });
});

describe('renderPdfFirstPage (previews of PDF receipts)', () => {
  it('draws the first page as a PNG of the asked width, with the receipt printed on it', async () => {
    const { spec, truth } = SAMPLE_RECEIPTS[0]!;
    const png = await renderPdfFirstPage(await multiPageReceiptPdf(spec, { pages: 2 }), 400);
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(400);
    // Not a blank page: the standard Courier is drawn without system fonts, and reads back.
    const reread = await analyzer.analyze(png, 'image/png');
    expect(reread.merchant.name).toBe(truth.merchant.name);
  });
});

describe('OcrAnalyzer refuses what it cannot read, with a message that says what to do', () => {
  const refusal = async (bytes: Uint8Array, type: string) => {
    const error = await analyzer.analyze(bytes, type).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalyzerError);
    expect((error as AnalyzerError).retryable).toBe(false);
    return (error as AnalyzerError).message;
  };

  it('text bytes sent as a JPEG', async () => {
    const message = await refusal(new TextEncoder().encode('this is not a picture'), 'image/jpeg');
    expect(message).toMatch(/labelled image\/jpeg but its contents are not a JPEG, PNG, WebP or PDF/);
  });

  it('a file type it does not read', async () => {
    const gif = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .gif()
        .toBuffer(),
    );
    expect(await refusal(gif, 'image/gif')).toMatch(/JPEG, PNG, WebP or PDF/);
  });

  it('a JPEG cut short', async () => {
    const whole = await sampleReceiptJpeg(0);
    expect(await refusal(whole.slice(0, 400), 'image/jpeg')).toMatch(/could not be read as an image/);
  });

  it('a PDF with more pages than a receipt has', async () => {
    expect(await refusal(await longPdf(11), 'application/pdf')).toBe(
      'This PDF has 11 pages; a receipt may have at most 10. Upload a PDF with only the receipt’s pages.',
    );
  });

  it('a blank PDF page, and a damaged PDF', async () => {
    const blank = receiptPdf(SAMPLE_RECEIPTS[0]!.spec, { textLayer: false });
    expect(await refusal(blank, 'application/pdf')).toMatch(/No text could be read from this PDF/);
    expect(await refusal(new TextEncoder().encode('%PDF-1.7\nnot really'), 'application/pdf')).toMatch(
      /could not be opened/,
    );
  });
});

describe('OcrAnalyzer set-up', () => {
  it('loads the English model from the npm package folder, not the network', () => {
    const dir = englishDataPath();
    expect(dir.split(path.sep)).toContain('node_modules');
    expect(existsSync(path.join(dir, 'eng.traineddata.gz'))).toBe(true);
  });

  it('keeps its workers between receipts and refuses work once closed', async () => {
    const single = await OcrAnalyzer.create();
    expect(single.workers).toBe(1);
    const first = await single.analyze(await sampleReceiptJpeg(2), 'image/jpeg');
    const second = await single.analyze(await sampleReceiptJpeg(2), 'image/jpeg');
    expect(second.receipt).toEqual(first.receipt);
    await single.close();
    await expect(single.analyze(await sampleReceiptJpeg(2), 'image/jpeg')).rejects.toThrow(/closed/);
  });
});

describe('OcrAnalyzer with the combined engine (PaddleOCR for figures, Tesseract for words)', () => {
  let combined: OcrAnalyzer;
  let rejectionListeners = 0;
  let exceptionListeners = 0;

  beforeAll(async () => {
    rejectionListeners = process.listenerCount('unhandledRejection');
    exceptionListeners = process.listenerCount('uncaughtException');
    combined = await OcrAnalyzer.create({ workers: 1, engine: 'combined' });
  });

  afterAll(async () => {
    await combined?.close();
  });

  it('reads a sample receipt with PaddleOCR and its heading with Tesseract, offline from node_modules', async () => {
    const { truth } = SAMPLE_RECEIPTS[0]!;
    const result = await combined.analyze(await sampleReceiptJpeg(0), 'image/jpeg');
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt.total_amount).toBe(truth.receipt.total_amount);
    expect(result.receipt.transaction_date).toBe(truth.receipt.transaction_date);
    expect(result.confidence['receipt.total_amount']).toBeGreaterThanOrEqual(0.9);
    const raw = result.raw as {
      engine: string;
      paddle: { lines: { text: string }[] };
      tesseract: { heading: number; readings: { text: string }[] };
      tesseractWhole?: unknown;
    };
    expect(raw.engine).toBe('paddleocr+tesseract.js');
    expect(raw.paddle.lines.length).toBeGreaterThan(5);
    // Tesseract read the heading only: the name, not the total printed further down.
    expect(raw.tesseract.heading).toBe(HEADING_SHARE);
    const headingText = raw.tesseract.readings.map((r) => r.text).join('\n');
    expect(headingText.toUpperCase()).toContain(truth.merchant.name!.toUpperCase().split(' ')[0]);
    expect(headingText).not.toMatch(/TOTAL/i);
    expect(raw.tesseractWhole).toBeUndefined();
  });

  it("reads no heading with Tesseract when PaddleOCR's company name stands on its own", async () => {
    const { truth } = SAMPLE_RECEIPTS[2]!;
    const result = await combined.analyze(await sampleReceiptJpeg(2), 'image/jpeg');
    expect(result.merchant.name).toBe(truth.merchant.name);
    expect(result.receipt.total_amount).toBe(truth.receipt.total_amount);
    expect(result.receipt.transaction_date).toBe(truth.receipt.transaction_date);
    const raw = result.raw as { engine: string; tesseract?: unknown; tesseractWhole?: unknown };
    expect(raw.engine).toBe('paddleocr');
    expect(raw.tesseract).toBeUndefined();
    expect(raw.tesseractWhole).toBeUndefined();
  });

  it('leaves the process its own handlers: loading PaddleOCR adds no abort on unhandled rejections', () => {
    expect(process.listenerCount('unhandledRejection')).toBe(rejectionListeners);
    expect(process.listenerCount('uncaughtException')).toBe(exceptionListeners);
  });
});
