import {
  AccountDeletedError,
  AnalyzerError,
  AppError,
  ConfigurationError,
  ConflictError,
  DuplicateImageError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  StoreError,
  TransactionError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
  type Logger,
} from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { json, type HttpResult } from './responses';

/** The one mapping of the app's errors to HTTP status codes. */
export function statusOf(error: unknown): number {
  if (error instanceof ValidationError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof AccountDeletedError) return 410;
  if (error instanceof PayloadTooLargeError) return 413;
  if (error instanceof UnsupportedMediaTypeError) return 415;
  if (error instanceof TooManyRequestsError) return 429;
  if (error instanceof AnalyzerError) return 422;
  // Another request wrote the same rows first: nothing is down, reading again and retrying may work.
  if (error instanceof TransactionError && error.lostRace) return 409;
  if (error instanceof StoreError) return 503;
  if (error instanceof ServiceUnavailableError) return 503;
  return 500;
}

/** What a person is told when their write lost a race with another one (the store's words name keys). */
export const LOST_RACE_MESSAGE =
  'Someone else changed this at the same moment, so nothing was saved. Reload and try again.';

/**
 * The answer for an error: `{ error, message }`. 4xx messages are the error's own (written for the
 * person who sees them); 5xx answers say what to do and never carry internals or a stack, which
 * only go to the log with the request id.
 */
export function errorResponse(
  error: unknown,
  logger: Logger,
  context: { route: string; requestId?: string; event?: APIGatewayProxyEventV2 },
): HttpResult {
  const status = statusOf(error);
  const code = error instanceof AppError ? error.code : 'InternalError';
  if (status < 500) {
    logger.info('request refused', { route: context.route, status, code, requestId: context.requestId });
    const message = error instanceof TransactionError ? LOST_RACE_MESSAGE : (error as AppError).message;
    const body: ErrorAnswer = { error: code, message };
    if (error instanceof DuplicateImageError) body.receiptId = error.receiptId;
    const retryAfter = error instanceof TooManyRequestsError ? error.retryAfterSeconds : undefined;
    const answer = json(status, body);
    if (retryAfter !== undefined) answer.headers = { ...answer.headers, 'retry-after': String(retryAfter) };
    return answer;
  }
  logger.error('request failed', {
    route: context.route,
    status,
    code,
    requestId: context.requestId,
    // The error itself: either logger writes its name, message, stack and cause.
    error: error instanceof Error ? error : String(error),
  });
  const message =
    status === 503
      ? error instanceof ServiceUnavailableError
        ? error.message
        : 'A service the app depends on is unavailable right now. Try again in a moment.'
      : error instanceof ConfigurationError
        ? 'The server is not configured correctly; the administrator has been told in the log.'
        : `Something went wrong on our side${context.requestId ? ` (request ${context.requestId})` : ''}. Try again.`;
  const body: ErrorAnswer = { error: status === 503 ? 'ServiceUnavailable' : 'InternalError', message };
  return json(status, body);
}
