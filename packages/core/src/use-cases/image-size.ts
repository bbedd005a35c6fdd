import { PayloadTooLargeError } from '../errors';

/**
 * The most pixels an uploaded picture may have: a 50-megapixel phone photo (8160 x 6120) passes, a
 * larger one is refused before anything decodes it. Decoding costs memory and time in proportion to
 * the pixels (an 8000 x 8000 PNG of a few hundred KB took the OCR worker 47 s and 526 MB), and a
 * receipt reads as well at a fraction of this.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The longest side a picture may have (a very long till roll still fits). */
export const MAX_IMAGE_SIDE = 20_000;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * A picture's width and height as its header states them, read without decoding the picture:
 * PNG (IHDR), JPEG (the first start-of-frame segment) and WebP (VP8, VP8L or VP8X). Null when the
 * header does not say (a truncated or damaged file, which no decoder can open either).
 */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length >= 24 && bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') return pngSize(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.length >= 30 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return webpSize(bytes);
  return null;
}

/**
 * Refuses a picture whose header states more than {@link MAX_IMAGE_PIXELS} pixels or a side longer
 * than {@link MAX_IMAGE_SIDE}, before anything decodes it.
 * @throws PayloadTooLargeError (HTTP 413) saying how large the picture is and what is accepted
 */
export function assertImageSizeWithinLimits(bytes: Uint8Array): void {
  const message = imageSizeProblem(bytes);
  if (message) throw new PayloadTooLargeError(message, { code: 'ImageTooManyPixels' });
}

/** What is wrong with the picture's stated size, in words for its owner, or null when it is within the limits. */
export function imageSizeProblem(bytes: Uint8Array): string | null {
  const size = readImageSize(bytes);
  if (!size) return null;
  const { width, height } = size;
  if (width * height <= MAX_IMAGE_PIXELS && Math.max(width, height) <= MAX_IMAGE_SIDE) return null;
  const megapixels = (width * height) / 1_000_000;
  return (
    `The picture is ${width} x ${height} pixels (${megapixels.toFixed(0)} megapixels); the largest accepted is ` +
    `${MAX_IMAGE_PIXELS / 1_000_000} megapixels and ${MAX_IMAGE_SIDE} pixels a side. ` +
    'Take the photo at a lower resolution or scale it down, then upload again.'
  );
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2);
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) + b[at + 2]! * 0x10000;

/** IHDR is the first chunk, its width and height at bytes 16 and 20. */
function pngSize(b: Uint8Array): ImageSize | null {
  if (ascii(b, 12, 16) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

/** Start-of-frame markers: C0-CF but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * Walks the segments up to the first start of frame, as a decoder does; the frame header holds the
 * height then the width. A scan (SOS) before any frame means there is none to decode.
 */
function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    if (marker === 0xda) return null;
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > b.length) return null;
      return { width: u16be(b, at + 7), height: u16be(b, at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/** The first chunk says the kind: lossy (VP8), lossless (VP8L) or extended (VP8X, with the canvas size). */
function webpSize(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    // After the 3-byte frame tag and the start code 9d 01 2a: 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  return null;
}
