import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AnalyzerError } from '@receipts/core';
import { prepareImage, sniffImageType } from '../src';

/** A white page with a dark block where the print would be. */
async function page(
  width: number,
  height: number,
  block: { left: number; top: number; width: number; height: number },
) {
  const ink = await sharp({
    create: { width: block.width, height: block.height, channels: 3, background: '#202020' },
  })
    .png()
    .toBuffer();
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#fafafa' } })
      .composite([{ input: ink, left: block.left, top: block.top }])
      .jpeg()
      .toBuffer(),
  );
}

describe('sniffImageType', () => {
  it('knows JPEG, PNG, WebP and PDF by their first bytes, whatever they are called', async () => {
    const base = sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } });
    expect(sniffImageType(new Uint8Array(await base.clone().jpeg().toBuffer()))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array(await base.clone().png().toBuffer()))).toBe('image/png');
    expect(sniffImageType(new Uint8Array(await base.clone().webp().toBuffer()))).toBe('image/webp');
    expect(sniffImageType(new TextEncoder().encode('%PDF-1.4\n'))).toBe('application/pdf');
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe('prepareImage', () => {
  it('crops a scanned page to the print on it, with a margin', async () => {
    const prepared = await prepareImage(
      await page(2400, 3400, { left: 900, top: 500, width: 600, height: 2000 }),
      'original',
    );
    expect(prepared.steps.find((s) => s.startsWith('crop'))).toBeDefined();
    expect(prepared.width).toBeGreaterThan(600);
    expect(prepared.width).toBeLessThan(900);
    expect(prepared.height).toBeGreaterThan(2000);
    expect(prepared.height).toBeLessThan(2400);
  });

  it('leaves an image that is all receipt uncropped', async () => {
    const prepared = await prepareImage(
      await page(1000, 1400, { left: 20, top: 20, width: 960, height: 1360 }),
      'original',
    );
    expect(prepared.steps).toEqual([]);
    expect([prepared.width, prepared.height]).toEqual([1000, 1400]);
  });

  it('scales huge photos down to the pixel budget and tiny images up', async () => {
    const huge = await prepareImage(
      await page(4000, 3000, { left: 0, top: 0, width: 4000, height: 3000 }),
      'original',
    );
    expect(huge.width * huge.height).toBeLessThanOrEqual(5_000_000 * 1.01);
    const tiny = await prepareImage(
      await page(300, 500, { left: 0, top: 0, width: 300, height: 500 }),
      'original',
    );
    expect(Math.max(tiny.width, tiny.height)).toBe(900);
  });

  it('makes the contrast rendering grey', async () => {
    const prepared = await prepareImage(
      await page(800, 1000, { left: 0, top: 0, width: 800, height: 1000 }),
      'contrast',
    );
    expect(prepared.steps).toContain('normalise');
    expect((await sharp(prepared.png).metadata()).channels).toBe(1);
  });

  it('refuses bytes that are not an image, for good', async () => {
    const error = await prepareImage(new TextEncoder().encode('not an image'), 'original').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalyzerError);
    expect((error as AnalyzerError).retryable).toBe(false);
    expect((error as AnalyzerError).message).toMatch(/could not be read as an image/);
  });
});
