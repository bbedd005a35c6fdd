import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { RECEIPT_COLUMNS, receiptLines, renderPrintedLines, type ReceiptSpec } from './receipt-images';

/**
 * Multi-page PDF receipts for tests, made with pdf-lib: an e-mailed receipt whose text layer runs over
 * several pages, and scans, whose pages are only pictures of the printed lines.
 */

export interface PdfReceiptOptions {
  /** Pages to spread the receipt over (default 2): the header on the first, the totals on the last. */
  pages?: number;
  /** 1-based pages that are scans (a JPEG of the page's lines, no text layer). */
  scannedPages?: readonly number[];
}

const FONT_SIZE = 9;
const LEADING = 11;
const MARGIN = 20;

/**
 * The receipt's printed lines split into `pages` parts between its items: the first part holds the
 * header and the first items, the last the remaining items and the totals.
 */
export function receiptPageLines(spec: ReceiptSpec, pages: number): string[][] {
  const lines = receiptLines(spec);
  if (pages <= 1) return [lines];
  if (spec.items.length < pages) throw new Error(`${spec.items.length} items cannot fill ${pages} pages.`);
  // Where each item starts: the line that begins with its description, after the previous one.
  const starts: number[] = [];
  let from = 0;
  for (const item of spec.items) {
    const at = lines.findIndex((line, i) => i >= from && line.startsWith(item.description));
    starts.push(at);
    from = at + 1;
  }
  const cuts: number[] = [];
  for (let p = 1; p < pages; p++) cuts.push(starts[Math.round((p * spec.items.length) / pages)]!);
  const parts: string[][] = [];
  let start = 0;
  for (const cut of [...cuts, lines.length]) {
    parts.push(lines.slice(start, cut));
    start = cut;
  }
  return parts;
}

/** The receipt as a PDF of `pages` pages, each numbered `Page n of N` at its foot. */
export async function multiPageReceiptPdf(
  spec: ReceiptSpec,
  options: PdfReceiptOptions = {},
): Promise<Uint8Array> {
  const parts = receiptPageLines(spec, options.pages ?? 2);
  const doc = await PDFDocument.create();
  const courier = await doc.embedFont(StandardFonts.Courier);
  const width = Math.ceil(RECEIPT_COLUMNS * FONT_SIZE * 0.6 + 2 * MARGIN);
  const tallest = Math.max(...parts.map((p) => p.length)) + 2;
  const height = tallest * LEADING + 2 * MARGIN;
  for (const [i, lines] of parts.entries()) {
    const page = doc.addPage([width, height]);
    const number = i + 1;
    if (options.scannedPages?.includes(number)) {
      const jpeg = await doc.embedJpg(await renderPrintedLines(lines, { format: 'jpeg' }));
      const scale = Math.min(width / jpeg.width, height / jpeg.height);
      page.drawImage(jpeg, {
        x: 0,
        y: height - jpeg.height * scale,
        width: jpeg.width * scale,
        height: jpeg.height * scale,
      });
      continue;
    }
    lines.forEach((line, n) => {
      page.drawText(line, {
        x: MARGIN,
        y: height - MARGIN - (n + 1) * LEADING,
        size: FONT_SIZE,
        font: courier,
        color: rgb(0, 0, 0),
      });
    });
    page.drawText(`Page ${number} of ${parts.length}`, { x: MARGIN, y: MARGIN / 2, size: 7, font: courier });
  }
  return doc.save();
}

/** A PDF of `pages` pages with a line of text each: too long to be a receipt. */
export async function longPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    doc
      .addPage([300, 400])
      .drawText(`Statement page ${n} with enough text to read`, { x: 20, y: 350, size: 10, font });
  }
  return doc.save();
}
