import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../src/contract/routes';
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
  parseImageDataUrl,
  sniffImageType,
  toDataUrl,
} from '../src';

const b64 = (bytes: number[] | Uint8Array) => Buffer.from(bytes).toString('base64');
const jpeg = [0xff, 0xd8, 0xff, 0xe0, 1, 2, 3];
const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const webp = [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')];
const pdf = [...Buffer.from('%PDF-1.7\n')];

describe('image data URLs', () => {
  it('accepts JPEG, PNG, WebP and PDF by their content', () => {
    expect(parseImageDataUrl(`data:image/jpeg;base64,${b64(jpeg)}`).contentType).toBe('image/jpeg');
    expect(parseImageDataUrl(`data:image/jpg;base64,${b64(jpeg)}`).contentType).toBe('image/jpeg');
    expect(parseImageDataUrl(`data:image/png;base64,${b64(png)}`).contentType).toBe('image/png');
    expect(parseImageDataUrl(`data:image/webp;base64,${b64(webp)}`).contentType).toBe('image/webp');
    expect(parseImageDataUrl(`data:application/pdf;name=r.pdf;base64,${b64(pdf)}`).contentType).toBe(
      'application/pdf',
    );
    const { bytes } = parseImageDataUrl(`data:image/jpeg;base64,${b64(jpeg)}`);
    expect([...bytes]).toEqual(jpeg);
  });

  it('refuses what is not a base64 data URL, with a message saying what to send', () => {
    expect(() => parseImageDataUrl('hello')).toThrow(ValidationError);
    expect(() => parseImageDataUrl('hello')).toThrow(/data URL/);
    expect(() => parseImageDataUrl(`data:image/jpeg,${b64(jpeg)}`)).toThrow(/base64/);
    expect(() => parseImageDataUrl('data:image/jpeg;base64,@@@@')).toThrow(ValidationError);
    expect(() => parseImageDataUrl('data:image/jpeg;base64,')).toThrow(ValidationError);
  });

  it('refuses types we do not accept and bytes that are not the declared image', () => {
    expect(() => parseImageDataUrl(`data:image/gif;base64,${b64(jpeg)}`)).toThrow(UnsupportedMediaTypeError);
    expect(() => parseImageDataUrl(`data:image/jpeg;base64,${b64(Buffer.from('just some text'))}`)).toThrow(
      /not a JPEG, PNG, WebP or PDF/,
    );
    expect(() => parseImageDataUrl(`data:image/png;base64,${b64(jpeg)}`)).toThrow(
      /says image\/png but the content is image\/jpeg/,
    );
  });

  it('refuses an image larger than the limit before decoding it', () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 3);
    big.set(jpeg);
    expect(() => parseImageDataUrl(`data:image/jpeg;base64,${b64(big)}`)).toThrow(PayloadTooLargeError);
    expect(() => parseImageDataUrl(`data:image/jpeg;base64,${b64(big)}`)).toThrow(
      /largest accepted is 4.0 MB/,
    );
    const fits = big.subarray(0, MAX_IMAGE_BYTES);
    expect(parseImageDataUrl(`data:image/jpeg;base64,${b64(fits)}`).bytes.length).toBe(MAX_IMAGE_BYTES);
  });

  it('round-trips through toDataUrl', () => {
    const url = toDataUrl('image/png', new Uint8Array(png));
    expect(parseImageDataUrl(url).bytes).toEqual(new Uint8Array(png));
    expect(sniffImageType(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});
