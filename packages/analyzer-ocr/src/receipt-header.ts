import sharp from 'sharp';
import { unreadableImage } from './preprocess';

/**
 * The share of a receipt's height, from the top, that Tesseract reads in the combined engine: the
 * heading, where the business's name, registration and address are printed. Measured on the SROIE
 * photos (packages/analyzer-ocr/README.md): the top 40 % reads the names and addresses as well as
 * the whole receipt does, in half the time; a third cut some addresses short.
 */
export const HEADING_SHARE = 0.4;

/** An image decoded and turned upright by its EXIF orientation, as raw pixels. */
export interface UprightImage {
  data: Buffer;
  info: sharp.OutputInfo;
}

/**
 * The image decoded and turned upright by its EXIF orientation: the check that the bytes are an image
 * at all, before any OCR.
 * @throws AnalyzerError (not retryable) when the bytes are not a readable image
 */
export async function readUpright(image: Uint8Array): Promise<UprightImage> {
  try {
    return await sharp(image, { failOn: 'error' }).rotate().raw().toBuffer({ resolveWithObject: true });
  } catch (cause) {
    throw unreadableImage(cause);
  }
}

/**
 * The top `share` of an upright image, as lossless PNG. It is then prepared for OCR as an image of
 * its own: a narrow heading is scaled up like any small image.
 */
export function topOf(upright: UprightImage, share: number): Promise<Buffer> {
  const { width, height, channels } = upright.info;
  return sharp(upright.data, { raw: { width, height, channels } })
    .extract({ left: 0, top: 0, width, height: Math.max(1, Math.min(height, Math.round(height * share))) })
    .png()
    .toBuffer();
}

/**
 * The top `share` of an image (turned upright by its EXIF orientation first), as lossless PNG.
 * @throws AnalyzerError (not retryable) when the bytes are not a readable image
 */
export async function imageTop(image: Uint8Array, share: number): Promise<Buffer> {
  return topOf(await readUpright(image), share);
}
