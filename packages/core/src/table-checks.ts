import { ValidationError } from './errors';
import { isWellFormedText } from './well-formed-text';
import type { Filter } from './table-filter';
import {
  MAX_PAGE_SIZE,
  MAX_TRANSACTION_ACTIONS,
  userProperties,
  type EntityKeys,
  type ListOptions,
  type TableEntity,
  type TransactionAction,
  type UpdateMode,
} from './table-store';

/*
 * The argument checks both table-store adapters run before any call, so that a bad key, property,
 * value, filter or transaction fails alike (and in the same words) on Azure Tables and DynamoDB.
 */

// Azure Tables forbids these in keys; DynamoDB would accept them, but both adapters refuse them
// alike so that data moves between backends.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_KEY_CHARS = /[/\\#?\u0000-\u001f\u007f-\u009f]/;
const MAX_KEY_LENGTH = 512;

/**
 * Checks a partitionKey or rowKey: present, a string, no forbidden character, at most 512 chars.
 * @throws ValidationError naming the key
 */
export function assertValidKey(name: 'partitionKey' | 'rowKey', value: unknown): asserts value is string {
  if (value === null || value === undefined) {
    throw new ValidationError(`${name} must not be null or undefined.`, { code: 'MissingKey' });
  }
  if (typeof value !== 'string') {
    throw new ValidationError(`${name} must be a string.`, { code: 'InvalidKey' });
  }
  if (!isWellFormedText(value)) {
    throw new ValidationError(`${name} is not well-formed text (it holds half of a character pair).`, {
      code: 'InvalidKey',
    });
  }
  if (FORBIDDEN_KEY_CHARS.test(value)) {
    throw new ValidationError(
      `${name} "${value}" contains a character that is not allowed in keys (/ \\ # ? or a control character).`,
      { code: 'InvalidKey' },
    );
  }
  if (value.length > MAX_KEY_LENGTH) {
    throw new ValidationError(`${name} is longer than ${MAX_KEY_LENGTH} characters.`, { code: 'InvalidKey' });
  }
}

/** Checks both keys of an entity or key pair. */
export function assertValidKeys(keys: { partitionKey?: unknown; rowKey?: unknown } | null | undefined): void {
  assertValidKey('partitionKey', keys?.partitionKey);
  assertValidKey('rowKey', keys?.rowKey);
}

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9]{2,62}$/;

/** Table names follow Azure's rule (3-63 letters and digits, starting with a letter). */
export function assertValidTableName(table: unknown): asserts table is string {
  if (typeof table !== 'string' || !TABLE_NAME.test(table)) {
    throw new ValidationError(
      `Table name "${String(table)}" is not valid: use 3 to 63 letters and digits, starting with a letter.`,
      { code: 'InvalidTableName' },
    );
  }
}

/** Checks the mode argument (spec §8: 'Unexpected value for update mode'). */
export function assertUpdateMode(mode: unknown): asserts mode is UpdateMode {
  if (mode !== 'Merge' && mode !== 'Replace') {
    throw new ValidationError(`Unexpected value for update mode: ${String(mode)}`, {
      code: 'InvalidUpdateMode',
    });
  }
}

/**
 * Checks a transaction before any call: not empty, at most 100 actions, one partitionKey, valid keys.
 * @throws TransactionError-free ValidationError describing the problem
 */
