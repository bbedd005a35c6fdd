import {
  BatchGetItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  assertUpdateMode,
  assertValidEntityAddress,
  assertValidEntityKeys,
  assertValidTableName,
  assertValidTransaction,
  assertValidWrite,
  checkListOptions,
  silentLogger,
  NotFoundError,
  ThrottledError,
  ValidationError,
  retryThrottled,
  type EntityKeys,
  type ListOptions,
  type Logger,
  type Page,
  type StoredEntity,
  type TableEntity,
  type TableStore,
  type TransactionAction,
  type UpdateMode,
  type WriteOptions,
  type WriteResult,
} from '@receipts/core';
import { decodeToken, encodeToken, startKeyOf, type ListMode } from './continuation-token';
import { isSdkError, toStoreError } from './errors';
import { ExpressionBuilder, toFilterExpression } from './expressions';
import {
  entityExistsError,
  etagMatchesNoEntityError,
  explainFailedCondition,
  explainTransactionFailure,
  type StoreState,
} from './failure-explanation';
import { createPut, deleteOfExisting, newEtag, sendWrite, transactItem, writeItem } from './item-writes';
import { assertKeysFit, ATTR, entityKey, GSI1, partitionPk } from './key-layout';
import { fromItem, keyItem } from './marshal';
import { TableRegistry } from './table-registry';

/** Largest number of keys of one BatchGetItem request (a DynamoDB limit). */
const MAX_BATCH_GET_KEYS = 100;

/** Options of {@link DynamoTableStore}. */
export interface DynamoTableStoreOptions {
  /** A configured client (region, credentials, endpoint). */
  client: DynamoDBClient;
  /** The single DynamoDB table that holds every logical table (see `createStoreTable`). */
  tableName: string;
  /** Where "table already exists" and similar notes go; default nowhere (the composition root gives one). */
  logger?: Logger;
  /**
   * How long this process trusts that a logical table exists before checking its registry item
   * again; default 30 s. Writes to a table deleted by another process within that time still land.
   */
  tableCacheTtlMs?: number;
}

/**
 * The TableStore port on DynamoDB, all logical tables in one DynamoDB table (layout in
 * `key-layout.ts` and the README). Etags are random version ids checked with condition expressions;
 * listings use Query on the table (one partition) or on index gsi1 (a whole table or a partition-key
 * prefix), never Scan; transactions use TransactWriteItems.
 *
 * The parts live beside it: the table registry (`table-registry.ts`), the write requests and their
 * conditions (`item-writes.ts`), what a failed condition means (`failure-explanation.ts`) and the
 * continuation tokens (`continuation-token.ts`).
 */
export class DynamoTableStore implements TableStore {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly tables: TableRegistry;
  /** The reads a failure explanation may need. */
  private readonly state: StoreState = {
    entityExists: async (table, keys) =>
      (await this.getEntity(table, keys.partitionKey, keys.rowKey)) !== null,
    tableExists: (table) => this.tables.exists(table),
  };

  /**
   * @param options - client, DynamoDB table name, logger and table-cache lifetime
   */
  constructor(options: DynamoTableStoreOptions) {
    if (!options.tableName)
      throw new ValidationError('DynamoTableStore needs a tableName.', { code: 'MissingTableName' });
    this.client = options.client;
    this.tableName = options.tableName;
    this.tables = new TableRegistry({
      client: options.client,
      tableName: options.tableName,
      logger: options.logger ?? silentLogger,
      cacheTtlMs: options.tableCacheTtlMs ?? 30_000,
    });
  }

  /** Rethrows an SDK failure in the core hierarchy: `client.send(…).catch(this.fail)`. */
  private readonly fail = (error: unknown): never => {
    throw toStoreError(error, this.tableName);
  };

  /** Names of all tables, sorted. */
  async listTables(): Promise<string[]> {
    return this.tables.list();
  }

  /**
   * Creates a logical table (its registry item); one that already exists is logged and not an error.
   * @param table - 3 to 63 letters and digits, starting with a letter
   */
  async createTable(table: string): Promise<void> {
    assertValidTableName(table);
    await this.tables.create(table);
  }

  /**
   * Deletes a logical table with all its entities (found through index gsi1, deleted in batches);
   * a missing table is not an error.
   * @param table - the table name
   */
  async deleteTable(table: string): Promise<void> {
    assertValidTableName(table);
    await this.tables.delete(table);
  }

  /**
   * Inserts a new entity.
   * @param table - the table name
   * @param entity - keys and properties (string, number, boolean, Date or null)
   * @returns the new etag
   * @throws ConflictError when an entity with the same keys exists; NotFoundError when the table does not
   */
  async createEntity(table: string, entity: TableEntity): Promise<WriteResult> {
    this.checkWrite(table, entity);
    await this.tables.ensure(table);
    const etag = newEtag();
    await this.sendConditional(
      () => this.client.send(new PutItemCommand(createPut(this.tableName, table, entity, etag))),
      (cause) => entityExistsError(table, entity, cause),
    );
    return { etag };
  }

