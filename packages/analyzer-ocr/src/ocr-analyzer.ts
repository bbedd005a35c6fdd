import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createScheduler, createWorker, OEM, type Page, type Scheduler, type Worker } from 'tesseract.js';
import {
  AnalyzerError,
  checkedConfidence,
  silentLogger,
  type AnalysisResult,
  type Analyzer,
  type ChainLookup,
  type Logger,
} from '@receipts/core';
import { READING_PLAN, mergeReadings, readingsAgree, type Reading, type ReadingPlan } from './merge-readings';
import { parseReceiptText, type ParsedReceipt } from './parse-receipt';
import { combineEngineReadings, confidencesOf, paddleNameStands } from './combine-engines';
import { prepareImage, sniffImageType, type PreparedImage, type Rendering } from './preprocess';
import { joinPageTexts, readPdfPages } from './pdf-pages';
import { PaddleReader, type PaddleLine } from './paddle-ocr';
import { HEADING_SHARE, readUpright, topOf } from './receipt-header';

/** The OCR engines the local analyzer can read images with (see the package README for their costs). */
export type OcrEngine = 'tesseract' | 'paddle' | 'combined';
export const OCR_ENGINES: readonly OcrEngine[] = ['tesseract', 'paddle', 'combined'];

export interface OcrAnalyzerOptions {
  /**
   * Tesseract workers kept warm, each taking one reading at a time, and as many PaddleOCR model
   * threads (default 1): the number of receipts read side by side at full speed.
   */
  workers?: number;
  logger?: Logger;
  /**
   * How each receipt is read: the first two readings always run, the others only while the
   * readings so far disagree on merchant, date or total. Default {@link READING_PLAN}.
   */
  plan?: readonly ReadingPlan[];
  /**
   * `tesseract` (default): tesseract.js with several renderings merged; `paddle`: PaddleOCR (PP-OCRv4,
   * ONNX) reads the image once; `combined`: PaddleOCR reads the whole receipt, then Tesseract its
   * heading (the top {@link HEADING_SHARE}) unless PaddleOCR's name stands on its own
   * (`paddleNameStands`), figures from PaddleOCR and the merchant from Tesseract (see
   * `combineEngineReadings`); Tesseract reads the whole receipt too only when PaddleOCR found no
   * total or no date.
   */
  engine?: OcrEngine;
  /**
   * Where the engines' readings are kept and looked up, keyed by the bytes read and how they were
   * read: a receipt read again (the evaluation's reruns) is parsed again from its stored readings
   * instead of being read by OCR. None by default (the app reads each receipt once).
   */
  readingCache?: ReadingCache;
  /**
   * Known store chains (the brand dictionary of `@receipts/enricher-brands`, handed in by the
   * composition root): a chain the receipt names anywhere gives the merchant its name, owner and
   * category. Without it the merchant is read from the heading alone.
   */
  chains?: ChainLookup;
}

/**
 * A store of OCR readings (`npm run eval` keeps one on disk). Keys name the engine, its settings and
 * a hash of the bytes read; values are JSON.
 */
export interface ReadingCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** The cache key of a reading: the engine and its settings, and the SHA-256 of the bytes read. */
function readingKey(what: string, bytes: Uint8Array): string {
  return `${what}-${createHash('sha256').update(bytes).digest('hex')}`;
}

/** One line of OCR output, as kept in `raw`. */
export interface OcrLine {
  text: string;
  /** 0..100, as Tesseract reports it. */
  confidence: number;
}

const requireFromHere = createRequire(import.meta.url);

/**
 * The folder holding `eng.traineddata.gz` from the npm package `@tesseract.js-data/eng`: the
 * `4.0.0_best_int` model (LSTM, integer weights), the most accurate of the two it ships.
 */
export function englishDataPath(): string {
  const pkg = requireFromHere.resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(pkg), '4.0.0_best_int');
}

const ACCEPTED = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'application/pdf']);

/**
 * The local, offline analyzer: Tesseract (tesseract.js, WebAssembly) reads the receipt image, and
 * our receipt parser turns the text into merchant, receipt, items and taxes. Workers are created
 * once and reused; the English model and the engine both load from node_modules, never the network.
 */
export class OcrAnalyzer implements Analyzer {
  readonly name = 'ocr';
  private closed = false;

  private constructor(
    private readonly scheduler: Scheduler,
    private readonly pool: Worker[],
    private readonly logger: Logger,
    private readonly plan: readonly ReadingPlan[],
    private readonly paddle: PaddleReader | null = null,
    private readonly cache: ReadingCache | null = null,
    private readonly chains: ChainLookup | undefined = undefined,
  ) {}

