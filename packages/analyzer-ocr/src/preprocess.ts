import sharp from 'sharp';
import { AnalyzerError, MAX_IMAGE_PIXELS } from '@receipts/core';

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
 * - `contrast`: converted to grey and contrast-stretched (1st to 99th percentile to full range),
 *   which moves Tesseract's binarisation threshold enough to read some characters differently.
 */
export type Rendering = 'original' | 'contrast';

export interface PreparedImage {
  /** Lossless PNG for the OCR engine. */
  png: Buffer;
  width: number;
  height: number;
  /** What was done, in order, for the raw output; empty when the image is used as it is. */
  steps: string[];
}

/** Images smaller than this (on the longer side) are scaled up: glyphs become too small to read. */
const MIN_LONG_SIDE = 900;
/** Larger photos are scaled down: Tesseract's time grows with pixels, its accuracy does not. */
const MAX_LONG_SIDE = 4000;
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
  const steps: string[] = [];
  try {
    const input = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
    const meta = await input.metadata();
    const orientation = meta.orientation ?? 1;
    if (orientation > 1) steps.push(`upright from EXIF orientation ${orientation}`);
    // Dimensions after EXIF rotation: orientations 5-8 swap width and height.
    const swap = orientation >= 5;
    let width = (swap ? meta.height : meta.width) ?? 0;
    let height = (swap ? meta.width : meta.height) ?? 0;
    if (width === 0 || height === 0) throw new Error('image has no size');

    let pipeline = input.rotate();
    const box = await contentBox(bytes, width, height);
    if (box) {
      pipeline = pipeline.extract(box);
      width = box.width;
      height = box.height;
      steps.push(`crop ${box.width}x${box.height}+${box.left}+${box.top}`);
    }

    let scale = 1;
    const long = Math.max(width, height);
    if (long > MAX_LONG_SIDE) scale = MAX_LONG_SIDE / long;
    if (width * height * scale * scale > MAX_PIXELS) scale = Math.sqrt(MAX_PIXELS / (width * height));
    if (long < MIN_LONG_SIDE) scale = MIN_LONG_SIDE / long;

    if (rendering === 'contrast') {
      pipeline = pipeline.grayscale().normalise().toColourspace('b-w');
      steps.push('greyscale', 'normalise');
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
    throw unreadableImage(cause);
  }
}

/** The error for bytes that are not a readable image: not retryable, reading them again cannot help. */
export function unreadableImage(cause: unknown): AnalyzerError {
  return new AnalyzerError(
    'The file could not be read as an image. Upload a photo or scan of the receipt as JPEG, PNG or WebP.',
    { cause, retryable: false, code: 'UnreadableImage' },
  );
}

/** Width of the thumbnail used to find where the print is. */
const PROBE_WIDTH = 400;
/** Only crops that drop at least this share of the pixels are worth a different image. */
const MIN_CROP_GAIN = 0.25;

/**
 * The part of the image that holds print, with a margin, or null when that is (nearly) all of it.
 * Scanners put a narrow receipt on a whole A4 page: cropping to the receipt keeps its glyphs large
 * within the pixel budget instead of shrinking the empty page with them.
 */
async function contentBox(
  bytes: Uint8Array,
  width: number,
  height: number,
): Promise<{ left: number; top: number; width: number; height: number } | null> {
  if (width < PROBE_WIDTH * 2) return null;
  const { data, info } = await sharp(bytes)
    .rotate()
    .grayscale()
    .resize({ width: PROBE_WIDTH })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const sorted = Uint8Array.from(data).sort();
  const paper = sorted[Math.floor(sorted.length * 0.9)]!;
  const ink = paper - 70;
  if (ink <= 0) return null;
  const rows = new Uint32Array(h);
  const cols = new Uint32Array(w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (data[y * w + x]! < ink) {
        rows[y]!++;
        cols[x]!++;
      }
    }
  }
  // A line of print has several dark pixels; a lone speck or a scanner's edge shadow does not.
  const first = (counts: Uint32Array, min: number) => counts.findIndex((c) => c >= min);
  const last = (counts: Uint32Array, min: number) =>
    counts.length - 1 - [...counts].reverse().findIndex((c) => c >= min);
  const top = first(rows, 3);
  const left = first(cols, 3);
  if (top < 0 || left < 0) return null;
  const bottom = last(rows, 3);
  const right = last(cols, 3);
  const margin = Math.round(Math.max(w, h) * 0.02);
  const x0 = Math.max(0, left - margin);
  const y0 = Math.max(0, top - margin);
  const x1 = Math.min(w, right + 1 + margin);
  const y1 = Math.min(h, bottom + 1 + margin);
  if ((x1 - x0) * (y1 - y0) > (1 - MIN_CROP_GAIN) * w * h) return null;
  const k = width / w;
  const box = {
    left: Math.floor(x0 * k),
    top: Math.floor(y0 * k),
    width: Math.min(width - Math.floor(x0 * k), Math.ceil((x1 - x0) * k)),
    height: Math.min(height - Math.floor(y0 * k), Math.ceil((y1 - y0) * k)),
  };
  return box.width > 0 && box.height > 0 ? box : null;
}
