import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { getDocument as getDocumentType } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { AnalyzerError, MAX_PDF_PAGES } from '@receipts/core';

export { MAX_PDF_PAGES };

/** One page of a PDF receipt: its text layer, or, for a page without one (a scan), its picture. */
export type PdfPage =
  | { number: number; kind: 'text'; text: string }
  | { number: number; kind: 'image'; png: Uint8Array; width: number; height: number };

/** A page whose text layer has fewer printed characters than this is read as a picture. */
const MIN_TEXT_CHARS = 20;
/** Width to render a scanned page at for OCR (about 200 dpi for an A4 page, more for a narrow roll). */
const OCR_WIDTH_PX = 1700;
/** Keeps a rendered page within Tesseract's comfortable size (a very long roll is scaled down). */
const MAX_RENDER_PIXELS = 16_000_000;

interface PositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentType>['promise']>;
type PdfPageProxy = Awaited<ReturnType<PdfDocument['getPage']>>;

const requireFromHere = createRequire(import.meta.url);

/**
 * The Standard 14 fonts' outlines shipped with pdfjs-dist: a PDF that names Courier or Helvetica
 * without embedding it is drawn with these, the same on every machine (no system fonts needed).
 */
function standardFontDataUrl(): string {
  const pkg = requireFromHere.resolve('pdfjs-dist/package.json');
  return pathToFileURL(path.join(path.dirname(pkg), 'standard_fonts') + path.sep).href;
}

const unreadable = (cause: unknown) =>
  new AnalyzerError(
    'The PDF could not be opened. It may be damaged or password-protected; upload a photo of the receipt instead.',
    { cause, retryable: false, code: 'UnreadablePdf' },
  );

/**
 * Opens a PDF with pdfjs-dist, runs `use` on it and closes it.
 * @throws AnalyzerError (not retryable) for a damaged or password-protected PDF
 */
async function withPdf<T>(bytes: Uint8Array, use: (doc: PdfDocument) => Promise<T>): Promise<T> {
  // Loaded on first use: most receipts are photos, and pdf.js is large.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: PdfDocument | undefined;
  try {
    doc = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      // Glyphs are drawn as paths from the font programs (embedded, or the standard fonts above),
      // not through system fonts, which a server may not have.
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: standardFontDataUrl(),
      verbosity: 0,
    }).promise;
  } catch (cause) {
    throw unreadable(cause);
  }
  try {
    return await use(doc);
  } catch (cause) {
    if (cause instanceof AnalyzerError) throw cause;
    throw unreadable(cause);
  } finally {
    await doc.destroy();
  }
}

/** Renders one page to PNG at `scale` (1 = 72 dpi), with a white background. */
async function renderPage(
  doc: PdfDocument,
  page: PdfPageProxy,
  scale: number,
): Promise<{ png: Uint8Array; width: number; height: number }> {
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  // pdf.js's Node canvas factory builds on @napi-rs/canvas (prebuilt binaries, no install script).
  const factory = (
    doc as unknown as {
      canvasFactory: { create(w: number, h: number): { canvas: { toBuffer(type: 'image/png'): Buffer } } };
    }
  ).canvasFactory;
  const { canvas } = factory.create(width, height);
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport, background: '#ffffff' })
    .promise;
  return { png: new Uint8Array(canvas.toBuffer('image/png')), width, height };
}

/** The scale that renders a page of `width` x `height` points for OCR. */
function ocrScale(width: number, height: number): number {
  let scale = Math.min(4, Math.max(1.5, OCR_WIDTH_PX / Math.max(1, width)));
  const pixels = width * height * scale * scale;
  if (pixels > MAX_RENDER_PIXELS) scale *= Math.sqrt(MAX_RENDER_PIXELS / pixels);
  return scale;
}

/**
 * Reads every page of a PDF receipt with pdfjs-dist: the text layer where there is one (e-mailed and
 * downloaded receipts), laid out as printed lines; a page without text (a scan, or a photo saved as
 * PDF) is rendered to a PNG for OCR instead.
 * @throws AnalyzerError (not retryable) for a damaged PDF, or one with more than {@link MAX_PDF_PAGES} pages
 */
