/**
 * Renders the PNG app icons from the hand-written SVGs in public/icons. Run after changing an SVG:
 * `npx tsx web/generate-icons.ts`; the PNGs are committed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

const dir = join(import.meta.dirname, 'public', 'icons');

const outputs = [
  { source: 'icon.svg', file: 'icon-32.png', size: 32 },
  { source: 'icon.svg', file: 'icon-192.png', size: 192 },
  { source: 'icon.svg', file: 'icon-512.png', size: 512 },
  { source: 'icon.svg', file: 'apple-touch-icon.png', size: 180 },
  { source: 'icon-maskable.svg', file: 'icon-maskable-512.png', size: 512 },
];

for (const { source, file, size } of outputs) {
  const svg = await readFile(join(dir, source));
  await sharp(svg, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toFile(join(dir, file));
  console.log(`${file} (${size}x${size})`);
}