export function assertValidTransaction(actions: TransactionAction[]): void {
  if (actions.length === 0) {
    throw new ValidationError('A transaction needs at least one operation.', { code: 'EmptyTransaction' });
  }
  if (actions.length > MAX_TRANSACTION_ACTIONS) {
    throw new ValidationError(
      `A transaction may hold at most ${MAX_TRANSACTION_ACTIONS} operations; this one has ${actions.length}.`,
      { code: 'TransactionTooLarge' },
    );
  }
  const partitionKey = actions[0]?.[1]?.partitionKey;
  const rowKeys = new Set<string>();
  for (const action of actions) {
    const [kind, entity] = action;
    if (!['create', 'delete', 'update', 'upsert'].includes(kind)) {
      throw new ValidationError(`Unknown transaction operation: ${String(kind)}`, {
        code: 'InvalidOperation',
      });
    }
    assertValidKeys(entity);
    if (entity.partitionKey !== partitionKey) {
      throw new ValidationError(
        'All operations in one transaction must target the same partitionKey ' +
          `("${String(partitionKey)}" and "${entity.partitionKey}" differ).`,
        { code: 'CrossPartitionTransaction' },
      );
    }
    if ((kind === 'update' || kind === 'upsert') && action[2] !== undefined) assertUpdateMode(action[2]);
    // Both services refuse a second operation on the same row of one transaction; say so before any call.
    if (rowKeys.has(entity.rowKey)) {
      throw new ValidationError(
        `A transaction may touch each row once; rowKey "${entity.rowKey}" appears more than once.`,
        { code: 'DuplicateRowInTransaction' },
      );
    }
    rowKeys.add(entity.rowKey);
    // The Azure Tables SDK sends every delete of a transaction with If-Match: *; refuse an etag there
    // on both backends rather than ignore it on one.
    if (kind === 'delete' && entity.etag !== undefined && entity.etag !== '*') {
      throw new ValidationError(
        'A delete inside a transaction cannot carry an etag; delete the entity outside the transaction to use one.',
        { code: 'UnsupportedTransactionEtag' },
      );
    }
    if (kind !== 'delete') assertValidProperties(entity as TableEntity);
  }
}

/** Largest number of own properties of one entity (Azure Tables: 255 including its three system ones). */
export const MAX_ENTITY_PROPERTIES = 252;
const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;
const RESERVED_PROPERTY_NAMES = ['partitionkey', 'rowkey', 'timestamp', 'etag'];

/**
 * Checks a property name: letters, digits and underscores, not starting with a digit, at most 255
 * characters (Azure's rule, applied by both adapters), and not a system name in any letter case.
 * @throws ValidationError naming the property
 */
export function assertValidPropertyName(name: string): void {
  if (!PROPERTY_NAME.test(name) || RESERVED_PROPERTY_NAMES.includes(name.toLowerCase())) {
    throw new ValidationError(
      `Property name "${name}" is not valid: use letters, digits and underscores (not starting with a digit), ` +
        'and not PartitionKey, RowKey, Timestamp or ETag.',
      { code: 'InvalidPropertyName' },
    );
  }
}

/**
 * Checks an entity's own properties before a write: valid names, at most {@link MAX_ENTITY_PROPERTIES},
 * and values a store can keep (string, finite number, boolean, valid Date or null).
 * @throws ValidationError naming the property
 */
export function assertValidProperties(entity: TableEntity): void {
  const properties = userProperties(entity);
  const names = Object.keys(properties);
  if (names.length > MAX_ENTITY_PROPERTIES) {
    throw new ValidationError(
      `An entity may have at most ${MAX_ENTITY_PROPERTIES} properties; this one has ${names.length}.`,
      { code: 'TooManyProperties' },
    );
  }
  for (const name of names) {
    assertValidPropertyName(name);
    assertSupportedValue(name, properties[name]);
  }
}

/**
 * Checks the arguments of a write (create, update, upsert) before any call: table name, keys, properties.
 * @throws ValidationError describing the first problem
 */
export function assertValidWrite(table: unknown, entity: TableEntity): asserts table is string {
  assertValidTableName(table);
  assertValidKeys(entity);
  assertValidProperties(entity);
}

/**
 * Checks the arguments of a point read or delete before any call: table name and both keys.
 * @throws ValidationError describing the first problem
 */
export function assertValidEntityAddress(table: unknown, partitionKey: unknown, rowKey: unknown): void {
  assertValidTableName(table);
  assertValidKey('partitionKey', partitionKey);
  assertValidKey('rowKey', rowKey);
}

