import type { PdfPreviewer } from '../ports';
import { sha256Hex } from '../repository/keys';
import { assertFirstPageWithinLimits } from './pdf-pages';

export interface CachedPdfPreviewerOptions {
  /** Bytes of drawn pages kept (default 64 MB); the least recently shown go first. */
  maxBytes?: number;
  /**
   * Checked before a page is drawn; throws to refuse it (default: the first page's inflated size and
   * pictures, see assertFirstPageWithinLimits).
   */
  check?: (pdf: Uint8Array) => Promise<void>;
}

type Drawn = { png: Uint8Array } | { error: unknown };

/**
 * Draws each PDF's first page once: the drawing (or the refusal to draw it) is kept by the SHA-256
 * of the PDF's bytes, so the queue and the viewer asking for the same preview again, or many times
 * at once, cost one drawing. A page past the limits is refused before it is drawn, and the refusal
 * kept too. The key is the content, so the same bytes always give the same picture; only callers
 * who may read the PDF ask for its preview.
 * @param draw - the previewer that draws (pdf.js on the local server)
 */
export function cachedPdfPreviewer(
  draw: PdfPreviewer,
  options: CachedPdfPreviewerOptions = {},
): PdfPreviewer {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const check = options.check ?? ((pdf: Uint8Array) => assertFirstPageWithinLimits(pdf));
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const kept = new Map<string, Drawn>();
  const drawing = new Map<string, Promise<Drawn>>();
  let keptBytes = 0;
  const sizeOf = (drawn: Drawn) => ('png' in drawn ? drawn.png.byteLength : 0) + 64;

  const keep = (key: string, drawn: Drawn) => {
    const size = sizeOf(drawn);
    if (size > maxBytes) return;
    kept.set(key, drawn);
    keptBytes += size;
    for (const [oldest, old] of kept) {
      if (keptBytes <= maxBytes) break;
      kept.delete(oldest);
      keptBytes -= sizeOf(old);
    }
  };

  return {
    async firstPage(pdf: Uint8Array): Promise<Uint8Array> {
      const key = await sha256Hex(pdf);
      let drawn = kept.get(key);
      if (drawn) {
        kept.delete(key);
        kept.set(key, drawn);
      } else {
        let pending = drawing.get(key);
        if (!pending) {
          pending = check(pdf)
            .then(() => draw.firstPage(pdf))
            .then(
              (png): Drawn => ({ png }),
              (error: unknown): Drawn => ({ error }),
            )
            .then((result) => {
              drawing.delete(key);
              keep(key, result);
              return result;
            });
          drawing.set(key, pending);
        }
        drawn = await pending;
      }
      if ('error' in drawn) throw drawn.error;
      return drawn.png;
    },
  };
}
