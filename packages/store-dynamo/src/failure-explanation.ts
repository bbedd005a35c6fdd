import type { AttributeValue, CancellationReason } from '@aws-sdk/client-dynamodb';
import {
  ConflictError,
  NotFoundError,
  TransactionError,
  type EntityKeys,
  type TransactionAction,
} from '@receipts/core';
import { isSdkError, toStoreError } from './errors';

/*
 * What a failed condition or a cancelled transaction means in the port's terms. DynamoDB only says
 * "the condition failed"; whether that was an existing entity, a missing one, a stale etag or a
 * missing table depends on the operation and on the item the condition saw.
 */

/** What the explanations may look up when DynamoDB did not return the item a condition saw. */
export interface StoreState {
  /** Whether the entity exists now. */
  entityExists(table: string, keys: EntityKeys): Promise<boolean>;
  /** Whether the logical table exists now. */
  tableExists(table: string): Promise<boolean>;
}

/** Azure's words for the failures of a transaction operation, so both adapters report alike. */
const TRANSACTION_FAILURES = {
  exists: { code: 'EntityAlreadyExists', status: 409, message: 'The specified entity already exists.' },
  missing: { code: 'ResourceNotFound', status: 404, message: 'The specified resource does not exist.' },
  stale: {
    code: 'UpdateConditionNotSatisfied',
    status: 412,
    message: 'The update condition specified in the request was not satisfied.',
  },
} as const;

/** Where an entity is, in words: `partitionKey "…" and rowKey "…" in table "…"`. */
function describe(table: string, keys: EntityKeys): string {
  return `partitionKey "${keys.partitionKey}" and rowKey "${keys.rowKey}" in table "${table}"`;
}

/**
 * The item a failed condition saw (ConditionalCheckFailedException.Item, or a cancellation reason's
 * Item), when the service returned it. DynamoDB returns none when there was no item; emulators that
 * do not know ReturnValuesOnConditionCheckFailure never return one, so callers read when it is absent.
 */
function itemAtFailure(failure: unknown): Record<string, AttributeValue> | undefined {
  const item = (failure as { Item?: Record<string, AttributeValue> } | null)?.Item;
  return item && Object.keys(item).length > 0 ? item : undefined;
}

/**
 * A failed "no item yet" condition of a create.
 * @param table - the logical table
 * @param keys - the entity's keys
 * @param cause - the SDK failure
 */
export function entityExistsError(table: string, keys: EntityKeys, cause: unknown): ConflictError {
  return new ConflictError(`An entity with ${describe(table, keys)} already exists.`, {
    cause,
    code: 'EntityAlreadyExists',
  });
}

/**
 * A failed etag condition of an upsert (which never demands that the entity exists).
 * @param table - the logical table
 * @param keys - the entity's keys
 * @param cause - the SDK failure
 */
export function etagMatchesNoEntityError(table: string, keys: EntityKeys, cause: unknown): ConflictError {
  return new ConflictError(`The etag matches no entity with ${describe(table, keys)}.`, {
    cause,
    code: 'EtagMismatch',
  });
}

/**
 * A failed "exists (and has this etag)" condition: a stale etag, a missing table or a missing entity.
 * @param table - the logical table
 * @param keys - the entity's keys
 * @param cause - the SDK failure (its Item, when present, is the entity the condition saw)
 * @param state - reads used when the failure carries no item
 */
export async function explainFailedCondition(
  table: string,
  keys: EntityKeys,
  cause: unknown,
  state: StoreState,
): Promise<Error> {
  if (itemAtFailure(cause) || (await state.entityExists(table, keys))) {
    return new ConflictError(
      `The entity with ${describe(table, keys)} has changed since it was read (its etag no longer matches).`,
      { cause, code: 'EtagMismatch' },
    );
  }
  if (!(await state.tableExists(table))) {
    return new NotFoundError(`Table "${table}" does not exist.`, { cause, code: 'TableNotFound' });
  }
  return new NotFoundError(`No entity with ${describe(table, keys)}.`, { cause, code: 'EntityNotFound' });
}

/**
 * A failed TransactWriteItems as the port's error: a cancellation names the failing operation in the
 * service's terms; a refused request is a 400 and a conflicting transaction a 409 TransactionError;
 * anything else a StoreError.
 * @param table - the logical table
 * @param actions - the transaction's operations, in the order sent
 * @param error - what the SDK threw
 * @param state - reads used when a cancellation reason carries no item
 * @param dynamoTable - the DynamoDB table, named when it is missing
 */
export async function explainTransactionFailure(
  table: string,
  actions: TransactionAction[],
  error: unknown,
  state: StoreState,
  dynamoTable: string,
): Promise<Error> {
  if (isSdkError(error, 'TransactionCanceledException'))
    return explainCancellation(table, actions, error, state);
  if (isSdkError(error, 'ValidationException') || isSdkError(error, 'TransactionConflictException')) {
    const failure = error as Error;
    return new TransactionError(failure.message, {
      cause: error,
      code: failure.name,
      status: isSdkError(error, 'ValidationException') ? 400 : 409,
    });
  }
  return toStoreError(error, dynamoTable);
}

/** Names the failing operation of a cancelled transaction in the service's terms. */
async function explainCancellation(
  table: string,
  actions: TransactionAction[],
  cause: unknown,
  state: StoreState,
): Promise<Error> {
  const reasons: CancellationReason[] =
    (cause as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
  const failedIndex = reasons.findIndex((reason) => reason.Code !== undefined && reason.Code !== 'None');
  const reason = reasons[failedIndex];
  const action = actions[failedIndex];
  if (!reason || !action)
    return new TransactionError((cause as Error).message, { cause, code: 'TransactionCanceled' });
  if (reason.Code !== 'ConditionalCheckFailed') {
    return new TransactionError(reason.Message ?? (cause as Error).message, {
      cause,
      code: reason.Code,
      status: reason.Code === 'TransactionConflict' ? 409 : 400,
      failedIndex,
    });
  }
  let failure: (typeof TRANSACTION_FAILURES)[keyof typeof TRANSACTION_FAILURES];
  if (action[0] === 'create') failure = TRANSACTION_FAILURES.exists;
  else {
    const current = itemAtFailure(reason) !== undefined || (await state.entityExists(table, action[1]));
    failure = current ? TRANSACTION_FAILURES.stale : TRANSACTION_FAILURES.missing;
  }
  return new TransactionError(failure.message, {
    cause,
    code: failure.code,
    status: failure.status,
    failedIndex,
  });
}