/**
 * Checks the arguments of a read of several entities before any call: table name, and both keys of
 * every entry.
 * @throws ValidationError describing the first problem (naming the entry's position)
 */
export function assertValidEntityKeys(table: unknown, keys: readonly EntityKeys[]): void {
  assertValidTableName(table);
  if (!Array.isArray(keys)) {
    throw new ValidationError('keys must be an array of { partitionKey, rowKey }.', { code: 'InvalidKeys' });
  }
  keys.forEach((entry, at) => {
    if (entry === null || typeof entry !== 'object') {
      throw new ValidationError(`keys[${at}] must be { partitionKey, rowKey }.`, { code: 'InvalidKeys' });
    }
    try {
      assertValidKey('partitionKey', entry.partitionKey);
      assertValidKey('rowKey', entry.rowKey);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(`keys[${at}]: ${error.message}`, { cause: error, code: error.code });
    }
  });
}

/**
 * Checks the arguments of a listing before any call (table name, page size, partition or prefix)
 * and returns the page size to use: the one asked for, or {@link MAX_PAGE_SIZE}.
 * @throws ValidationError describing the first problem
 */
export function checkListOptions(table: unknown, options: ListOptions): number {
  assertValidTableName(table);
  const { pageSize } = options;
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    throw new ValidationError(
      `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}; got ${pageSize}.`,
      { code: 'InvalidPageSize' },
    );
  }
  if (options.partitionKey !== undefined) assertValidKey('partitionKey', options.partitionKey);
  else if (options.partitionKeyPrefix !== undefined && typeof options.partitionKeyPrefix !== 'string') {
    throw new ValidationError('partitionKeyPrefix must be a string.', { code: 'InvalidOption' });
  }
  return pageSize ?? MAX_PAGE_SIZE;
}

function assertSupportedValue(name: string, value: unknown): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
    throw new ValidationError(`Property "${name}" is ${value}; only finite numbers can be stored.`, {
      code: 'InvalidValue',
    });
  }
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) return;
    throw new ValidationError(`Property "${name}" is an invalid Date.`, { code: 'InvalidValue' });
  }
  throw new ValidationError(
    `Unknown EDM type for property "${name}" (${Array.isArray(value) ? 'array' : typeof value}): ` +
      'use a string, number, boolean, Date or null.',
    { code: 'UnknownEdmType' },
  );
}

/**
 * Checks a filter before it is translated: known operators, non-empty and/or, property names that
 * exist in entities (`partitionKey`, `rowKey` or a valid property name; not etag or timestamp) and
 * values a store can compare (string, finite number, boolean, valid Date).
 * @throws ValidationError describing the problem
 */
export function assertValidFilter(filter: Filter): void {
  if ('filters' in filter) {
    if (filter.op !== 'and' && filter.op !== 'or') {
      throw new ValidationError(`Unknown filter operator: ${String(filter.op)}`, { code: 'InvalidFilter' });
    }
    if (!Array.isArray(filter.filters) || filter.filters.length === 0) {
      throw new ValidationError(`An "${filter.op}" filter needs at least one condition.`, {
        code: 'InvalidFilter',
      });
    }
    filter.filters.forEach(assertValidFilter);
    return;
  }
  if (!['eq', 'ne', 'gt', 'ge', 'lt', 'le'].includes(filter.op)) {
    throw new ValidationError(`Unknown filter operator: ${String(filter.op)}`, { code: 'InvalidFilter' });
  }
  if (filter.property !== 'partitionKey' && filter.property !== 'rowKey') {
    if (typeof filter.property !== 'string') {
      throw new ValidationError('A filter needs a property name.', { code: 'InvalidFilter' });
    }
    assertValidPropertyName(filter.property);
  }
  if (filter.value === null || filter.value === undefined) {
    throw new ValidationError(`The filter on "${filter.property}" needs a value.`, { code: 'InvalidFilter' });
  }
  assertSupportedValue(filter.property, filter.value);
}
