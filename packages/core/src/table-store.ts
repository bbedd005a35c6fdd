import { ValidationError } from './errors';

/** A value a table-store property may hold. Dates round-trip as `Date`. */
export type EntityValue = string | number | boolean | Date | null;

/** The keys that address one entity. */
export interface EntityKeys {
  partitionKey: string;
  rowKey: string;
}

/**
 * One row of a table. `etag` and `timestamp` are set by the store on read; they are ignored on write
 * (pass an etag through the options instead).
 */
export interface TableEntity extends EntityKeys {
  etag?: string;
  timestamp?: string;
  [property: string]: EntityValue | undefined;
}

/** An entity as read back: the store always sets etag and timestamp. */
export type StoredEntity<T extends TableEntity = TableEntity> = T & { etag: string; timestamp: string };

/** Merge keeps properties absent from the new entity; Replace drops them. */
export type UpdateMode = 'Merge' | 'Replace';

export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | Date;

/**
 * A typed filter expression. Property names are entity property names, including `partitionKey`
 * and `rowKey`. Both adapters translate it; neither accepts a raw string.
 */
export type Filter =
  { op: ComparisonOperator; property: string; value: FilterValue } | { op: 'and' | 'or'; filters: Filter[] };

const compare =
  (op: ComparisonOperator) =>
  (property: string, value: FilterValue): Filter => ({ op, property, value });

/** Filter builders: `and(eq('user_id', id), ge('total_amount', 10))`. */
export const eq = compare('eq');
export const ne = compare('ne');
export const gt = compare('gt');
export const ge = compare('ge');
export const lt = compare('lt');
export const le = compare('le');
export const and = (...filters: Filter[]): Filter => ({ op: 'and', filters });
export const or = (...filters: Filter[]): Filter => ({ op: 'or', filters });

export interface ListOptions {
  /** Only entities of this partition. Adapters serve this with a partition-scoped query. */
  partitionKey?: string;
  /**
   * Only entities whose partitionKey starts with this prefix (e.g. all receipts' item partitions of
   * one user when receipt ids start with the user id). Served by a key-range query, never a scan.
   * Ignored when `partitionKey` is given.
   */
  partitionKeyPrefix?: string;
  filter?: Filter;
  /** Largest number of entities in one page (default and maximum 1000). */
  pageSize?: number;
  /** The opaque token a previous page returned. */
  continuationToken?: string;
}

export interface Page<T> {
  items: T[];
  /** Present when more entities follow; pass it back to get the next page. */
  continuationToken?: string;
}

export interface WriteOptions {
  /** Only write when the stored entity still has this etag. Default `*` (any). */
  etag?: string;
}

export interface WriteResult {
  etag: string;
}

/** One operation of a transaction, in the tuple shape `@azure/data-tables` uses. */
export type TransactionAction =
  | ['create', TableEntity]
  | ['delete', EntityKeys & { etag?: string }]
  | ['update', TableEntity, UpdateMode?, WriteOptions?]
  | ['upsert', TableEntity, UpdateMode?];

/** Largest number of operations in one transaction (Azure Tables and DynamoDB alike). */
export const MAX_TRANSACTION_ACTIONS = 100;
export const MAX_PAGE_SIZE = 1000;

/**
 * The table store port (spec §7 "Table store helper", §5 rules). Implemented by `AzureTableStore`
 * and `DynamoTableStore`; both pass the same conformance suite.
 *
 * Errors: a missing or malformed key is a `ValidationError`; a stale etag or an existing entity on
 * create is a `ConflictError`; a missing entity on update or delete, or a missing table, is a
 * `NotFoundError`; a failed transaction is a `TransactionError` and applies nothing.
 */
export interface TableStore {
  /** Names of all tables, sorted. */
  listTables(): Promise<string[]>;
  /** Creates a table; a table that already exists is not an error (logged). */
  createTable(table: string): Promise<void>;
  /** Deletes a table and its entities; a missing table is not an error. */
  deleteTable(table: string): Promise<void>;
  /** Inserts a new entity; `ConflictError` when one with the same keys exists. */
  createEntity(table: string, entity: TableEntity): Promise<WriteResult>;
  /**
   * Reads one entity.
   * @param table - table name
   * @param partitionKey - must not be null or undefined
   * @param rowKey - must not be null or undefined
   * @returns the entity, or null when it does not exist
   */
  getEntity<T extends TableEntity = TableEntity>(
    table: string,
    partitionKey: string,
    rowKey: string,
  ): Promise<StoredEntity<T> | null>;
  /** One page of entities, in (partitionKey, rowKey) order. */
  listEntities<T extends TableEntity = TableEntity>(
    table: string,
    options?: ListOptions,
  ): Promise<Page<StoredEntity<T>>>;
  /** Updates an existing entity; `NotFoundError` when it does not exist. */
  updateEntity(
    table: string,
    entity: TableEntity,
    mode?: UpdateMode,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /** Inserts or updates an entity. */
  upsertEntity(
    table: string,
    entity: TableEntity,
    mode?: UpdateMode,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /** Deletes an entity; etag default `*`. `NotFoundError` when it does not exist. */
  deleteEntity(table: string, partitionKey: string, rowKey: string, options?: WriteOptions): Promise<void>;
  /**
   * Applies all actions or none. All must share one partitionKey and there may be at most
   * `MAX_TRANSACTION_ACTIONS`; otherwise it fails before any call.
   */
  submitTransaction(table: string, actions: TransactionAction[]): Promise<void>;
}

/** Reads every page of a listing. Use only where the result is known to be bounded. */
export async function listAllEntities<T extends TableEntity = TableEntity>(
  store: TableStore,
  table: string,
  options: Omit<ListOptions, 'continuationToken'> = {},
): Promise<StoredEntity<T>[]> {
  const all: StoredEntity<T>[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await store.listEntities<T>(table, { ...options, continuationToken });
    all.push(...page.items);
    continuationToken = page.continuationToken;
  } while (continuationToken);
  return all;
}

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

/** Evaluates a filter against an entity, with the comparison rules both adapters follow. */
export function matchesFilter(entity: Record<string, unknown>, filter: Filter): boolean {
  if ('filters' in filter) {
    return filter.op === 'and'
      ? filter.filters.every((f) => matchesFilter(entity, f))
      : filter.filters.some((f) => matchesFilter(entity, f));
  }
  return compareValue(entity[filter.property], filter.op, filter.value);
}

function compareValue(actual: unknown, op: ComparisonOperator, expected: FilterValue): boolean {
  if (actual === undefined || actual === null) return op === 'ne';
  const a = actual instanceof Date ? actual.getTime() : actual;
  const b = expected instanceof Date ? expected.getTime() : expected;
  if (typeof a !== typeof b) return op === 'ne';
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'gt':
      return (a as never) > (b as never);
    case 'ge':
      return (a as never) >= (b as never);
    case 'lt':
      return (a as never) < (b as never);
    case 'le':
      return (a as never) <= (b as never);
  }
}

/** Properties the store manages; they are never stored as ordinary properties. */
export const SYSTEM_PROPERTIES = ['partitionKey', 'rowKey', 'etag', 'timestamp'] as const;

/** The entity's own properties, without keys, etag and timestamp, and without undefined values. */
export function userProperties(entity: TableEntity): Record<string, EntityValue> {
  const out: Record<string, EntityValue> = {};
  for (const [key, value] of Object.entries(entity)) {
    if ((SYSTEM_PROPERTIES as readonly string[]).includes(key) || value === undefined) continue;
    out[key] = value;
  }
  return out;
}
