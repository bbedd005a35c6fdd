import type * as PdfLibModule from 'pdf-lib';
import type { PDFContext, PDFDict } from 'pdf-lib';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import { MAX_IMAGE_PIXELS, assertImageSizeWithinLimits } from './image-size';

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
  const { pdf, context, root } = await openPageTree(bytes);
  const Kids = pdf.PDFName.of('Kids');
  const seen = new Set<unknown>([root]);
  const pending: PDFDict[] = [root];
  let pages = 0;
  while (pending.length > 0) {
    const node = pending.pop()!;
    const kids = node.get(Kids);
    const list = kids instanceof pdf.PDFRef ? context.lookup(kids) : kids;
    if (!(list instanceof pdf.PDFArray)) {
      pages += 1;
      continue;
    }
    for (let i = 0; i < list.size(); i++) {
      const kid = dictOf(pdf, context, list.get(i));
      // A kid met twice (a loop in a damaged tree) is counted once.
      if (!kid || seen.has(kid)) continue;
      seen.add(kid);
      pending.push(kid);
    }
  }
  if (pages === 0) throw unreadablePdf();
  return pages;
}

type PdfLib = typeof PdfLibModule;

function dictOf(pdf: PdfLib, context: PDFContext, object: unknown): PDFDict | undefined {
  const found = object instanceof pdf.PDFRef ? context.lookup(object) : object;
  return found instanceof pdf.PDFDict ? found : undefined;
}

/**
 * Parses a PDF with pdf-lib after checking what its structure inflates to, and finds the root of
 * its page tree.
 */
async function openPageTree(bytes: Uint8Array): Promise<{ pdf: PdfLib; context: PDFContext; root: PDFDict }> {
  await assertStructureInflatesWithin(bytes, MAX_PDF_STRUCTURE_BYTES);
  // Loaded on first use: only PDFs need it, and it is the largest library of the upload.
  const pdf = await import('pdf-lib');
  let context: PDFContext;
  try {
    context = await pdf.PDFParser.forBytesWithOptions(bytes, Infinity, false).parseDocument();
  } catch (cause) {
    throw unreadablePdf(cause);
  }
  const Type = pdf.PDFName.of('Type');
  let catalog = dictOf(pdf, context, context.trailerInfo.Root);
  if (!catalog) {
    // A file without a usable trailer: its catalog is the object of type Catalog.
    catalog = context
      .enumerateIndirectObjects()
      .map(([, object]) => dictOf(pdf, context, object))
      .find((dict) => dict?.get(Type) === pdf.PDFName.of('Catalog'));
  }
  const root = catalog && dictOf(pdf, context, catalog.get(pdf.PDFName.of('Pages')));
  if (!root) throw unreadablePdf();
  return { pdf, context, root };
}

/**
 * How many bytes a PDF's first page may inflate to before it is drawn: its content streams and the
 * pictures and forms it draws. A receipt page takes a few MB at most (a scanned page as an
 * uncompressed picture about 25 MB); a page that inflates to more is not drawn.
 */
export const MAX_PREVIEW_INFLATED_BYTES = 48 * 1024 * 1024;

/**
 * Refuses to draw a PDF's first page when drawing it would inflate more than `budget` bytes (its
 * content streams, pictures and forms, each inflated with a cap) or decode a picture of more than
 * MAX_IMAGE_PIXELS pixels.
 * @throws PayloadTooLargeError saying why the page is not drawn
 * @throws UnsupportedMediaTypeError when the PDF cannot be parsed
 */
export async function assertFirstPageWithinLimits(
  bytes: Uint8Array,
  budget = MAX_PREVIEW_INFLATED_BYTES,
): Promise<void> {
  const { pdf, context, root } = await openPageTree(bytes);
  const name = (n: string) => pdf.PDFName.of(n);
  const lookup = (object: unknown) => (object instanceof pdf.PDFRef ? context.lookup(object) : object);
  // The first leaf, and the resources it inherits from its parents.
  let page = root;
  let resources = lookup(root.get(name('Resources')));
  for (let depth = 0; depth < 64; depth++) {
    const kids = lookup(page.get(name('Kids')));
    if (!(kids instanceof pdf.PDFArray)) break;
    const first = dictOf(pdf, context, kids.get(0));
    if (!first) throw unreadablePdf();
    page = first;
    resources = lookup(page.get(name('Resources'))) ?? resources;
  }
  const { inflateSync, constants } = await import('node:zlib');
  let left = budget;
  const tooLarge = (what: string) =>
    new PayloadTooLargeError(
      `The PDF's first page ${what}, far more than a receipt needs; it is not drawn.`,
      {
        code: 'PdfPageTooLarge',
      },
    );
  const seen = new Set<unknown>();
  const visit = (object: unknown, depth: number): void => {
    const stream = lookup(object);
    if (!(stream instanceof pdf.PDFRawStream) || seen.has(stream) || depth > 16) return;
    seen.add(stream);
    const dict = stream.dict;
    if (dict.get(name('Subtype')) === name('Image')) {
      const width = lookup(dict.get(name('Width')));
      const height = lookup(dict.get(name('Height')));
      if (width instanceof pdf.PDFNumber && height instanceof pdf.PDFNumber) {
        if (width.asNumber() * height.asNumber() > MAX_IMAGE_PIXELS)
          throw tooLarge(`holds a picture of ${width.asNumber()} x ${height.asNumber()} pixels`);
      }
    }
    const filter = lookup(dict.get(name('Filter')));
    const flate =
      filter === name('FlateDecode') ||
      (filter instanceof pdf.PDFArray &&
        filter.size() === 1 &&
        lookup(filter.get(0)) === name('FlateDecode'));
    let size = stream.contents.length;
    if (flate) {
      try {
        size = inflateSync(stream.contents, {
          maxOutputLength: Math.max(1, left + 1),
          finishFlush: constants.Z_SYNC_FLUSH,
        }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') size = left + 1;
      }
    }
    left -= size;
    if (left < 0) throw tooLarge(`inflates to more than ${budget / (1024 * 1024)} MB`);
    // A form draws with resources of its own.
    visitResources(lookup(dict.get(name('Resources'))), depth + 1);
  };
  const visitResources = (dict: unknown, depth: number): void => {
    if (!(dict instanceof pdf.PDFDict)) return;
    const xobjects = lookup(dict.get(name('XObject')));
    if (!(xobjects instanceof pdf.PDFDict)) return;
    for (const value of xobjects.values()) visit(value, depth);
  };
  const contents = lookup(page.get(name('Contents')));
  if (contents instanceof pdf.PDFArray) for (const part of contents.asArray()) visit(part, 0);
  else visit(page.get(name('Contents')), 0);
  visitResources(resources, 0);
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
