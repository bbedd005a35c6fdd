import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageTop } from '../src';

describe('imageTop', () => {
  it('cuts the top share of the upright image, as PNG', async () => {
    // 40 x 100 pixels stored on its side (EXIF orientation 6: turned a quarter clockwise to view),
    // black in the top fifth as viewed.
    const upright = await sharp({ create: { width: 40, height: 100, channels: 3, background: '#fff' } })
      .composite([
        {
          input: { create: { width: 40, height: 20, channels: 3, background: '#000' } },
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const sideways = await sharp(upright).rotate(-90).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const top = await imageTop(sideways, 0.3);
    const meta = await sharp(top).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 40, 30]);
    const { data, info } = await sharp(top).greyscale().raw().toBuffer({ resolveWithObject: true });
    const row = (y: number) => data[y * info.width + 20]!;
    expect(row(5)).toBeLessThan(60);
    expect(row(27)).toBeGreaterThan(200);
  });
});
