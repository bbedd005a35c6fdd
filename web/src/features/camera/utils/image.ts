import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES } from '@receipts/core/contract/routes';

/** The decoded size in bytes of a base64 data URL. */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const base64 = comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** The media type of a data URL, e.g. 'image/jpeg'. */
export function dataUrlType(dataUrl: string): string {
  return /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? '';
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

let lastStamp = 0;

/** The current time in ms, moved on by one when it would repeat: each file of a batch gets its own name. */
function uniqueStamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

/** A queue file name: the current timestamp plus '-receipt' and the type's extension (spec §3, §9). */
export function receiptFileName(type = 'image/jpeg', now = uniqueStamp()): string {
  return `${now}-receipt.${EXTENSIONS[type] ?? 'jpg'}`;
}

/** A data URL as a File again (a receipt kept on the device, to be prepared like a picked one). */
export function dataUrlToFile(dataUrl: string, name: string): File {
  const comma = dataUrl.indexOf(',');
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], name, { type: dataUrlType(dataUrl) });
}

/** A fault in preparing an image, in words for the person who picked it. */
export class ImagePreparationError extends Error {
  override readonly name = 'ImagePreparationError';
}

function encode(source: CanvasImageSource, width: number, height: number, quality: number): string {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  const context = canvas.getContext('2d');
  if (!context)
    throw new ImagePreparationError('This browser cannot draw images, so the picture cannot be prepared.');
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', quality);
}

/**
 * Encodes an image as JPEG at its own size and the given quality, then scales it down until the upload
 * limit (MAX_IMAGE_BYTES) is met, so large pictures are shrunk in the browser rather than refused.
 *
 * @param source - a video frame, image or bitmap
 * @param width - the source's natural width
 * @param height - the source's natural height
 * @param quality - JPEG quality of the first try (spec §5: 1 for captures)
 */
export function encodeJpegWithinLimit(
  source: CanvasImageSource,
  width: number,
  height: number,
  quality = 1,
  maxBytes = MAX_IMAGE_BYTES,
): string {
  let scale = 1;
  let q = quality;
  let dataUrl = encode(source, width, height, q);
  for (let attempt = 0; attempt < 8 && dataUrlBytes(dataUrl) > maxBytes; attempt++) {
    // Bytes grow roughly with the pixel count: shrink both sides by the square root of the excess.
    scale *= Math.sqrt(maxBytes / dataUrlBytes(dataUrl)) * 0.9;
    q = Math.min(q, 0.9);
    dataUrl = encode(source, width * scale, height * scale, q);
  }
  if (dataUrlBytes(dataUrl) > maxBytes) {
    throw new ImagePreparationError('The picture is too large to upload, even scaled down.');
  }
  return dataUrl;
}

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new ImagePreparationError('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () =>
      reject(
        new ImagePreparationError(
          'This file is not an image the browser can read. Pick a JPEG, PNG, WebP or PDF file.',
        ),
      );
    image.src = src;
  });
}

const MAX_MB = Math.round(MAX_IMAGE_BYTES / (1024 * 1024));

/**
 * Turns a picked file into what /api/upload accepts: a JPEG, PNG, WebP or PDF data URL within the limit.
 * Images over the limit, or in another format the browser can decode, are re-encoded as JPEG.
 */
export async function prepareFile(file: File): Promise<{ imgSrc: string; fileName: string }> {
  const accepted = (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
  if (file.type === 'application/pdf') {
    if (file.size > MAX_IMAGE_BYTES) {
      throw new ImagePreparationError(
        `The PDF is larger than ${MAX_MB} MB. Upload a photo of the receipt instead.`,
      );
    }
    return { imgSrc: await readFileAsDataUrl(file), fileName: receiptFileName(file.type) };
  }
  const original = await readFileAsDataUrl(file);
  if (accepted && file.size <= MAX_IMAGE_BYTES)
    return { imgSrc: original, fileName: receiptFileName(file.type) };
  const image = await loadImage(original);
  const imgSrc = encodeJpegWithinLimit(image, image.naturalWidth, image.naturalHeight, 0.92);
  return { imgSrc, fileName: receiptFileName('image/jpeg') };
}

/** Picks the camera of spec §2: one labelled rear, back or environment, else the first. */
export function chooseCamera(devices: readonly MediaDeviceInfo[]): MediaDeviceInfo | undefined {
  const cameras = devices.filter((d) => d.kind === 'videoinput');
  return cameras.find((d) => /rear|back|environment/i.test(d.label)) ?? cameras[0];
}
