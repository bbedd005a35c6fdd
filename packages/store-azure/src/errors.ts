import { RestError } from '@azure/data-tables';
import {
  AppError,
  ConfigurationError,
  ConflictError,
  NotFoundError,
  StoreError,
  TransactionError,
  ValidationError,
} from '@receipts/core';

/** What the store was doing when a call failed, for messages a person can act on. */
export interface CallContext {
  table: string;
  partitionKey?: string;
  rowKey?: string;
  /** The service URL, named when it cannot be reached. */
  endpoint?: string;
}

/**
 * Narrows an unknown error to the SDK's `RestError` (also across duplicated SDK copies, by name).
 * @param error - anything thrown
 */
export function isRestError(error: unknown): error is RestError {
  return (
    error instanceof RestError ||
    (error instanceof Error && error.name === 'RestError' && ('statusCode' in error || 'code' in error))
  );
}

interface ServiceError {
  status: number | undefined;
  code: string | undefined;
  /** The service's own words, first line only (the request id and time follow). */
  message: string;
}

/** Status, code and message of a RestError, wherever the SDK put them. */
export function describeRestError(error: RestError): ServiceError {
  let code = error.code;
  let message = error.message;
  try {
    const body = JSON.parse(error.message) as {
      'odata.error'?: { code?: string; message?: { value?: string } };
    };
    const odata = body['odata.error'];
    if (odata) {
      code ??= odata.code;
      message = odata.message?.value ?? message;
    }
  } catch {
    // Not a JSON body: the message is already text.
  }
  const details = error.details as { errorCode?: unknown } | undefined;
  if (!code && typeof details?.errorCode === 'string') code = details.errorCode;
  return { status: error.statusCode, code, message: (message.split('\n')[0] ?? '').trim() };
}

const describeEntity = (context: CallContext) =>
  `partitionKey "${context.partitionKey}" and rowKey "${context.rowKey}" in table "${context.table}"`;

/**
 * Translates a failure of an entity or table call into the core error hierarchy; unknown failures
 * become a StoreError carrying the original as `cause`.
 * @param error - what the SDK threw
 * @param context - the table (and entity) concerned
 */
export function toStoreError(error: unknown, context: CallContext): AppError {
  if (error instanceof AppError) return error;
  if (!isRestError(error)) {
    return new StoreError(`Azure Tables call on table "${context.table}" failed: ${String(error)}`, {
      cause: error,
    });
  }
  const { status, code, message } = describeRestError(error);
  if (status === undefined) {
    return new StoreError(
      `Could not reach Azure Tables${context.endpoint ? ` at ${context.endpoint}` : ''} (${code ?? message}). ` +
        'Is the service (or Azurite) running, and is the connection string right?',
      { cause: error, code: code ?? 'Unreachable' },
    );
  }
  if (status === 404) {
    if (code === 'TableNotFound' || context.partitionKey === undefined) {
      return new NotFoundError(`Table "${context.table}" does not exist.`, {
        cause: error,
        code: 'TableNotFound',
      });
    }
    return new NotFoundError(`No entity with ${describeEntity(context)}.`, {
      cause: error,
      code: 'EntityNotFound',
    });
  }
  if (status === 409 && code === 'EntityAlreadyExists') {
    return new ConflictError(`An entity with ${describeEntity(context)} already exists.`, {
      cause: error,
      code: 'EntityAlreadyExists',
    });
  }
  if (status === 409 && code === 'TableBeingDeleted') {
    return new ConflictError(`Table "${context.table}" is being deleted; try again in a minute.`, {
      cause: error,
      code: 'TableBeingDeleted',
    });
  }
  if (status === 409) return new ConflictError(message, { cause: error, code: code ?? 'Conflict' });
  if (status === 412) {
    return new ConflictError(
      `The entity with ${describeEntity(context)} has changed since it was read (its etag no longer matches).`,
      { cause: error, code: 'EtagMismatch' },
    );
  }
  if (status === 400 || status === 413)
    return new ValidationError(message, { cause: error, code: code ?? 'BadRequest' });
  if (status === 401 || status === 403) {
    return new ConfigurationError(
      `Azure Tables refused the credentials (${code ?? status}): check the AccountKey or SharedAccessSignature ` +
        'of the connection string.',
      { cause: error, code: code ?? 'AuthenticationFailed' },
    );
  }
  return new StoreError(message || `Azure Tables answered ${status}.`, { cause: error, code, status });
}

/**
 * Translates a failed transaction: the service message without its operation-index prefix (or
 * 'Transaction Failed'), its code and status, and the index of the failing operation.
 * A missing table is a NotFoundError, as for single-entity calls.
 * @param error - what `submitTransaction` threw
 * @param context - the table concerned
 */
export function toTransactionError(error: unknown, context: CallContext): AppError {
  if (error instanceof AppError) return error;
  if (!isRestError(error)) return new TransactionError(undefined, { cause: error });
  const { status, code, message } = describeRestError(error);
  if (status === undefined) return toStoreError(error, context);
  if (code === 'TableNotFound') return toStoreError(error, context);
  if (status === 401 || status === 403) return toStoreError(error, context);
  // The service prefixes the message of a failed changeset operation with its index: "1:The specified…".
  const indexed = /^(\d+):(.*)$/.exec(message);
  const failedIndex = indexed ? Number(indexed[1]) : undefined;
  return new TransactionError(indexed ? (indexed[2] ?? '').trim() : message, {
    cause: error,
    code,
    status,
    failedIndex,
  });
}
