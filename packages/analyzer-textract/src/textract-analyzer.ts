import { createHash } from 'node:crypto';
import {
  AnalyzeExpenseCommand,
  GetExpenseAnalysisCommand,
  StartExpenseAnalysisCommand,
  TextractServiceException,
  type ExpenseDocument,
  type GetExpenseAnalysisCommandOutput,
  type TextractClient,
} from '@aws-sdk/client-textract';
import {
  AnalyzerError,
  AppError,
  MAX_PDF_PAGES,
  countPdfPages,
  silentLogger,
  type AnalysisResult,
  type Analyzer,
  type ChainLookup,
  type Logger,
} from '@receipts/core';
import { mapAnalyzeExpense } from './map-expense';

export interface TextractAnalyzerOptions {
  /** A configured Textract client (region, credentials); the composition root builds it. */
  client: TextractClient;
  /** Known store chains: a chain the receipt names gives the merchant its name, owner and category. */
  chains?: ChainLookup;
  logger?: Logger;
  /**
   * How long to wait for an asynchronous analysis (multi-page PDFs) before giving up on this attempt
   * (default 45 s). The attempt fails as retryable; the next one picks up the same Textract job.
   */
  maxWaitMs?: number;
  /** Pause between polls of an asynchronous analysis: it starts at 1 s and doubles up to this (default 5 s). */
  maxPollIntervalMs?: number;
  /** Waits `ms` milliseconds (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>;
}

/** Formats AnalyzeExpense reads synchronously (WebP is not one of them). */
const SUPPORTED_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'application/pdf', 'image/tiff']);
/** AnalyzeExpense's synchronous size limit. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** The first pause before asking for an asynchronous analysis' results; a receipt takes seconds. */
const FIRST_POLL_MS = 1000;

const RETRY_LATER = 'The receipt reader is busy right now; the scan will be tried again shortly.';

/**
 * Vendor errors and what they mean for the user: whether another attempt may succeed, and a message
 * that says what to do.
 */
const VENDOR_ERRORS: Readonly<Record<string, { retryable: boolean; message: string }>> = {
  ThrottlingException: { retryable: true, message: RETRY_LATER },
  ProvisionedThroughputExceededException: { retryable: true, message: RETRY_LATER },
  LimitExceededException: { retryable: true, message: RETRY_LATER },
  InternalServerError: {
    retryable: true,
    message: 'The receipt reader had an internal problem; the scan will be tried again shortly.',
  },
  UnsupportedDocumentException: {
    retryable: false,
    message: 'This file is not a format the receipt reader accepts. Upload a JPEG or PNG photo, or a PDF.',
  },
  BadDocumentException: {
    retryable: false,
    message:
      'The receipt reader could not open this image; it may be damaged. Take a new photo or upload a JPEG or PNG.',
  },
  DocumentTooLargeException: {
    retryable: false,
    message: 'The image is too large for the receipt reader (10 MB at most). Upload a smaller photo.',
  },
  InvalidParameterException: {
    retryable: false,
    message: 'The receipt reader refused this image. Upload it again as a JPEG or PNG photo of the receipt.',
  },
  InvalidS3ObjectException: {
    retryable: false,
    message: 'The stored receipt image could not be read by the receipt reader. Upload the receipt again.',
  },
  AccessDeniedException: {
    retryable: false,
    message:
      'Receipt analysis is not permitted for this deployment. An administrator must grant access to Amazon Textract.',
  },
};

