import {
  AnalyzeExpenseCommand,
  TextractServiceException,
  type TextractClient,
} from '@aws-sdk/client-textract';
import { AnalyzerError, silentLogger, type AnalysisResult, type Analyzer, type Logger } from '@receipts/core';
import { mapAnalyzeExpense } from './map-expense';

export interface TextractAnalyzerOptions {
  /** A configured Textract client (region, credentials); the composition root builds it. */
  client: TextractClient;
  logger?: Logger;
}

/** Formats AnalyzeExpense reads synchronously (WebP is not one of them). */
const SUPPORTED_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'application/pdf', 'image/tiff']);
/** AnalyzeExpense's synchronous size limit. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

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
    message:
      'This file is not a format the receipt reader accepts. Upload a JPEG or PNG photo, or a one-page PDF.',
  },
  BadDocumentException: {
    retryable: false,
    message:
      'The receipt reader could not open this image; it may be damaged or a multi-page PDF. Take a new photo or upload a JPEG or PNG.',
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
 * Reads receipts with Amazon Textract AnalyzeExpense. Sends the S3 object when the image is stored
 * there (no upload of the bytes again), the bytes otherwise; maps the response with
 * {@link mapAnalyzeExpense}; translates Textract's errors into AnalyzerError with a message for the user.
 */
export class TextractAnalyzer implements Analyzer {
  readonly name = 'textract';
  private readonly client: TextractClient;
  private readonly logger: Logger;

  constructor(options: TextractAnalyzerOptions) {
    this.client = options.client;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Analyses one receipt.
   * @param image - the image bytes (used when `source` is not given)
   * @param mimeType - the image's content type: JPEG, PNG, TIFF or a one-page PDF
   * @param source - the S3 object holding the same image, sent instead of the bytes
   * @throws AnalyzerError - `retryable` when another attempt may succeed (throttling, service faults,
   *   network), not when the image itself is the problem or nothing could be read from it
   */
  async analyze(
    image: Uint8Array,
    mimeType: string,
    source?: { bucket: string; key: string },
  ): Promise<AnalysisResult> {
    const type = mimeType.split(';')[0]!.trim().toLowerCase();
    if (!SUPPORTED_TYPES.has(type)) {
      throw new AnalyzerError(
        `The receipt reader cannot read ${type === 'image/webp' ? 'WebP images' : `files of type "${type}"`}. Upload a JPEG or PNG photo, or a one-page PDF.`,
        { code: 'UnsupportedImageType', retryable: false },
      );
    }
    if (!source && image.byteLength > MAX_DOCUMENT_BYTES) {
      throw new AnalyzerError(VENDOR_ERRORS['DocumentTooLargeException']!.message, {
        code: 'DocumentTooLarge',
        retryable: false,
      });
    }
    const document = source ? { S3Object: { Bucket: source.bucket, Name: source.key } } : { Bytes: image };
    const started = Date.now();
    let response;
    try {
      response = await this.client.send(new AnalyzeExpenseCommand({ Document: document }));
    } catch (error) {
      throw this.translate(error);
    }
    const result = mapAnalyzeExpense(response);
    this.logger.debug('textract analysed a receipt', {
      ms: Date.now() - started,
      from: source ? 's3' : 'bytes',
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

  private translate(error: unknown): unknown {
    const name = error instanceof Error ? error.name : '';
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
