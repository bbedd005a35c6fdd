import type { PDFContext, PDFDict } from 'pdf-lib';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import { assertImageSizeWithinLimits } from './image-size';

/**
 * The most pages a PDF receipt may have. A long till roll printed to A4 runs to three or four pages;
 * a longer PDF is a statement or a catalogue, and every page analysed is paid for (Textract bills per
 * page) or read for seconds (OCR).
 */
export const MAX_PDF_PAGES = 10;

/**
 * How many bytes a PDF's object and cross-reference streams may inflate to, together. They hold the
 * document's structure (page dictionaries, fonts' descriptions, the object index): a receipt's take
 * kilobytes. A PDF whose structure inflates past this is a decompression bomb, refused before the
 * parser inflates it whole.
 */
export const MAX_PDF_STRUCTURE_BYTES = 16 * 1024 * 1024;

const unreadablePdf = (cause?: unknown) =>
  new UnsupportedMediaTypeError(
    'The PDF could not be read: it may be damaged. Save or print it as a PDF again, or upload a photo of the receipt.',
    { code: 'UnreadablePdf', cause },
  );

/**
 * The number of pages of a PDF, counted by walking its page tree from the document catalog with
 * pdf-lib's parser, which reads the objects wherever they are kept: written out plainly or in
 * compressed object streams (pdf-lib's own default, and most PDF writers' since PDF 1.5). The leaves
 * are counted rather than the tree's `/Count`, which a file may state wrongly.
 * @throws UnsupportedMediaTypeError when the PDF cannot be parsed or has no page tree
 * @throws PayloadTooLargeError when its object streams inflate past {@link MAX_PDF_STRUCTURE_BYTES}
 */
export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  await assertStructureInflatesWithin(bytes, MAX_PDF_STRUCTURE_BYTES);
  // Loaded on first use: only PDFs need it, and it is the largest library of the upload.
  const pdf = await import('pdf-lib');
  const { PDFArray, PDFName, PDFRef } = pdf;
  let context: PDFContext;
  try {
    context = await pdf.PDFParser.forBytesWithOptions(bytes, Infinity, false).parseDocument();
  } catch (cause) {
    throw unreadablePdf(cause);
  }
  const Type = PDFName.of('Type');
  const asDict = (object: unknown) => {
    const found = object instanceof PDFRef ? context.lookup(object) : object;
    return found instanceof pdf.PDFDict ? found : undefined;
  };
  let catalog = asDict(context.trailerInfo.Root);
  if (!catalog) {
    // A file without a usable trailer: its catalog is the object of type Catalog.
    catalog = context
      .enumerateIndirectObjects()
      .map(([, object]) => asDict(object))
      .find((dict) => dict?.get(Type) === PDFName.of('Catalog'));
  }
  const root = catalog && asDict(catalog.get(PDFName.of('Pages')));
  if (!root) throw unreadablePdf();

  const Kids = PDFName.of('Kids');
  const seen = new Set<unknown>([root]);
  const pending: PDFDict[] = [root];
  let pages = 0;
  while (pending.length > 0) {
    const node = pending.pop()!;
    const kids = node.get(Kids);
    const list = kids instanceof PDFRef ? context.lookup(kids) : kids;
    if (!(list instanceof PDFArray)) {
      pages += 1;
      continue;
    }
    for (let i = 0; i < list.size(); i++) {
      const kid = asDict(list.get(i));
      // A kid met twice (a loop in a damaged tree) is counted once.
      if (!kid || seen.has(kid)) continue;
      seen.add(kid);
      pending.push(kid);
    }
  }
  if (pages === 0) throw unreadablePdf();
  return pages;
}

/**
 * Refuses a PDF past {@link MAX_PDF_PAGES} pages before it is stored or analysed.
 * @throws PayloadTooLargeError (HTTP 413) saying how many pages it has and what is accepted
 */
export async function assertPdfPagesWithinLimit(bytes: Uint8Array): Promise<number> {
  const pages = await countPdfPages(bytes);
  if (pages > MAX_PDF_PAGES) {
    throw new PayloadTooLargeError(
      `This PDF has ${pages} pages; a receipt may have at most ${MAX_PDF_PAGES}. Upload a PDF with only the receipt’s pages.`,
      { code: 'PdfTooManyPages' },
    );
  }
  return pages;
}

const STRUCTURE_STREAM = /\/Type\s*\/(?:ObjStm|XRef)(?![A-Za-z0-9])/g;
const STREAM_START = /stream\r?\n/g;

/**
 * Inflates each object and cross-reference stream (the streams the parser inflates to read the
 * document) with a cap on the total output, so a bomb stops at the cap instead of taking the memory.
 * Streams that do not inflate (another filter, damaged data) are left to the parser.
 */
async function assertStructureInflatesWithin(bytes: Uint8Array, budget: number): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!/\/(?:ObjStm|XRef)/.test(text)) return;
  const { inflateSync, constants } = await import('node:zlib');
  let left = budget;
  for (const match of text.matchAll(STRUCTURE_STREAM)) {
    const objectStart = text.lastIndexOf(' obj', match.index);
    STREAM_START.lastIndex = match.index;
    const start = STREAM_START.exec(text);
    if (!start) continue;
    const dictionary = text.slice(Math.max(0, objectStart), start.index);
    if (!dictionary.includes('/FlateDecode')) continue;
    const dataStart = start.index + start[0].length;
    const end = text.indexOf('endstream', dataStart);
    const data = bytes.subarray(dataStart, end < 0 ? bytes.length : end);
    let inflated: Buffer | null;
    try {
      inflated = inflateSync(data, { maxOutputLength: left + 1, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue;
      inflated = null;
    }
    left = inflated ? left - inflated.length : -1;
    if (left < 0) {
      throw new PayloadTooLargeError(
        `The PDF's structure inflates to more than ${budget / (1024 * 1024)} MB, far more than a receipt needs; it was not read. Save or print the receipt as a PDF again, or upload a photo of it.`,
        { code: 'PdfTooLargeInflated' },
      );
    }
  }
}

/**
 * Refuses a file whose content is past what a receipt needs, read from its header or structure
 * without decoding it: a PDF of more than {@link MAX_PDF_PAGES} pages, a picture of more than
 * MAX_IMAGE_PIXELS pixels. Both the upload and the scan worker check it (the worker for files
 * stored before these limits, or by another way in).
 * @throws PayloadTooLargeError (HTTP 413) or UnsupportedMediaTypeError (HTTP 415) saying why
 */
export async function assertDocumentWithinLimits(bytes: Uint8Array, contentType: string): Promise<void> {
  if (contentType === 'application/pdf') await assertPdfPagesWithinLimit(bytes);
  else assertImageSizeWithinLimits(bytes);
}
