import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES, type AcceptedImageType } from '../contract/routes';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ALIASES: Record<string, AcceptedImageType> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** What the bytes are, from their first bytes (magic numbers), or null when none we accept. */
export function sniffImageType(bytes: Uint8Array): AcceptedImageType | null {
  const at = (i: number) => bytes[i];
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

/**
 * Decodes an image data URL (`data:image/jpeg;base64,...`) and checks it: base64, one of the
 * accepted types, no larger than MAX_IMAGE_BYTES, and bytes that really are the declared type.
 * @throws ValidationError when it is not a base64 data URL
 * @throws UnsupportedMediaTypeError when the type is not accepted or the bytes are something else
 * @throws PayloadTooLargeError when the image is too large
 */
export function parseImageDataUrl(dataUrl: string): { contentType: AcceptedImageType; bytes: Uint8Array } {
  const head = DATA_URL.exec(dataUrl.slice(0, 256));
  if (!head) {
    throw new ValidationError('imgSrc must be an image data URL such as "data:image/jpeg;base64,/9j/...".', {
      code: 'InvalidDataUrl',
    });
  }
  const declared = (head[1] ?? '').trim().toLowerCase();
  const params = (head[2] ?? '').toLowerCase().split(';').filter(Boolean);
  if (!params.includes('base64')) {
    throw new ValidationError('imgSrc must be base64-encoded (";base64," in the data URL).', {
      code: 'InvalidDataUrl',
    });
  }
  const contentType = ALIASES[declared] ?? declared;
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(contentType)) {
    throw new UnsupportedMediaTypeError(
      `Images of type "${declared || 'none'}" are not accepted; send a JPEG, PNG, WebP or PDF.`,
      { code: 'UnsupportedImageType' },
    );
  }
  const data = dataUrl.slice(head[0].length).replace(/\s+/g, '');
  // Refuse before decoding: the decoded size is known from the length.
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size > MAX_IMAGE_BYTES) {
    throw new PayloadTooLargeError(
      `The image is ${megabytes(size)}; the largest accepted is ${megabytes(MAX_IMAGE_BYTES)}. ` +
        'Take the photo at a lower resolution or crop it, then upload again.',
      { code: 'ImageTooLarge' },
    );
  }
  if (data.length === 0 || data.length % 4 === 1 || !BASE64.test(data)) {
    throw new ValidationError('imgSrc is not valid base64 after "base64,".', { code: 'InvalidDataUrl' });
  }
  const bytes = new Uint8Array(Buffer.from(data, 'base64'));
  const actual = sniffImageType(bytes);
  if (actual === null) {
    throw new UnsupportedMediaTypeError(
      'The uploaded data is not a JPEG, PNG, WebP or PDF image (its content does not match any of them).',
      { code: 'NotAnImage' },
    );
  }
  if (actual !== contentType) {
    throw new UnsupportedMediaTypeError(
      `The data URL says ${contentType} but the content is ${actual}; send the file with its real type.`,
      { code: 'ImageTypeMismatch' },
    );
  }
  return { contentType, bytes };
}

/** A data URL of bytes, for getImage. */
export function toDataUrl(contentType: string, bytes: Uint8Array): string {
  return `data:${contentType};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}
