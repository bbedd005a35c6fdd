import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  MAX_PDF_PAGES,
  PayloadTooLargeError,
  ReceiptRepository,
  UnsupportedMediaTypeError,
  assertDocumentWithinLimits,
  assertFirstPageWithinLimits,
  cachedPdfPreviewer,
  countPdfPages,
  readImageSize,
  uploadReceipt,
} from '../src';
import { blankPng, inflatingPdf, objectStreamBomb, pagesPdf } from '../../../test/support/decode-bombs';
import { dataUrlOf, identity } from './support/fakes';
import { createWorld } from './support/world';

// Made once: each takes a second or two to compress.
const huge = blankPng(8000, 8000);
const inflating = inflatingPdf(100);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );

/** A JPEG's first segments: SOI, an APP0 of `app0` bytes, then a baseline frame header. */
function jpegHeader(width: number, height: number, app0 = 16): Uint8Array {
  const app = [0xff, 0xe0, app0 >> 8, app0 & 0xff, ...new Array<number>(app0 - 2).fill(0)];
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  return new Uint8Array([0xff, 0xd8, ...app, 0xff, 0xff, ...sof, ...new Array<number>(9).fill(0)]);
}

function webp(chunk: string, payload: number[]): Uint8Array {
  const bytes = [...Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'), ...Buffer.from(chunk, 'latin1'), 0, 0, 0, 0];
  return new Uint8Array([...bytes, ...payload, ...new Array<number>(16).fill(0)]);
}

describe('readImageSize', () => {
  it('reads PNG, JPEG and WebP sizes from their headers', () => {
    expect(readImageSize(blankPng(321, 123))).toEqual({ width: 321, height: 123 });
    expect(readImageSize(jpegHeader(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    // VP8X: 24-bit width-1 and height-1 after 4 bytes of flags.
    expect(readImageSize(webp('VP8X', [0, 0, 0, 0, 0x3f, 0x1f, 0, 0x3f, 0x1f, 0]))).toEqual({
      width: 8000,
      height: 8000,
    });
    // VP8L: signature 0x2f, then 14-bit width-1 and height-1.
    const w = 999;
    const h = 500;
    const bits = w | (h << 14);
    expect(
      readImageSize(webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24])),
    ).toEqual({
      width: 1000,
      height: 501,
    });
    // VP8: frame tag, start code 9d 01 2a, 14-bit width and height.
    expect(readImageSize(webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x40, 0x06, 0xb0, 0x04]))).toEqual({
      width: 1600,
      height: 1200,
    });
  });

  it('says nothing for a header that states no size', () => {
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]))).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]))).toBeNull();
  });
});

describe('assertDocumentWithinLimits', () => {
  it('refuses an 8000 x 8000 PNG from its header, saying how large it is', async () => {
    const error = await failure(assertDocumentWithinLimits(huge, 'image/png'));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error!.message).toMatch(
      /8000 x 8000 pixels \(64 megapixels\); the largest accepted is 50 megapixels/,
    );
    await expect(assertDocumentWithinLimits(jpegHeader(8160, 6120), 'image/jpeg')).resolves.toBeUndefined();
    expect(await failure(assertDocumentWithinLimits(jpegHeader(1000, 30000), 'image/jpeg'))).toBeInstanceOf(
      PayloadTooLargeError,
    );
  });

  it('refuses a PDF of more pages than a receipt may have, whatever keeps its page tree', async () => {
    for (const objectStreams of [true, false]) {
      await expect(
        assertDocumentWithinLimits(await pagesPdf(MAX_PDF_PAGES, { objectStreams }), 'application/pdf'),
      ).resolves.toBeUndefined();
      const error = await failure(
        assertDocumentWithinLimits(await pagesPdf(MAX_PDF_PAGES + 1, { objectStreams }), 'application/pdf'),
      );
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(error!.message).toBe(
        'This PDF has 11 pages; a receipt may have at most 10. Upload a PDF with only the receipt’s pages.',
      );
    }
  });
});

describe('countPdfPages', () => {
  it('counts the leaves of the page tree, not the count the file states', async () => {
    const doc = await PDFDocument.load(await pagesPdf(12));
    doc.catalog.Pages().set(doc.context.obj('Count'), doc.context.obj(1));
    expect(await countPdfPages(await doc.save())).toBe(12);
  });

  it('refuses a PDF whose object streams inflate past the cap, before parsing them', async () => {
    const error = await failure(countPdfPages(objectStreamBomb(64)));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error!.message).toMatch(/inflates to more than 16 MB/);
  });

  it('refuses a file without a page tree as unreadable', async () => {
    const error = await failure(countPdfPages(new TextEncoder().encode('%PDF-1.7\n%%EOF\n')));
    expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
    expect(error!.message).toMatch(/could not be read/);
  });
});

