import sharp from 'sharp';
import { AnalyzerError } from '@receipts/core';

/**
 * Image preparation before OCR, with sharp (libvips, prebuilt binaries from npm).
 *
 * Every rendering is turned upright from its EXIF orientation and brought to a size Tesseract
 * handles well: huge phone photos are scaled down (time grows with pixels, accuracy does not), tiny
 * images scaled up. Measured on the 30 SROIE receipts (packages/analyzer-ocr/README.md), greyscale,
 * contrast stretching, sharpening, thresholding and upscaling each change which characters
 * Tesseract misreads, but none reads better on its own than the untouched scan. What does help is a
 * further reading of a different rendering when two readings disagree, so there are two:
 * - `original`: the image as it is, apart from orientation and size;
 * - `greyscale`: converted to grey by libvips rather than by Leptonica inside Tesseract, which
 *   moves the binarisation threshold enough to read some characters differently.
 */
export type Rendering = 'original' | 'greyscale';

export interface PreparedImage {
  /** Lossless PNG for the OCR engine. */
  png: Buffer;
  width: number;
  height: number;
  /** What was done, in order, for the raw output. */
  steps: string[];
}

/** Images smaller than this (on the longer side) are scaled up: glyphs become too small to read. */
const MIN_LONG_SIDE = 900;
/** Larger photos are scaled down: Tesseract's time grows with pixels, its accuracy does not. */
const MAX_LONG_SIDE = 2400;
const MAX_PIXELS = 5_000_000;

/** The formats OCR accepts, by their leading bytes. */
export function sniffImageType(
  bytes: Uint8Array,
): 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf' | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (
    b.length >= 12 &&
    String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!) === 'RIFF' &&
    String.fromCharCode(b[8]!, b[9]!, b[10]!, b[11]!) === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (b.length >= 5 && String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!, b[4]!) === '%PDF-')
    return 'application/pdf';
  return null;
}

/**
 * Decodes, turns upright and resizes an image for OCR.
 * @throws AnalyzerError (not retryable) when the bytes are not a readable image
 */
export async function prepareImage(bytes: Uint8Array, rendering: Rendering): Promise<PreparedImage> {
  const steps: string[] = ['auto-orient'];
  try {
    const input = sharp(bytes, { failOn: 'error', limitInputPixels: 100_000_000 });
    const meta = await input.metadata();
    // Dimensions after EXIF rotation: orientations 5-8 swap width and height.
    const swap = (meta.orientation ?? 1) >= 5;
    let width = (swap ? meta.height : meta.width) ?? 0;
    let height = (swap ? meta.width : meta.height) ?? 0;
    if (width === 0 || height === 0) throw new Error('image has no size');

    let scale = 1;
    const long = Math.max(width, height);
    if (long > MAX_LONG_SIDE) scale = MAX_LONG_SIDE / long;
    if (width * height * scale * scale > MAX_PIXELS) scale = Math.sqrt(MAX_PIXELS / (width * height));
    if (long < MIN_LONG_SIDE) scale = MIN_LONG_SIDE / long;

    let pipeline = input.rotate();
    if (rendering === 'greyscale') {
      pipeline = pipeline.grayscale();
      steps.push('greyscale');
    }
    if (Math.abs(scale - 1) > 0.01) {
      width = Math.round(width * scale);
      height = Math.round(height * scale);
      pipeline = pipeline.resize({ width, height, kernel: 'lanczos3' });
      steps.push(`resize ${scale.toFixed(2)}x`);
    }
    const png = await pipeline.png({ compressionLevel: 1 }).toBuffer();
    return { png, width, height, steps };
  } catch (cause) {
    throw new AnalyzerError(
      'The file could not be read as an image. Upload a photo or scan of the receipt as JPEG, PNG or WebP.',
      { cause, retryable: false, code: 'UnreadableImage' },
    );
  }
}
