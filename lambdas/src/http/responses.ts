import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  /**
   * A body sent in chunks as they are made (the CSV export, text; the data download, bytes), instead
   * of `body`. The local server writes it out chunk by chunk; on Lambda, whose HTTP API integration
   * answers in one piece, {@link bufferedResult} joins it first.
   */
  bodyStream?: AsyncIterable<string> | AsyncIterable<Uint8Array>;
};

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * How many times gzip may shrink a text answer, at most, for its size check as it is made: a CSV
 * export compresses 4 to 6 times; 8 leaves a margin.
 */
const TEXT_GZIP_RATIO = 8;

/** Answers smaller than this are sent as they are; compressing them gains nothing. */
const GZIP_MIN_BYTES = 16 * 1024;

/**
 * A JSON answer. `json` is the body already serialised (large report data is cached as text).
 * Large bodies are gzipped when the client accepts it: a Lambda answer must stay under 6 MB, and the
 * report data of a large account is several MB of repetitive JSON.
 */
export function jsonText(statusCode: number, json: string, event?: APIGatewayProxyEventV2): HttpResult {
  const acceptsGzip = /\bgzip\b/i.test(header(event, 'accept-encoding') ?? '');
  if (acceptsGzip && json.length >= GZIP_MIN_BYTES) {
    const body = gzipSync(json, { level: 4 }).toString('base64');
    return {
      statusCode,
      headers: { ...BASE_HEADERS, 'content-encoding': 'gzip', vary: 'accept-encoding' },
      body,
      isBase64Encoded: true,
    };
  }
  return { statusCode, headers: { ...BASE_HEADERS }, body: json, isBase64Encoded: false };
}

/** A JSON answer of a value. */
export function json(statusCode: number, value: unknown, event?: APIGatewayProxyEventV2): HttpResult {
  return jsonText(statusCode, JSON.stringify(value), event);
}

/** A request header, case-insensitively (API Gateway lower-cases them; tests may not). */
export function header(event: APIGatewayProxyEventV2 | undefined, name: string): string | undefined {
  if (!event?.headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** A streamed download: text (a CSV file) or bytes (a ZIP archive). */
export function streamedDownload(
  stream: AsyncIterable<string> | AsyncIterable<Uint8Array>,
  contentType: string,
  fileName: string,
): HttpResult {
  return {
    statusCode: 200,
    headers: {
      ...BASE_HEADERS,
      'content-type': contentType,
      'content-disposition': `attachment; filename="${fileName}"`,
    },
    bodyStream: stream,
  };
}

/**
 * The most a Lambda answer behind API Gateway may carry: 6 MB for the whole answer (body, headers and
 * their JSON envelope); a margin is kept for the headers and escaping.
 */
export const LAMBDA_ANSWER_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/**
 * The result with a streamed body joined into `body`, for a runtime that answers in one piece (Lambda
 * behind API Gateway's HTTP API). The text is gzipped when the client accepts it (a CSV compresses several
 * times over), and an answer that would still be over `maxBytes` becomes a 413 whose message says how
 * to get the data in parts, instead of the gateway's bare 502.
 */
export async function bufferedResult(
  result: HttpResult,
  options: { event?: APIGatewayProxyEventV2; maxBytes?: number; tooLargeMessage?: string } = {},
): Promise<HttpResult> {
  if (!result.bodyStream) return result;
  const { bodyStream, ...rest } = result;
  const maxBytes = options.maxBytes ?? LAMBDA_ANSWER_BYTES;
  const chunks: (string | Uint8Array)[] = [];
  const acceptsGzip = /\bgzip\b/i.test(header(options.event, 'accept-encoding') ?? '');
  // Text is answered as it is, or gzipped when the client takes it, which CSV rarely shrinks more
  // than TEXT_GZIP_RATIO times: past that much text the answer cannot fit either way.
  const maxText = acceptsGzip ? maxBytes * TEXT_GZIP_RATIO : maxBytes;
  // Bytes travel base64-encoded (4 characters per 3 bytes): stop reading once that cannot fit, and
  // text once it is over maxText, before the rest of it is made.
  let bytes = 0;
  let textLength = 0;
  let tooLarge = false;
  for await (const chunk of bodyStream) {
    chunks.push(chunk);
    if (typeof chunk === 'string') {
      textLength += chunk.length;
      tooLarge = textLength > maxText;
    } else {
      bytes += chunk.length;
      tooLarge = Math.ceil(bytes / 3) * 4 > maxBytes;
    }
    if (tooLarge) break;
  }
  const answerTooLarge = () =>
    json(413, {
      error: 'AnswerTooLarge',
      message:
        options.tooLargeMessage ??
        'This answer is larger than the server can send at once; ask for less of it.',
    });
  if (tooLarge) return answerTooLarge();
  const binary = chunks.some((chunk) => typeof chunk !== 'string');
  const text = binary ? '' : (chunks as string[]).join('');
  let answer: HttpResult;
  if (binary) {
    answer = {
      ...rest,
      body: Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('base64'),
      isBase64Encoded: true,
    };
  } else if (acceptsGzip && text.length >= GZIP_MIN_BYTES) {
    answer = {
      ...rest,
      headers: { ...rest.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
      body: gzipSync(text, { level: 6 }).toString('base64'),
      isBase64Encoded: true,
    };
  } else {
    answer = { ...rest, body: text, isBase64Encoded: false };
  }
  // The body travels JSON-encoded inside the Lambda answer: escaping counts too.
  if (Buffer.byteLength(JSON.stringify(answer.body)) > maxBytes) return answerTooLarge();
  return answer;
}
