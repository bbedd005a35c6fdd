/**
 * The typed error hierarchy shared by every package. Adapters translate vendor errors into these;
 * the HTTP layer maps them to status codes in one place. Messages are written for the person who
 * sees them: they say what was wrong and, where possible, what to do.
 */
export class AppError extends Error {
  /** A short machine-readable code, stable across versions. */
  readonly code: string;

  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options?.code ?? new.target.name.replace(/Error$/, '');
  }
}

/** The input is malformed or breaks a rule; the caller can fix it (HTTP 400). */
export class ValidationError extends AppError {}

/** No valid credentials were given (HTTP 401). */
export class UnauthorizedError extends AppError {}

/** The caller is known but may not do this (HTTP 403). */
export class ForbiddenError extends AppError {}

/** The thing asked for does not exist, or not for this caller (HTTP 404). */
export class NotFoundError extends AppError {}

/** The write lost a race or would overwrite something that exists (HTTP 409 / 412). */
export class ConflictError extends AppError {}

/**
 * The image was uploaded by the same user before (HTTP 409): `fileName` is the earlier upload, and
 * `receiptId` its receipt (analysed or not yet).
 */
export class DuplicateImageError extends ConflictError {
  readonly receiptId: string;
  readonly fileName: string;

  constructor(message: string, options: { receiptId: string; fileName: string; cause?: unknown }) {
    super(message, { cause: options.cause, code: 'DuplicateImage' });
    this.receiptId = options.receiptId;
    this.fileName = options.fileName;
  }
}

/**
 * The account is being deleted, or was (HTTP 410): nothing more is written for it. The code is
 * `AccountDeleted`.
 */
export class AccountDeletedError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(
      'Your account is being deleted, so nothing more can be saved in it. Sign in again to start a new account.',
      { code: 'AccountDeleted', cause: options?.cause },
    );
  }
}

/** The request body is larger than we accept (HTTP 413). */
export class PayloadTooLargeError extends AppError {}

/** The caller used up a quota (HTTP 429); `retryAfterSeconds` says when it may go on, when known. */
export class TooManyRequestsError extends AppError {
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options?: { cause?: unknown; code?: string; retryAfterSeconds?: number }) {
    super(message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** The content type or format is not one we accept (HTTP 415). */
export class UnsupportedMediaTypeError extends AppError {}

/** A receipt could not be analysed. `retryable` says whether another attempt may succeed. */
export class AnalyzerError extends AppError {
  readonly retryable: boolean;

  constructor(message: string, options?: { cause?: unknown; code?: string; retryable?: boolean }) {
    super(message, options);
    this.retryable = options?.retryable ?? true;
  }
}

/**
 * A service the app depends on (the identity provider, the scan queue) cannot be reached or failed on
 * its side; the same request may work in a moment (HTTP 503). The message is written for the person.
 */
export class ServiceUnavailableError extends AppError {}

/** A table store call failed for a reason other than the ones above. */
export class StoreError extends AppError {
  /** HTTP-like status reported by the service, when there is one. */
  readonly status: number | undefined;

  constructor(message: string, options?: { cause?: unknown; code?: string; status?: number }) {
    super(message, options);
    this.status = options?.status;
  }
}

/**
 * A transaction was refused or failed as a whole: no operation of it was applied.
 * Carries the service message (or 'Transaction Failed'), its code and its status (spec §8).
 */
export class TransactionError extends StoreError {
  /** Index of the failing operation within the transaction, when the service tells. */
  readonly failedIndex: number | undefined;

  constructor(
    message: string | undefined,
    options?: { cause?: unknown; code?: string; status?: number; failedIndex?: number },
  ) {
    super(message && message.length > 0 ? message : 'Transaction Failed', options);
    this.failedIndex = options?.failedIndex;
  }

  /**
   * Whether another write got there first: an entity to create exists (409) or one to update has
   * changed since it was read (412). Reading again and retrying may succeed; nothing is broken.
   */
  get lostRace(): boolean {
    return this.status === 409 || this.status === 412;
  }
}

/** Configuration is missing or wrong; the message names the setting. */
export class ConfigurationError extends AppError {}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