  /**
   * Reads one entity (strongly consistent).
   * @param table - the table name
   * @param partitionKey - must not be null or undefined
   * @param rowKey - must not be null or undefined
   * @returns the entity, or null when it (or its table) does not exist
   */
  async getEntity<T extends TableEntity = TableEntity>(
    table: string,
    partitionKey: string,
    rowKey: string,
  ): Promise<StoredEntity<T> | null> {
    assertValidEntityAddress(table, partitionKey, rowKey);
    assertKeysFit(partitionKey, rowKey);
    const result = await this.client
      .send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: keyItem(entityKey(table, partitionKey, rowKey)),
          ConsistentRead: true,
        }),
      )
      .catch(this.fail);
    return result.Item ? fromItem<T>(result.Item) : null;
  }

  /**
   * Reads several entities with BatchGetItem (strongly consistent), up to 100 distinct keys a
   * request, the requests in parallel; keys the service leaves unprocessed (throttling) are asked
   * again after a short pause.
   * @param table - the table name
   * @param keys - the entities' keys (a key may repeat)
   * @returns one entry per key, in order: the entity, or null when it (or its table) does not exist
   */
  async getEntities<T extends TableEntity = TableEntity>(
    table: string,
    keys: readonly EntityKeys[],
  ): Promise<(StoredEntity<T> | null)[]> {
    assertValidEntityKeys(table, keys);
    for (const key of keys) assertKeysFit(key.partitionKey, key.rowKey);
    const idOf = (pk: string, sk: string) => `${pk}\u0000${sk}`;
    const distinct = new Map<string, Record<string, AttributeValue>>();
    for (const key of keys) {
      const primary = entityKey(table, key.partitionKey, key.rowKey);
      distinct.set(idOf(primary.pk, primary.sk), keyItem(primary));
    }
    const found = new Map<string, StoredEntity<T>>();
    const all = [...distinct.values()];
    const requests: Record<string, AttributeValue>[][] = [];
    for (let i = 0; i < all.length; i += MAX_BATCH_GET_KEYS)
      requests.push(all.slice(i, i + MAX_BATCH_GET_KEYS));
    await Promise.all(
      requests.map(async (batch) => {
        let pending = batch;
        await retryThrottled(async () => {
          const result = await this.client
            .send(
              new BatchGetItemCommand({
                RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } },
              }),
            )
            .catch(this.fail);
          for (const item of result.Responses?.[this.tableName] ?? []) {
            found.set(idOf(item[ATTR.pk]?.S ?? '', item[ATTR.sk]?.S ?? ''), fromItem<T>(item));
          }
          pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
          if (pending.length > 0) {
            throw new ThrottledError(
              `DynamoDB left ${pending.length} keys of a batch read unprocessed (throttled); try again in a moment.`,
            );
          }
        });
      }),
    );
    return keys.map((key) => {
      const primary = entityKey(table, key.partitionKey, key.rowKey);
      return found.get(idOf(primary.pk, primary.sk)) ?? null;
    });
  }

  /**
   * One page of entities in (partitionKey, rowKey) order, filled up to `pageSize` unless the listing
   * ends (DynamoDB applies its Limit before the filter, so several queries may serve one page).
   * One partition is read from the table with strong consistency; a whole table or a partition-key
   * prefix from index gsi1, which is eventually consistent on DynamoDB.
   * @param table - the table name
   * @param options - partition or partition prefix, typed filter, page size, continuation token
   * @throws NotFoundError when the table does not exist; ValidationError for a bad option or token
   */
  async listEntities<T extends TableEntity = TableEntity>(
    table: string,
    options: ListOptions = {},
  ): Promise<Page<StoredEntity<T>>> {
    const pageSize = checkListOptions(table, options);
    const expression = new ExpressionBuilder();
    let mode: ListMode;
    let keyCondition: string;
    let scope: string;
    if (options.partitionKey !== undefined) {
      mode = 'partition';
      scope = partitionPk(table, options.partitionKey);
      keyCondition = `${expression.name(ATTR.pk)} = ${expression.value({ S: scope })}`;
    } else {
      mode = 'index';
      scope = table;
      keyCondition = `${expression.name(ATTR.gsi1pk)} = ${expression.value({ S: table })}`;
      const prefix = options.partitionKeyPrefix;
      if (prefix) {
        keyCondition += ` AND begins_with(${expression.name(ATTR.gsi1sk)}, ${expression.value({ S: prefix })})`;
      }
    }
    const filter = options.filter ? toFilterExpression(options.filter, expression) : undefined;
    let start =
      options.continuationToken === undefined
        ? undefined
        : decodeToken(options.continuationToken, mode, scope);

    const items: Record<string, AttributeValue>[] = [];
    let next: Record<string, AttributeValue> | undefined;
    for (;;) {
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.tableName,
            ...(mode === 'index' ? { IndexName: GSI1 } : { ConsistentRead: true }),
            KeyConditionExpression: keyCondition,
            ...(filter ? { FilterExpression: filter } : {}),
            Limit: pageSize,
            ExclusiveStartKey: start,
            ...expression.attributes(),
          }),
        )
        .catch(this.fail);
      const fetched = page.Items ?? [];
      const room = pageSize - items.length;
      items.push(...fetched.slice(0, room));
      if (fetched.length > room) {
        // More matched than fit: continue right after the last entity of this page.
        next = startKeyOf(items[items.length - 1]!, mode);
        break;
      }
      if (!page.LastEvaluatedKey) break;
      if (items.length === pageSize) {
        next = page.LastEvaluatedKey;
        break;
      }
      start = page.LastEvaluatedKey;
    }
    if (items.length === 0 && !options.continuationToken && !(await this.tables.exists(table))) {
      throw new NotFoundError(`Table "${table}" does not exist.`, { code: 'TableNotFound' });
    }
    const entities = items.map((item) => fromItem<T>(item));
    return next ? { items: entities, continuationToken: encodeToken(next, mode) } : { items: entities };
  }

  /**
   * Updates an existing entity.
   * @param table - the table name
   * @param entity - keys and properties
   * @param mode - Merge keeps properties absent from `entity`; Replace drops them. Default Merge.
   * @param options - etag to match; default `*`
   * @throws NotFoundError when the entity does not exist; ConflictError when the etag is stale
   */
  async updateEntity(
    table: string,
    entity: TableEntity,
    mode: UpdateMode = 'Merge',
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    this.checkWrite(table, entity);
    assertUpdateMode(mode);
    const etag = newEtag();
    const item = writeItem(this.tableName, table, entity, mode, etag, {
      mustExist: true,
      etag: options.etag,
    });
    await this.sendConditional(
      () => sendWrite(this.client, item),
      (cause) => explainFailedCondition(table, entity, cause, this.state),
    );
    return { etag };
  }

  /**
   * Inserts or updates an entity. With an etag other than `*` it only updates the entity holding that
   * etag (a missing entity is then a ConflictError, as no etag can match it).
   * @param table - the table name
   * @param entity - keys and properties
   * @param mode - Merge or Replace (default Merge)
   * @param options - etag to match; default `*`
   */
  async upsertEntity(
    table: string,
    entity: TableEntity,
    mode: UpdateMode = 'Merge',
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    this.checkWrite(table, entity);
    assertUpdateMode(mode);
    await this.tables.ensure(table);
    const etag = newEtag();
    const item = writeItem(this.tableName, table, entity, mode, etag, {
      mustExist: false,
      etag: options.etag,
    });
    await this.sendConditional(
      () => sendWrite(this.client, item),
      (cause) => etagMatchesNoEntityError(table, entity, cause),
    );
    return { etag };
  }

  /**
   * Deletes an entity.
   * @param table - the table name
   * @param partitionKey - must not be null or undefined
   * @param rowKey - must not be null or undefined
   * @param options - etag to match; default `*`
   * @throws NotFoundError when the entity does not exist; ConflictError when the etag is stale
   */
  async deleteEntity(
    table: string,
    partitionKey: string,
    rowKey: string,
    options: WriteOptions = {},
  ): Promise<void> {
    assertValidEntityAddress(table, partitionKey, rowKey);
    assertKeysFit(partitionKey, rowKey);
    const keys = { partitionKey, rowKey };
    await this.sendConditional(
      () =>
        this.client.send(new DeleteItemCommand(deleteOfExisting(this.tableName, table, keys, options.etag))),
      (cause) => explainFailedCondition(table, keys, cause, this.state),
    );
  }

  /**
   * Applies all actions with TransactWriteItems, or none.
   * @param table - the table name
   * @param actions - at most 100, all on one partitionKey (checked before any call)
   * @throws ValidationError before any call for a malformed transaction; NotFoundError for a missing
   * table; TransactionError with the failure's message, code, status and failing index otherwise
   */
  async submitTransaction(table: string, actions: TransactionAction[]): Promise<void> {
    assertValidTableName(table);
    assertValidTransaction(actions);
    for (const [, entity] of actions) assertKeysFit(entity.partitionKey, entity.rowKey);
    await this.tables.ensure(table);
    const items = actions.map((action) => transactItem(this.tableName, table, action));
    try {
      await this.client.send(new TransactWriteItemsCommand({ TransactItems: items }));
    } catch (error) {
      throw await explainTransactionFailure(table, actions, error, this.state, this.tableName);
    }
  }

  /**
   * Sends a conditional write. A failed condition becomes the error `explain` gives (its meaning
   * depends on the operation); any other failure becomes a StoreError.
   */
  private async sendConditional(
    send: () => Promise<unknown>,
    explain: (cause: unknown) => Error | Promise<Error>,
  ): Promise<void> {
    try {
      await send();
    } catch (error) {
      if (!isSdkError(error, 'ConditionalCheckFailedException')) throw toStoreError(error, this.tableName);
      throw await explain(error);
    }
  }

  private checkWrite(table: string, entity: TableEntity): void {
    assertValidWrite(table, entity);
    assertKeysFit(entity.partitionKey, entity.rowKey);
  }
}
