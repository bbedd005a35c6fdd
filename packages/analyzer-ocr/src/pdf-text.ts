import { AnalyzerError } from '@receipts/core';

/** The text of a PDF receipt, rebuilt line by line from its text layer. */
export interface PdfText {
  text: string;
  pages: number;
}

/** Receipts are short; a long PDF is a statement or a catalogue, and reading it all costs time. */
const MAX_PAGES = 5;

interface PositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Reads the text layer of a PDF (e-mailed and downloaded receipts have one) with pdfjs-dist, and
 * lays the pieces out as printed lines: pieces on the same baseline join left to right, separated by
 * spaces where there is a gap. Scanned PDFs have no text layer and are refused with a message that
 * says what to upload instead.
 * @throws AnalyzerError (not retryable) for a damaged PDF or one without text
 */
export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  // Loaded on first use: most receipts are photos, and pdf.js is large.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: Awaited<ReturnType<typeof getDocument>['promise']> | undefined;
  try {
    doc = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
    const pageTexts: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
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
      pageTexts.push(layOut(pieces));
      page.cleanup();
    }
    const text = pageTexts.join('\n').trim();
    if (text.length === 0) {
      throw new AnalyzerError(
        'This PDF has no text to read (it looks like a scan). Upload the receipt as a photo (JPEG, PNG or WebP) instead.',
        { retryable: false, code: 'PdfWithoutText' },
      );
    }
    return { text, pages: doc.numPages };
  } catch (cause) {
    if (cause instanceof AnalyzerError) throw cause;
    throw new AnalyzerError(
      'The PDF could not be opened. It may be damaged or password-protected; upload a photo of the receipt instead.',
      {
        cause,
        retryable: false,
        code: 'UnreadablePdf',
      },
    );
  } finally {
    await doc?.destroy();
  }
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
