import { AppError, ConfigurationError, StoreError, ValidationError } from '@receipts/core';

/** What an SDK error looks like, whatever its class. */
interface SdkError {
  name: string;
  message: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

function asSdkError(error: unknown): SdkError | undefined {
  return error instanceof Error ? (error as SdkError) : undefined;
}

/**
 * True when the SDK error has this name (`ConditionalCheckFailedException`, …).
 * @param error - anything thrown
 * @param name - the exception name
 */
export function isSdkError(error: unknown, name: string): boolean {
  return asSdkError(error)?.name === name;
}

const THROTTLED = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
];
const CREDENTIALS = [
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'MissingAuthenticationTokenException',
  'CredentialsProviderError',
  'ExpiredTokenException',
];
const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'TimeoutError'];

/**
 * Translates an SDK failure into the core error hierarchy; unknown failures become a StoreError
 * carrying the original as `cause`. Conditional-check failures are translated where they happen,
 * since only the caller knows what the condition meant.
 * @param error - what the SDK threw
 * @param dynamoTable - the DynamoDB table, named when it is missing
 */
export function toStoreError(error: unknown, dynamoTable: string): AppError {
  if (error instanceof AppError) return error;
  const sdk = asSdkError(error);
  if (!sdk) return new StoreError(`DynamoDB call failed: ${String(error)}`, { cause: error });
  const status = sdk.$metadata?.httpStatusCode;
  if (sdk.name === 'ResourceNotFoundException') {
    return new ConfigurationError(
      `The DynamoDB table "${dynamoTable}" does not exist: create it with createStoreTable() or deploy the stack, ` +
        'and check DYNAMODB_TABLE.',
      { cause: error, code: 'DynamoTableNotFound' },
    );
  }
  if (sdk.name === 'ValidationException') {
    return new ValidationError(`DynamoDB refused the request: ${sdk.message}`, {
      cause: error,
      code: 'BadRequest',
    });
  }
  if (THROTTLED.includes(sdk.name)) {
    return new StoreError('DynamoDB is throttling requests; try again shortly.', {
      cause: error,
      code: 'Throttled',
      status,
    });
  }
  if (CREDENTIALS.includes(sdk.name)) {
    return new ConfigurationError(
      `DynamoDB refused the credentials (${sdk.name}): check the AWS credentials and role.`,
      {
        cause: error,
        code: 'AuthenticationFailed',
      },
    );
  }
  if (UNREACHABLE.includes(sdk.code ?? sdk.name) || status === undefined) {
    return new StoreError(
      `Could not reach DynamoDB (${sdk.code ?? sdk.name}): is the endpoint right and the service running?`,
      { cause: error, code: 'Unreachable' },
    );
  }
  return new StoreError(sdk.message || `DynamoDB answered ${status}.`, {
    cause: error,
    code: sdk.name,
    status,
  });
}
