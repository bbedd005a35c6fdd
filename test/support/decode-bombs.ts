import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/**
 * Files small to upload and costly to decode, for the tests of the decode limits: a picture of
 * many pixels that compresses to little, a PDF of many pages, a PDF whose streams inflate to far
 * more than its size.
 */

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid greyscale PNG of `width` x `height` white pixels. Its rows compress to almost nothing, so
 * an 8000 x 8000 picture (64 megapixels) is about 60 KB; it is compressed a band of rows at a time,
 * never held whole.
 */
export function blankPng(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(width + 1, 0xff);
  row[0] = 0; // filter: none
  const band = Math.max(1, Math.floor((4 * 1024 * 1024) / row.length));
  const raw = Buffer.concat(Array.from({ length: Math.min(band, height) }, () => row));
  // One zlib stream made of bands: each band is deflated with a sync flush, the last one finished.
  const parts: Buffer[] = [];
  let left = height;
  let checksum = 1;
  while (left > 0) {
    const rows = Math.min(band, left);
    const data = rows === band ? raw : raw.subarray(0, rows * row.length);
    left -= rows;
    parts.push(deflateRawSync(data, { finishFlush: left > 0 ? constants.Z_FULL_FLUSH : constants.Z_FINISH }));
    checksum = adler32(data, checksum);
  }
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(checksum >>> 0, 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0x9c]), ...parts, trailer]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array())]),
  );
}

/** The Adler-32 checksum of `data` continued from `start` (zlib's checksum of the whole stream). */
function adler32(data: Uint8Array, start: number): number {
  let a = start & 0xffff;
  let b = (start >>> 16) & 0xffff;
  for (let i = 0; i < data.length;) {
    const end = Math.min(data.length, i + 5552);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A PDF of `pages` pages as pdf-lib saves it by default: the page tree in compressed object streams. */
export async function pagesPdf(
  pages: number,
  options: { objectStreams?: boolean } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++)
    doc.addPage([300, 400]).drawText(`Page ${i + 1} of ${pages}`, { x: 20, y: 360 });
  return doc.save({ useObjectStreams: options.objectStreams ?? true });
}

/**
 * A one-page PDF whose page's content stream inflates to `megabytes` MB of blank lines: a few
 * kilobytes to upload, and that much for a reader to inflate before it can draw the page.
 */
export async function inflatingPdf(megabytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 400]);
  page.drawText('A PDF that inflates', { x: 20, y: 360 });
  const content = deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x0a), { level: 9 });
  const stream = doc.context.stream(content, { Filter: 'FlateDecode' });
  page.node.addContentStream(doc.context.register(stream));
  return doc.save();
}

/** A PDF whose object stream (where the parser reads objects from) inflates to `megabytes` MB. */
export function objectStreamBomb(megabytes: number): Uint8Array {
  const data = deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x20), { level: 9 });
  const head = Buffer.from(
    `%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n` +
      `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] >> endobj\n` +
      `4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >> stream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return new Uint8Array(Buffer.concat([head, data, tail]));
}