  /**
   * Starts the worker pool. Takes about half a second per worker (loading the model).
   * @param options - `workers` (default 1), `logger`, `plan`
   */
  static async create(options: OcrAnalyzerOptions = {}): Promise<OcrAnalyzer> {
    const count = Math.max(1, Math.floor(options.workers ?? 1));
    const logger = options.logger ?? silentLogger;
    let paddle: PaddleReader | null = null;
    if (options.engine === 'paddle' || options.engine === 'combined') {
      try {
        paddle = await PaddleReader.create({ threads: count });
      } catch (cause) {
        throw new AnalyzerError('The OCR engine could not start.', {
          cause,
          retryable: true,
          code: 'OcrStartFailed',
        });
      }
      if (options.engine === 'paddle')
        return new OcrAnalyzer(
          createScheduler(),
          [],
          logger,
          READING_PLAN,
          paddle,
          options.readingCache,
          options.chains,
        );
    }
    const langPath = englishDataPath();
    const scheduler = createScheduler();
    const started = Date.now();
    const settled = await Promise.allSettled(
      Array.from({ length: count }, async () => {
        const worker = await createWorker('eng', OEM.LSTM_ONLY, {
          langPath,
          gzip: true,
          cacheMethod: 'none',
          errorHandler: (error: unknown) => logger.error('OCR worker error', { error: String(error) }),
        });
        await quiet(worker);
        return worker;
      }),
    );
    const workers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.allSettled(workers.map((w) => w.terminate()));
      throw new AnalyzerError('The OCR engine could not start.', {
        cause: failed.reason,
        retryable: true,
        code: 'OcrStartFailed',
      });
    }
    for (const worker of workers) scheduler.addWorker(worker);
    logger.info('OCR workers ready', { workers: count, ms: Date.now() - started, langPath });
    const plan = options.plan && options.plan.length > 0 ? options.plan : READING_PLAN;
    return new OcrAnalyzer(scheduler, workers, logger, plan, paddle, options.readingCache, options.chains);
  }

  /** What every parse of a reading is given: the chains, when known. */
  private parseOptions(): { chains?: ChainLookup } {
    return this.chains ? { chains: this.chains } : {};
  }

  /** Number of warm workers. */
  get workers(): number {
    return this.pool.length;
  }

  /**
   * Reads one receipt. JPEG, PNG and WebP are read with OCR; a PDF (up to MAX_PDF_PAGES pages) from
   * its text layer, page by page, and its pages without one (scans) with OCR.
   * @param image - the file's bytes
   * @param mimeType - its declared content type; the bytes themselves decide the format
   * @throws AnalyzerError - not retryable for files that are not a receipt image we can read
   */
  async analyze(image: Uint8Array, mimeType: string): Promise<AnalysisResult> {
    if (this.closed) throw new AnalyzerError('The OCR analyzer has been closed.', { retryable: true });
    const declared = mimeType.split(';')[0]!.trim().toLowerCase();
    const actual = sniffImageType(image);
    if (!actual) {
      const what = ACCEPTED.has(declared)
        ? `labelled ${declared} but its contents are not`
        : `of type ${declared || 'unknown'}, not`;
      throw new AnalyzerError(
        `The file is ${what} a JPEG, PNG, WebP or PDF receipt. Take a photo of the receipt or upload one of those formats.`,
        { retryable: false, code: 'UnsupportedImage' },
      );
    }
    const started = Date.now();
    if (actual === 'application/pdf') return this.analyzePdf(image, started);
    return this.analyzeImage(image, actual, started);
  }

  /**
   * A PDF is one receipt, however many pages: each page is read from its text layer, or by OCR when it
   * has none, and the pages' text is parsed as one receipt. A PDF of a single scanned page is read as
   * a photo would be (every reading of the plan).
   */
  private async analyzePdf(image: Uint8Array, started: number): Promise<AnalysisResult> {
    const pages = await readPdfPages(image);
    const only = pages.length === 1 ? pages[0]! : null;
    if (only?.kind === 'image') {
      const result = await this.analyzeImage(only.png, 'image/png', started);
      const read =
        result.merchant.name ?? result.receipt.total_amount ?? result.receipt.transaction_date ?? null;
      if (read === null && result.items.length === 0) throw nothingInPdf();
      return { ...result, raw: { engine: 'pdf-ocr', pages: 1, ocr: result.raw, ms: Date.now() - started } };
    }
    const read: { page: number; source: 'text-layer' | 'ocr'; text: string }[] = [];
    for (const page of pages) {
      if (page.kind === 'text') read.push({ page: page.number, source: 'text-layer', text: page.text });
      else read.push({ page: page.number, source: 'ocr', text: await this.pageTextByOcr(page.png) });
    }
    const text = joinPageTexts(read.map((p) => p.text));
    if (text.length === 0) throw nothingInPdf();
    const parsed = parseReceiptText(text, this.parseOptions());
    const scanned = read.some((p) => p.source === 'ocr');
    this.logger.debug('PDF receipt read', { pages: pages.length, scanned, ms: Date.now() - started });
    return {
      analyzer: this.name,
      ...parsed,
      ...(scanned ? { confidence: checkedConfidence(parsed) } : {}),
      raw: {
        engine: scanned ? 'pdf-ocr' : 'pdf-text-layer',
        pages: pages.length,
        text,
        pageTexts: read,
        ms: Date.now() - started,
      },
    };
  }

  /** The text of one scanned page of a multi-page PDF: the plan's first reading, or PaddleOCR alone. */
  private async pageTextByOcr(png: Uint8Array): Promise<string> {
    if (this.pool.length === 0 && this.paddle) {
      try {
        return (await this.paddle.read(png)).map((l) => l.text).join('\n');
      } catch (cause) {
        throw new AnalyzerError('OCR failed on a page of this PDF. Try again, or upload a sharper scan.', {
          cause,
          retryable: true,
          code: 'OcrFailed',
        });
      }
    }
    const prepared = prepareImage(png, this.plan[0]!.rendering);
    const reading = await this.read(png, 'image/png', this.plan[0]!, () => prepared);
    return reading.text;
  }

  private async analyzeImage(image: Uint8Array, actual: string, started: number): Promise<AnalysisResult> {
    // The first two readings are independent: with two workers they run side by side.
    // Readings of the same rendering share one prepared image.
    if (this.paddle && this.pool.length === 0) {
      const paddle = await this.readWithPaddle(image);
      return {
        analyzer: this.name,
        ...paddle.parsed,
        confidence: checkedConfidence(paddle.parsed),
        raw: { ...paddle.raw, ms: Date.now() - started },
      };
    }
    if (this.paddle) {
      // PaddleOCR reads the whole receipt; then Tesseract its heading (the business's name and
      // address, where it reads better) unless PaddleOCR's name stands on its own, and the whole
      // receipt only when PaddleOCR found no total or no date.
      // Decoding the image first: a file that is not one fails here, not retryable. Its heading is
      // cut from the decoded pixels only when Tesseract is to read it.
      const upright = await readUpright(image);
      const paddle = await this.readWithPaddle(image);
      const needsHeading = !paddleNameStands(paddle.parsed);
      const needsWhole =
        paddle.parsed.receipt.total_amount === null || paddle.parsed.receipt.transaction_date === null;
      const [header, whole] = await Promise.all([
        needsHeading ? this.readWithTesseract(await topOf(upright, HEADING_SHARE), 'image/png') : null,
        needsWhole ? this.readWithTesseract(image, actual) : null,
      ]);
      const tesseract =
        whole && header ? withMerchantOf(whole.parsed, header.parsed) : ((whole ?? header)?.parsed ?? null);
      const combined = combineEngineReadings(paddle.parsed, tesseract, { wholePage: whole !== null });
      return {
        analyzer: this.name,
        ...combined,
        confidence: checkedConfidence(combined),
        raw: {
          engine: tesseract ? 'paddleocr+tesseract.js' : 'paddleocr',
          ms: Date.now() - started,
          paddle: paddle.raw,
          ...(header ? { tesseract: { ...header.raw, heading: HEADING_SHARE } } : {}),
          ...(whole ? { tesseractWhole: whole.raw } : {}),
        },
      };
    }
    const tesseract = await this.readWithTesseract(image, actual);
    const ms = Date.now() - started;
    this.logger.debug('receipt read', { ms, total: tesseract.parsed.receipt.total_amount });
    return {
      analyzer: this.name,
      ...tesseract.parsed,
      confidence: checkedConfidence(tesseract.parsed),
      raw: { ...tesseract.raw, ms },
    };
  }

  private async readWithPaddle(
    image: Uint8Array,
  ): Promise<{ parsed: ParsedReceipt; lines: PaddleLine[]; raw: Record<string, unknown> }> {
    const started = Date.now();
    let lines: PaddleLine[];
    try {
      // `paddle2`: the readings keep the characters the model was unsure of (`doubts`).
      lines = await this.cached(readingKey('paddle2', image), () => this.paddle!.read(image));
    } catch (cause) {
      throw new AnalyzerError('OCR failed on this image. Try again, or take a sharper photo.', {
        cause,
        retryable: true,
        code: 'OcrFailed',
      });
    }
    const text = lines.map((l) => l.text).join('\n');
    const parsed = parseReceiptText(text, {
      ...this.parseOptions(),
      lineConfidences: lines.map((l) => l.confidence),
      lineDoubts: lines.map((l) => l.doubts ?? null),
      lineWords: lines.map((l) => l.segments),
    });
    return {
      parsed,
      lines,
      raw: { engine: 'paddleocr', model: 'PP-OCRv4 (onnx)', ms: Date.now() - started, text, lines },
    };
  }

  private async readWithTesseract(
    image: Uint8Array,
    actual: string,
  ): Promise<{ parsed: ParsedReceipt; raw: Record<string, unknown> }> {
    const started = Date.now();
    const prepared = new Map<Rendering, Promise<PreparedImage>>();
    const prepare = (rendering: Rendering) => {
      let p = prepared.get(rendering);
      if (!p) prepared.set(rendering, (p = prepareImage(image, rendering)));
      return p;
    };
    const readings: Reading[] = await Promise.all(
      this.plan.slice(0, 2).map((p) => this.read(image, actual, p, prepare)),
    );
    for (const p of this.plan.slice(2)) {
      if (readingsAgree(readings)) break;
      readings.push(await this.read(image, actual, p, prepare));
    }
    return {
      parsed: mergeReadings(readings),
      raw: {
        engine: 'tesseract.js',
        model: 'eng 4.0.0_best_int',
        ms: Date.now() - started,
        readings: readings.map((r) => ({
          rendering: r.rendering,
          pageSegMode: r.pageSegMode,
          steps: r.steps,
          confidence: r.confidence,
          ms: r.ms,
          text: r.text,
          lines: r.lines,
        })),
      },
    };
  }

  private async read(
    image: Uint8Array,
    type: string,
    plan: ReadingPlan,
    prepare: (rendering: Rendering) => Promise<PreparedImage>,
  ): Promise<Reading> {
    const started = Date.now();
    const { rendering, pageSegMode } = plan;
    const { steps, lines, confidence } = await this.cached(
      readingKey(`tesseract-${rendering}-${pageSegMode}`, image),
      () => this.recognize(image, type, plan, prepare),
    );
    const text = lines.map((l) => l.text).join('\n');
    const parsed = parseReceiptText(text, {
      ...this.parseOptions(),
      lineConfidences: lines.map((l) => l.confidence / 100),
    });
    return { rendering, pageSegMode, steps, text, lines, confidence, ms: Date.now() - started, parsed };
  }

  /** The reading `make` gives, or the one kept in the reading cache under `key`. */
  private async cached<T>(key: string, make: () => Promise<T>): Promise<T> {
    const kept = this.cache ? await this.cache.get(key) : undefined;
    if (kept !== undefined && kept !== null) return kept as T;
    const made = await make();
    await this.cache?.set(key, made);
    return made;
  }

  /** Tesseract's lines for one reading of the plan, with the preparation steps and its page confidence. */
  private async recognize(
    image: Uint8Array,
    type: string,
    plan: ReadingPlan,
    prepare: (rendering: Rendering) => Promise<PreparedImage>,
  ): Promise<{ steps: string[]; lines: OcrLine[]; confidence: number }> {
    const { rendering, pageSegMode } = plan;
    const prepared = await prepare(rendering);
    // Tesseract decodes JPEG and PNG itself; handing it the untouched file avoids a re-encode when
    // nothing needed changing.
    const untouched = prepared.steps.length === 0 && type !== 'image/webp';
    let page: Page;
    try {
      // Tesseract parameters given with one job apply to that job only.
      const perJob = { tessedit_pageseg_mode: pageSegMode } as Record<string, string>;
      const result = await this.scheduler.addJob(
        'recognize',
        untouched ? Buffer.from(image) : prepared.png,
        perJob,
        { text: true, blocks: true },
      );
      page = result.data as unknown as Page;
    } catch (cause) {
      throw new AnalyzerError('OCR failed on this image. Try again, or take a sharper photo.', {
        cause,
        retryable: true,
        code: 'OcrFailed',
      });
    }
    const lines: OcrLine[] = [];
    for (const block of page.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const text = line.text.replace(/\s+$/, '');
          if (text.length > 0) lines.push({ text, confidence: Math.round(line.confidence * 10) / 10 });
        }
      }
    }
    return { steps: prepared.steps, lines, confidence: page.confidence };
  }

  /** Terminates the workers. The analyzer cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The scheduler's own terminate does not wait for its workers; these do.
    await Promise.allSettled([...this.pool.map((w) => w.terminate()), this.paddle?.close()]);
  }
}

/** A whole receipt's reading with the merchant (and its confidences) of a reading of its heading. */
function withMerchantOf(whole: ParsedReceipt, heading: ParsedReceipt): ParsedReceipt {
  return { ...whole, merchant: heading.merchant, confidence: confidencesOf(whole, heading) };
}

const nothingInPdf = () =>
  new AnalyzerError(
    'No text could be read from this PDF. Upload a sharper scan, or a photo of the receipt (JPEG, PNG or WebP).',
    { retryable: false, code: 'PdfWithoutText' },
  );

/** Keeps Tesseract's diagnostic chatter ("Estimating resolution…") off the process's output. */
async function quiet(worker: Worker): Promise<void> {
  await worker.setParameters({ debug_file: '/dev/null' });
}
