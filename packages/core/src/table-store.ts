import type { Filter } from './table-filter';

/*
 * The table store port: entities, listing and write options, transactions and the TableStore
 * interface itself. The typed filter is in `table-filter.ts` (re-exported here, as ListOptions uses
 * it) and the argument checks the adapters share are in `table-checks.ts`.
 */

export * from './table-filter';

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
  /**
   * Reads several entities, of any partitions, at once (DynamoDB: BatchGetItem, 100 keys a request,
   * strongly consistent; Azure Tables has no batch read, so its point reads go out in parallel).
   * @param table - table name
   * @param keys - the entities' keys; each must be valid (as for getEntity); a key may repeat
   * @returns one entry per key, in the order of `keys`: the entity, or null when it (or its table)
   * does not exist
   */
  getEntities<T extends TableEntity = TableEntity>(
    table: string,
    keys: readonly EntityKeys[],
  ): Promise<(StoredEntity<T> | null)[]>;
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