const NETWORK_ERRORS = new Set([
  'TimeoutError',
  'AbortError',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Reads receipts with Amazon Textract. Images and one-page PDFs go through the synchronous
 * AnalyzeExpense, which is sent the S3 object when the image is stored there (no upload of the bytes
 * again), the bytes otherwise. A multi-page PDF goes through the asynchronous StartExpenseAnalysis /
 * GetExpenseAnalysis (the only Textract calls that read more than one page; they need the S3 object),
 * polled for a bounded time, and its pages are merged into one receipt. The response is mapped with
 * {@link mapAnalyzeExpense}; Textract's errors become AnalyzerError with a message for the user.
 */
export class TextractAnalyzer implements Analyzer {
  readonly name = 'textract';
  private readonly client: TextractClient;
  private readonly chains: ChainLookup | undefined;
  private readonly logger: Logger;
  private readonly maxWaitMs: number;
  private readonly maxPollIntervalMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: TextractAnalyzerOptions) {
    this.client = options.client;
    this.chains = options.chains;
    this.logger = options.logger ?? silentLogger;
    this.maxWaitMs = options.maxWaitMs ?? 45_000;
    this.maxPollIntervalMs = options.maxPollIntervalMs ?? 5_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Analyses one receipt.
   * @param image - the image bytes (sent when `source` is not given; a PDF's pages are counted from them)
   * @param mimeType - the image's content type: JPEG, PNG, TIFF or a PDF of up to {@link MAX_PDF_PAGES} pages
   * @param source - the S3 object holding the same image, sent instead of the bytes; a multi-page PDF
   *   can only be read from there
   * @throws AnalyzerError - `retryable` when another attempt may succeed (throttling, service faults,
   *   network, an asynchronous analysis still running), not when the image itself is the problem or
   *   nothing could be read from it
   */
  async analyze(
    image: Uint8Array,
    mimeType: string,
    source?: { bucket: string; key: string },
  ): Promise<AnalysisResult> {
    const type = mimeType.split(';')[0]!.trim().toLowerCase();
    if (!SUPPORTED_TYPES.has(type)) {
      throw new AnalyzerError(
        `The receipt reader cannot read ${type === 'image/webp' ? 'WebP images' : `files of type "${type}"`}. Upload a JPEG or PNG photo, or a PDF.`,
        { code: 'UnsupportedImageType', retryable: false },
      );
    }
    const started = Date.now();
    // Neither AnalyzeExpense nor StartExpenseAnalysis takes a page limit (Textract reads and bills
    // every page of the document, up to its own maximum of 3,000), so the pages are counted from the
    // PDF's page tree first and a longer PDF is never sent.
    const pages = type === 'application/pdf' ? await pagesOf(image) : 1;
    if (pages > MAX_PDF_PAGES) throw tooManyPages(pages);
    let response: { ExpenseDocuments?: ExpenseDocument[] };
    let mode: 'sync' | 'async' = 'sync';
    if (pages > 1) {
      mode = 'async';
      response = await this.analyzeAsync(requireSource(source));
    } else {
      if (!source && image.byteLength > MAX_DOCUMENT_BYTES) {
        throw new AnalyzerError(VENDOR_ERRORS['DocumentTooLargeException']!.message, {
          code: 'DocumentTooLarge',
          retryable: false,
        });
      }
      const document = source ? { S3Object: { Bucket: source.bucket, Name: source.key } } : { Bytes: image };
      try {
        response = await this.client.send(new AnalyzeExpenseCommand({ Document: document }));
      } catch (error) {
        // AnalyzeExpense refuses some one-page PDFs it cannot open synchronously; the asynchronous
        // analysis reads them (the page count above still bounds what it is sent).
        if (!(type === 'application/pdf' && source && nameOf(error) === 'UnsupportedDocumentException'))
          throw this.translate(error);
        mode = 'async';
        response = await this.analyzeAsync(source);
      }
    }
    const result = mapAnalyzeExpense(response, this.chains ? { chains: this.chains } : {});
    this.logger.debug('textract analysed a receipt', {
      ms: Date.now() - started,
      from: source ? 's3' : 'bytes',
      mode,
      documents: response.ExpenseDocuments?.length ?? 0,
      items: result.items.length,
    });
    const read = result.merchant.name ?? result.receipt.total_amount ?? result.receipt.transaction_date;
    if (read === null && result.items.length === 0) {
      throw new AnalyzerError(
        'No receipt could be read from this image. Take a sharper photo with the whole receipt in view.',
        { code: 'NothingRead', retryable: false },
      );
    }
    return result;
  }

  /**
   * Runs StartExpenseAnalysis on the S3 object and polls GetExpenseAnalysis until it ends, then reads
   * every page of results. The start request carries a token derived from the object, so a retry of a
   * timed-out attempt is handed the same job instead of paying for a second analysis.
   */
  private async analyzeAsync(source: { bucket: string; key: string }): Promise<{
    ExpenseDocuments: ExpenseDocument[];
    DocumentMetadata?: GetExpenseAnalysisCommandOutput['DocumentMetadata'];
  }> {
    let jobId: string | undefined;
    try {
      const started = await this.client.send(
        new StartExpenseAnalysisCommand({
          DocumentLocation: { S3Object: { Bucket: source.bucket, Name: source.key } },
          ClientRequestToken: requestToken(source),
        }),
      );
      jobId = started.JobId;
    } catch (error) {
      throw this.translate(error);
    }
    if (!jobId) {
      throw new AnalyzerError(RETRY_LATER, { code: 'TextractNoJobId', retryable: true });
    }
    let waited = 0;
    let interval = FIRST_POLL_MS;
    let first: GetExpenseAnalysisCommandOutput;
    for (;;) {
      first = await this.getResults(jobId);
      if (first.JobStatus !== 'IN_PROGRESS') break;
      if (waited + interval > this.maxWaitMs) {
        this.logger.warn('textract job still running', { jobId, waitedMs: this.maxWaitMs });
        throw new AnalyzerError(
          'The receipt reader is taking longer than usual with this PDF; the scan will be tried again shortly.',
          { code: 'TextractJobStillRunning', retryable: true },
        );
      }
      await this.sleep(interval);
      waited += interval;
      interval = Math.min(interval * 2, this.maxPollIntervalMs);
    }
    if (first.JobStatus === 'FAILED') {
      this.logger.warn('textract job failed', { jobId, message: first.StatusMessage });
      throw new AnalyzerError(
        'The receipt reader could not read this PDF. Check that it opens and is not password-protected, or upload a photo of the receipt.',
        { code: 'TextractJobFailed', retryable: false },
      );
    }
    if (first.JobStatus === 'PARTIAL_SUCCESS')
      this.logger.warn('textract read only part of a PDF', { jobId, warnings: first.Warnings?.length ?? 0 });
    const documents = [...(first.ExpenseDocuments ?? [])];
    for (let token = first.NextToken; token;) {
      const next = await this.getResults(jobId, token);
      documents.push(...(next.ExpenseDocuments ?? []));
      token = next.NextToken;
    }
    return { ExpenseDocuments: documents, DocumentMetadata: first.DocumentMetadata };
  }

  private async getResults(jobId: string, nextToken?: string): Promise<GetExpenseAnalysisCommandOutput> {
    try {
      return await this.client.send(
        new GetExpenseAnalysisCommand({ JobId: jobId, ...(nextToken ? { NextToken: nextToken } : {}) }),
      );
    } catch (error) {
      throw this.translate(error);
    }
  }

  private translate(error: unknown): unknown {
    const name = nameOf(error);
    const known = VENDOR_ERRORS[name];
    if (known) {
      this.logger.warn('textract refused a receipt', { error: name, retryable: known.retryable });
      return new AnalyzerError(known.message, {
        cause: error,
        code: `Textract${name}`,
        retryable: known.retryable,
      });
    }
    if (error instanceof TextractServiceException) {
      // An error this version does not know by name: a server fault is worth another try.
      const retryable = error.$fault === 'server';
      this.logger.warn('textract failed', { error: name, retryable });
      return new AnalyzerError(
        retryable
          ? RETRY_LATER
          : 'The receipt reader could not analyse this image. Upload it again as a JPEG or PNG photo.',
        { cause: error, code: `Textract${name}`, retryable },
      );
    }
    const code =
      typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
    if (NETWORK_ERRORS.has(name) || NETWORK_ERRORS.has(code)) {
      this.logger.warn('textract unreachable', { error: name || code });
      return new AnalyzerError(
        'The receipt reader could not be reached; the scan will be tried again shortly.',
        {
          cause: error,
          code: 'TextractUnreachable',
          retryable: true,
        },
      );
    }
    return error;
  }
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

function tooManyPages(pages: number): AnalyzerError {
  return new AnalyzerError(
    `This PDF has ${pages} pages; a receipt may have at most ${MAX_PDF_PAGES}. Upload a PDF with only the receipt’s pages.`,
    { code: 'PdfTooManyPages', retryable: false },
  );
}

function requireSource(source: { bucket: string; key: string } | undefined): { bucket: string; key: string } {
  if (source) return source;
  throw new AnalyzerError(
    'A PDF of several pages can only be read from the receipt store (Amazon S3). Upload it through the app, or upload each page as a photo.',
    { code: 'MultiPagePdfNeedsS3', retryable: false },
  );
}

/** A ClientRequestToken (at most 64 characters of [A-Za-z0-9-_]) that names one stored object. */
function requestToken(source: { bucket: string; key: string }): string {
  return createHash('sha256').update(`${source.bucket}/${source.key}`).digest('hex');
}

/** A PDF's pages by its page tree; a PDF that cannot be read that way is not sent to Textract. */
async function pagesOf(pdf: Uint8Array): Promise<number> {
  try {
    return await countPdfPages(pdf);
  } catch (error) {
    if (!(error instanceof AppError) || error instanceof AnalyzerError) throw error;
    throw new AnalyzerError(error.message, { code: error.code, retryable: false, cause: error });
  }
}