describe('the decode limits on the upload and in the worker', () => {
  it('refuses at upload, storing and counting nothing', async () => {
    const world = await createWorld();
    const upload = (fileName: string, imgSrc: string) =>
      failure(uploadReceipt(world.deps, identity('ann'), { userId: 'ann', fileName, imgSrc }));
    expect(await upload('big.png', dataUrlOf(huge, 'image/png'))).toBeInstanceOf(PayloadTooLargeError);
    expect(await upload('long.pdf', dataUrlOf(await pagesPdf(11), 'application/pdf'))).toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(await world.blobs.list('ann/')).toEqual([]);
    expect(await world.drain()).toEqual([]);
  });

  it('fails a stored file past the limits for good, before the analyzer sees it', async () => {
    const world = await createWorld();
    // A file stored before the limits held: its entry and image are there, as an upload left them.
    await world.blobs.put('ann/big.png', huge, 'image/png');
    await new ReceiptRepository(world.store).createQueueEntry({
      userId: 'ann',
      fileName: 'big.png',
      status: 'false',
      reason: null,
      attempts: 0,
      uploaded_at: '2024-05-01T11:00:00.000Z',
      updated_at: '2024-05-01T11:00:00.000Z',
      content_type: 'image/png',
      image_bytes: null,
    });
    let analyzed = 0;
    const analyze = world.analyzer.analyze.bind(world.analyzer);
    world.analyzer.analyze = async (image) => (analyzed++, analyze(image));
    const result = await world.deliver({ userId: 'ann', fileName: 'big.png' });
    expect(result.outcome).toBe('failed');
    expect(result.reason).toMatch(/8000 x 8000 pixels/);
    expect(analyzed).toBe(0);
  });
});

describe('PDF previews', () => {
  it('refuses to draw a first page that inflates past the limit, and draws an ordinary one', async () => {
    const error = await failure(assertFirstPageWithinLimits(await inflating));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error!.message).toMatch(/first page inflates to more than 48 MB/);
    await expect(assertFirstPageWithinLimits(await inflatingPdf(2))).resolves.toBeUndefined();
    await expect(assertFirstPageWithinLimits(await pagesPdf(3))).resolves.toBeUndefined();
  });

  it('draws each PDF once, however often and however many at once it is asked for', async () => {
    let draws = 0;
    const previewer = cachedPdfPreviewer({
      firstPage: async (pdf) => (draws++, new Uint8Array([pdf.length % 256, 1, 2])),
    });
    const one = await pagesPdf(1);
    const two = await pagesPdf(2);
    const answers = await Promise.all([one, one, one, two].map((pdf) => previewer.firstPage(pdf)));
    expect(await previewer.firstPage(one)).toEqual(answers[0]);
    expect(draws).toBe(2);
  });

  it('keeps a refusal too, and draws nothing past the limits', async () => {
    let draws = 0;
    let checks = 0;
    const previewer = cachedPdfPreviewer(
      { firstPage: async () => (draws++, new Uint8Array([1])) },
      { check: async (pdf) => (checks++, assertFirstPageWithinLimits(pdf)) },
    );
    const bomb = await inflating;
    expect(await failure(previewer.firstPage(bomb))).toBeInstanceOf(PayloadTooLargeError);
    expect(await failure(previewer.firstPage(bomb))).toBeInstanceOf(PayloadTooLargeError);
    expect({ draws, checks }).toEqual({ draws: 0, checks: 1 });
  });

  it('lets the least recently shown pages go past its size', async () => {
    let draws = 0;
    const previewer = cachedPdfPreviewer(
      { firstPage: async () => (draws++, new Uint8Array(1000)) },
      { maxBytes: 2500, check: async () => undefined },
    );
    const [a, b, c] = [1, 2, 3].map((n) => new TextEncoder().encode(`%PDF-${n}`));
    for (const pdf of [a, b, a, c, a, b]) await previewer.firstPage(pdf!);
    // a, b drawn; a shown again; c pushes out b (a was shown since); b drawn again.
    expect(draws).toBe(4);
  });
});
