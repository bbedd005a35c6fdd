/**
 * Decode limits benchmark (`npm run bench:decode-limits`), printed figures: what refusing a costly
 * file takes, from the bytes as the upload receives them: an 8000 x 8000 PNG (64 megapixels, about
 * 75 KB), an 11-page PDF saved with object streams, and a PDF whose object stream inflates to 64 MB;
 * then a PDF preview drawn by the local server's previewer, first and again (kept), for an ordinary
 * PDF and one whose page inflates to 100 MB. Memory is the process's resident set and the V8 heap
 * in use, before and at most during the step (sampled every millisecond).
 * BENCH_DECODE_BEFORE=1 also times decoding the PNG as the OCR worker did before the limits
 * (sharp with its default pixel limit), which takes tens of seconds and hundreds of MB.
 */
import {
  assertDocumentWithinLimits,
  cachedPdfPreviewer,
  parseImageDataUrl,
  type PdfPreviewer,
} from '@receipts/core';
import { renderPdfFirstPage } from '@receipts/analyzer-ocr';
import { blankPng, inflatingPdf, objectStreamBomb, pagesPdf } from '../test/support/decode-bombs';

const say = (line: string) => process.stdout.write(`${line}\n`);
const MB = 1024 * 1024;

async function measure(label: string, step: () => Promise<unknown>): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  let peakRss = before.rss;
  let peakHeap = before.heap;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 1);
  const started = performance.now();
  let outcome: string;
  try {
    await step();
    outcome = 'accepted';
  } catch (error) {
    outcome = `refused: ${(error as Error).message.slice(0, 70)}…`;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  say(
    `${label.padEnd(46)} ${ms.toFixed(1).padStart(9)} ms   +${((peakRss - before.rss) / MB).toFixed(1).padStart(6)} MB rss   +${((peakHeap - before.heap) / MB).toFixed(1).padStart(6)} MB heap   ${outcome}`,
  );
}

const png = blankPng(8000, 8000);
const pngUrl = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
const longPdf = await pagesPdf(11);
const bomb = objectStreamBomb(64);
const inflating = await inflatingPdf(100);
const ordinary = await pagesPdf(1);
say(
  `inputs: PNG 8000 x 8000 ${(png.length / 1024).toFixed(0)} KB; 11-page PDF ${(longPdf.length / 1024).toFixed(0)} KB; ` +
    `object-stream bomb ${(bomb.length / 1024).toFixed(0)} KB; inflating PDF ${(inflating.length / 1024).toFixed(0)} KB`,
);
// pdf-lib is loaded on first use; load it once so the figures below are the checks themselves.
await assertDocumentWithinLimits(ordinary, 'application/pdf');

await measure('upload check: PNG 8000 x 8000', async () => {
  const { bytes, contentType } = parseImageDataUrl(pngUrl);
  await assertDocumentWithinLimits(bytes, contentType);
});
await measure('upload check: 11-page PDF (object streams)', () =>
  assertDocumentWithinLimits(longPdf, 'application/pdf'),
);
await measure('upload check: object stream inflating to 64 MB', () =>
  assertDocumentWithinLimits(bomb, 'application/pdf'),
);

const draw: PdfPreviewer = { firstPage: (pdf) => renderPdfFirstPage(pdf, 600) };
// pdf.js is loaded on first use too: one drawing first, so the figures are the drawings.
await draw.firstPage(await pagesPdf(2));
const previewer = cachedPdfPreviewer(draw);
await measure('preview: ordinary PDF, first', () => previewer.firstPage(ordinary));
await measure('preview: ordinary PDF, again (kept)', () => previewer.firstPage(ordinary));
await measure('preview: page inflating to 100 MB, first', () => previewer.firstPage(inflating));
await measure('preview: page inflating to 100 MB, again', () => previewer.firstPage(inflating));
await measure('preview before: page inflating to 100 MB, drawn', () => draw.firstPage(inflating));

if (process.env.BENCH_DECODE_BEFORE === '1') {
  const { default: sharp } = await import('sharp');
  await measure('before: PNG 8000 x 8000 decoded by sharp', () => sharp(png).greyscale().raw().toBuffer());
}