export async function readPdfPages(bytes: Uint8Array): Promise<PdfPage[]> {
  return withPdf(bytes, async (doc) => {
    if (doc.numPages > MAX_PDF_PAGES) {
      throw new AnalyzerError(
        `This PDF has ${doc.numPages} pages; a receipt may have at most ${MAX_PDF_PAGES}. ` +
          'Upload a PDF with only the receipt’s pages.',
        { retryable: false, code: 'PdfTooManyPages' },
      );
    }
    const pages: PdfPage[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      try {
        const text = await pageText(page);
        if (text.replace(/\s+/g, '').length >= MIN_TEXT_CHARS) {
          pages.push({ number, kind: 'text', text });
        } else {
          const { width, height } = page.getViewport({ scale: 1 });
          pages.push({ number, kind: 'image', ...(await renderPage(doc, page, ocrScale(width, height))) });
        }
      } finally {
        page.cleanup();
      }
    }
    return pages;
  });
}

/**
 * The first page of a PDF as a PNG `width` pixels wide (the height follows the page), for a
 * preview where a picture of the receipt is expected.
 * @throws AnalyzerError (not retryable) for a damaged PDF
 */
export async function renderPdfFirstPage(bytes: Uint8Array, width = 800): Promise<Uint8Array> {
  return withPdf(bytes, async (doc) => {
    const page = await doc.getPage(1);
    try {
      const points = page.getViewport({ scale: 1 });
      let scale = width / Math.max(1, points.width);
      // A very long till roll stays a reasonable picture: at most 4 times as tall as wide.
      if (points.height * scale > width * 4) scale = (width * 4) / points.height;
      return (await renderPage(doc, page, scale)).png;
    } finally {
      page.cleanup();
    }
  });
}

async function pageText(page: PdfPageProxy): Promise<string> {
  const content = await page.getTextContent();
  const pieces: PositionedText[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim().length === 0) continue;
    const [, , , d, x, y] = item.transform as number[];
    pieces.push({
      str: item.str,
      x: x ?? 0,
      y: y ?? 0,
      width: item.width,
      height: item.height || Math.abs(d ?? 10),
    });
  }
  return layOut(pieces);
}

/** Groups pieces into lines by baseline (top to bottom), each line left to right. */
function layOut(pieces: PositionedText[]): string {
  const sorted = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PositionedText[][] = [];
  for (const piece of sorted) {
    const line = lines[lines.length - 1];
    const tolerance = Math.max(2, piece.height * 0.4);
    if (line && Math.abs(line[0]!.y - piece.y) <= tolerance) line.push(piece);
    else lines.push([piece]);
  }
  return lines
    .map((line) => {
      line.sort((a, b) => a.x - b.x);
      let out = '';
      let end = -Infinity;
      for (const p of line) {
        const gap = p.x - end;
        if (out.length > 0 && gap > p.height * 0.15 && !out.endsWith(' ') && !p.str.startsWith(' '))
          out += ' ';
        out += p.str;
        end = p.x + p.width;
      }
      return out.trim();
    })
    .join('\n');
}

/** Page furniture that is not part of the receipt: `Page 1 of 2`, `- 2 -`, `(continued)`. */
const PAGE_FURNITURE_RE =
  /^(?:page\s*\d+\s*(?:(?:of|\/)\s*\d+)?|-\s*\d+\s*-|\d+\s*\/\s*\d+|\(?continued(?: (?:on|from) (?:next|previous) page)?\)?\.?)$/i;

/**
 * The pages' text as one receipt: page numbers and continuation notes dropped, pages in order. The
 * parser then finds the header on page 1, items across the pages and the totals on the last.
 */
export function joinPageTexts(texts: readonly string[]): string {
  return texts
    .map((text) =>
      text
        .split('\n')
        .filter((line) => !PAGE_FURNITURE_RE.test(line.trim()))
        .join('\n')
        .trim(),
    )
    .filter((text) => text.length > 0)
    .join('\n');
}
