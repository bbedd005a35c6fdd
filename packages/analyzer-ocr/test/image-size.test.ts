import { readImageSize } from '@receipts/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

/** The header reader that guards the decoders, checked against pictures a real encoder wrote. */
describe('readImageSize on encoded pictures', () => {
  const blank = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#ffffff' } });

  it.each([
    ['JPEG', (w: number, h: number) => blank(w, h).jpeg().toBuffer()],
    [
      'progressive JPEG with EXIF',
      (w: number, h: number) => blank(w, h).withMetadata().jpeg({ progressive: true }).toBuffer(),
    ],
    ['PNG', (w: number, h: number) => blank(w, h).png().toBuffer()],
    ['lossy WebP', (w: number, h: number) => blank(w, h).webp().toBuffer()],
    ['lossless WebP', (w: number, h: number) => blank(w, h).webp({ lossless: true }).toBuffer()],
    ['WebP with metadata', (w: number, h: number) => blank(w, h).withMetadata().webp().toBuffer()],
  ])('reads the size of a %s as sharp does', async (_kind, encode) => {
    const bytes = new Uint8Array(await encode(1234, 567));
    const meta = await sharp(bytes).metadata();
    expect(readImageSize(bytes)).toEqual({ width: meta.width, height: meta.height });
    expect(meta.width).toBe(1234);
  });
});
