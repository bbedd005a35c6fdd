import { randomBytes } from 'node:crypto';
import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type CancellationReason,
  type DynamoDBClient,
  type TransactWriteItem,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import {
  assertUpdateMode,
  assertValidEntityAddress,
  assertValidTableName,
  assertValidTransaction,
  assertValidWrite,
  checkListOptions,
  ConflictError,
  createJsonLogger,
  NotFoundError,
  StoreError,
  TransactionError,
  userProperties,
  ValidationError,
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
import { isSdkError, toStoreError } from './errors';
import { ExpressionBuilder, toFilterExpression } from './expressions';
import {
  assertKeysFit,
  ATTR,
  entityKey,
  entityKeyAttributes,
  GSI1,
  partitionPk,
  REGISTRY_PK,
  registryKey,
  type PrimaryKey,
} from './key-layout';
import { fromItem, propertyAttribute, toAttributeValue, toItem } from './marshal';

/** Options of {@link DynamoTableStore}. */
export interface DynamoTableStoreOptions {
  /** A configured client (region, credentials, endpoint). */
  client: DynamoDBClient;
  /** The single DynamoDB table that holds every logical table (see `createStoreTable`). */
  tableName: string;
  /** Where "table already exists" and similar notes go; default JSON lines on stderr. */
  logger?: Logger;
  /**
   * How long this process trusts that a logical table exists before checking its registry item
   * again; default 30 s. Writes to a table deleted by another process within that time still land.
   */
  tableCacheTtlMs?: number;
}

type ListMode = 'partition' | 'index';

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

/**
 * Asks DynamoDB to return the item as it was when a condition failed, so a failure is explained by
 * the state that caused it rather than by a later read that another write may have changed.
 */
const RETURN_ITEM_ON_FAILED_CONDITION = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;

/**
 * The item a failed condition saw (ConditionalCheckFailedException.Item, or a cancellation reason's
 * Item), when the service returned it. DynamoDB returns none when there was no item; emulators that
 * do not know ReturnValuesOnConditionCheckFailure never return one, so callers read when it is absent.
 */
function itemAtFailure(failure: unknown): Record<string, AttributeValue> | undefined {
  const item = (failure as { Item?: Record<string, AttributeValue> } | null)?.Item;
  return item && Object.keys(item).length > 0 ? item : undefined;
}

const BATCH_WRITE_LIMIT = 25;
const BATCH_RETRIES = 8;

/**
 * The TableStore port on DynamoDB, all logical tables in one DynamoDB table (layout in
 * `key-layout.ts` and the README). Etags are random version ids checked with condition expressions;
 * listings use Query on the table (one partition) or on index gsi1 (a whole table or a partition-key
 * prefix), never Scan; transactions use TransactWriteItems.
 */
export class DynamoTableStore implements TableStore {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly logger: Logger;
  private readonly tableCacheTtlMs: number;
  private readonly knownTables = new Map<string, number>();

  /**
   * @param options - client, DynamoDB table name, logger and table-cache lifetime
   */
  constructor(options: DynamoTableStoreOptions) {
    if (!options.tableName)
      throw new ValidationError('DynamoTableStore needs a tableName.', { code: 'MissingTableName' });
    this.client = options.client;
    this.tableName = options.tableName;
    this.logger = options.logger ?? createJsonLogger();
    this.tableCacheTtlMs = options.tableCacheTtlMs ?? 30_000;
  }

  /** Rethrows an SDK failure in the core hierarchy: `client.send(…).catch(this.fail)`. */
  private readonly fail = (error: unknown): never => {
    throw toStoreError(error, this.tableName);
  };

  /** Names of all tables, sorted. */
  async listTables(): Promise<string[]> {
    const names: string[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const expression = new ExpressionBuilder();
      const condition = `${expression.name(ATTR.pk)} = ${expression.value({ S: REGISTRY_PK })}`;
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: condition,
            ConsistentRead: true,
            ExclusiveStartKey: start,
            ...expression.attributes(),
          }),
        )
        .catch(this.fail);
      for (const item of page.Items ?? []) {
        const name = item[ATTR.sk]?.S;
        if (name) names.push(name);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return names.sort();
  }

  /**
   * Creates a logical table (its registry item); one that already exists is logged and not an error.
   * @param table - 3 to 63 letters and digits, starting with a letter
   */
  async createTable(table: string): Promise<void> {
    assertValidTableName(table);
    const expression = new ExpressionBuilder();
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: {
            ...keyItem(registryKey(table)),
            [ATTR.tableName]: { S: table },
            [ATTR.timestamp]: { S: new Date().toISOString() },
          },
          ConditionExpression: `attribute_not_exists(${expression.name(ATTR.pk)})`,
          ...expression.attributes(),
        }),
      );
    } catch (error) {
      if (!isSdkError(error, 'ConditionalCheckFailedException')) throw toStoreError(error, this.tableName);
      this.logger.info('Table already exists; nothing to create.', { table, code: 'TableAlreadyExists' });
    }
    this.remember(table);
  }

  /**
   * Deletes a logical table with all its entities (found through index gsi1, deleted in batches);
   * a missing table is not an error.
   * @param table - the table name
   */
  async deleteTable(table: string): Promise<void> {
    assertValidTableName(table);
    if (!(await this.tableExists(table))) {
      this.logger.info('Table does not exist; nothing to delete.', { table, code: 'TableNotFound' });
      return;
    }
    let start: Record<string, AttributeValue> | undefined;
    do {
      const expression = new ExpressionBuilder();
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: GSI1,
            KeyConditionExpression: `${expression.name(ATTR.gsi1pk)} = ${expression.value({ S: table })}`,
            ProjectionExpression: `${expression.name(ATTR.pk)}, ${expression.name(ATTR.sk)}`,
            ExclusiveStartKey: start,
            ...expression.attributes(),
          }),
        )
        .catch(this.fail);
      const keys = (page.Items ?? []).map((item) => ({
        [ATTR.pk]: item[ATTR.pk]!,
        [ATTR.sk]: item[ATTR.sk]!,
      }));
      await this.deleteKeys(keys);
      start = page.LastEvaluatedKey;
    } while (start);
    // The registry item goes last: should the purge stop halfway, the table is still listed and a
    // second delete finishes the job.
    await this.client
      .send(new DeleteItemCommand({ TableName: this.tableName, Key: keyItem(registryKey(table)) }))
      .catch(this.fail);
    this.knownTables.delete(table);
  }

  private async deleteKeys(keys: Record<string, AttributeValue>[]): Promise<void> {
    const batches: WriteRequest[][] = [];
    for (let i = 0; i < keys.length; i += BATCH_WRITE_LIMIT) {
      batches.push(keys.slice(i, i + BATCH_WRITE_LIMIT).map((Key) => ({ DeleteRequest: { Key } })));
    }
    for (const batch of batches) {
      let pending: WriteRequest[] = batch;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > BATCH_RETRIES) {
          throw new StoreError(
            `DynamoDB kept ${pending.length} deletions unprocessed; try deleting the table again.`,
            {
              code: 'Throttled',
            },
          );
        }
        if (attempt > 0) await delay(Math.min(50 * 2 ** attempt, 2_000));
        const result = await this.client
          .send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }))
          .catch(this.fail);
        pending = result.UnprocessedItems?.[this.tableName] ?? [];
      }
    }
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
    await this.ensureTable(table);
    const etag = newEtag();
    const expression = new ExpressionBuilder();
    await this.sendConditional(
      () =>
        this.client.send(
          new PutItemCommand({
            TableName: this.tableName,
            Item: toItem(table, entity, etag, new Date().toISOString()),
            ConditionExpression: `attribute_not_exists(${expression.name(ATTR.pk)})`,
            ...expression.attributes(),
            ...RETURN_ITEM_ON_FAILED_CONDITION,
          }),
        ),
      (cause) =>
        new ConflictError(`An entity with ${describe(table, entity)} already exists.`, {
          cause,
          code: 'EntityAlreadyExists',
        }),
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
    if (items.length === 0 && !options.continuationToken && !(await this.tableExists(table))) {
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
    await this.sendConditional(
      () =>
        this.sendWrite(this.writeItem(table, entity, mode, etag, { mustExist: true, etag: options.etag })),
      (cause) => this.explainFailedCondition(table, entity, cause),
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
    await this.ensureTable(table);
    const etag = newEtag();
    await this.sendConditional(
      () =>
        this.sendWrite(this.writeItem(table, entity, mode, etag, { mustExist: false, etag: options.etag })),
      (cause) =>
        new ConflictError(`The etag matches no entity with ${describe(table, entity)}.`, {
          cause,
          code: 'EtagMismatch',
        }),
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
    const expression = new ExpressionBuilder();
    await this.sendConditional(
      () =>
        this.client.send(
          new DeleteItemCommand({
            TableName: this.tableName,
            Key: keyItem(entityKey(table, partitionKey, rowKey)),
            ConditionExpression: condition(expression, true, options.etag),
            ...expression.attributes(),
            ...RETURN_ITEM_ON_FAILED_CONDITION,
          }),
        ),
      (cause) => this.explainFailedCondition(table, { partitionKey, rowKey }, cause),
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
    await this.ensureTable(table);
    const items = actions.map((action) => this.transactItem(table, action));
    try {
      await this.client.send(new TransactWriteItemsCommand({ TransactItems: items }));
    } catch (error) {
      if (isSdkError(error, 'TransactionCanceledException'))
        throw await this.explainCancellation(table, actions, error);
      if (isSdkError(error, 'ValidationException') || isSdkError(error, 'TransactionConflictException')) {
        const failure = error as Error;
        throw new TransactionError(failure.message, {
          cause: error,
          code: failure.name,
          status: isSdkError(error, 'ValidationException') ? 400 : 409,
        });
      }
      throw toStoreError(error, this.tableName);
    }
  }

  private transactItem(table: string, action: TransactionAction): TransactWriteItem {
    const etag = newEtag();
    switch (action[0]) {
      case 'create': {
        const expression = new ExpressionBuilder();
        return {
          Put: {
            TableName: this.tableName,
            Item: toItem(table, action[1], etag, new Date().toISOString()),
            ConditionExpression: `attribute_not_exists(${expression.name(ATTR.pk)})`,
            ...expression.attributes(),
            ...RETURN_ITEM_ON_FAILED_CONDITION,
          },
        };
      }
      case 'delete': {
        const expression = new ExpressionBuilder();
        return {
          Delete: {
            TableName: this.tableName,
            Key: keyItem(entityKey(table, action[1].partitionKey, action[1].rowKey)),
            ConditionExpression: condition(expression, true, undefined),
            ...expression.attributes(),
            ...RETURN_ITEM_ON_FAILED_CONDITION,
          },
        };
      }
      case 'update':
        return this.writeItem(table, action[1], action[2] ?? 'Merge', etag, {
          mustExist: true,
          etag: action[3]?.etag,
        });
      case 'upsert':
        return this.writeItem(table, action[1], action[2] ?? 'Merge', etag, { mustExist: false });
    }
  }

  /** Replace is a whole-item Put; Merge an Update that sets only the given properties. */
  private writeItem(
    table: string,
    entity: TableEntity,
    mode: UpdateMode,
    etag: string,
    rules: { mustExist: boolean; etag?: string },
  ): TransactWriteItem {
    const expression = new ExpressionBuilder();
    const timestamp = new Date().toISOString();
    if (mode === 'Replace') {
      const conditionExpression = condition(expression, rules.mustExist, rules.etag);
      return {
        Put: {
          TableName: this.tableName,
          Item: toItem(table, entity, etag, timestamp),
          ...(conditionExpression
            ? { ConditionExpression: conditionExpression, ...RETURN_ITEM_ON_FAILED_CONDITION }
            : {}),
          ...expression.attributes(),
        },
      };
    }
    const keys = entityKeyAttributes(table, entity.partitionKey, entity.rowKey);
    const assignments: [string, AttributeValue][] = [
      [ATTR.gsi1pk, { S: keys.gsi1pk }],
      [ATTR.gsi1sk, { S: keys.gsi1sk }],
      [ATTR.partitionKey, { S: entity.partitionKey }],
      [ATTR.rowKey, { S: entity.rowKey }],
      [ATTR.etag, { S: etag }],
      [ATTR.timestamp, { S: timestamp }],
      ...Object.entries(userProperties(entity)).map(([name, value]): [string, AttributeValue] => [
        propertyAttribute(name),
        toAttributeValue(value),
      ]),
    ];
    const conditionExpression = condition(expression, rules.mustExist, rules.etag);
    const update = `SET ${assignments
      .map(([attribute, value]) => `${expression.name(attribute)} = ${expression.value(value)}`)
      .join(', ')}`;
    return {
      Update: {
        TableName: this.tableName,
        Key: keyItem(entityKey(table, entity.partitionKey, entity.rowKey)),
        UpdateExpression: update,
        ...(conditionExpression
          ? { ConditionExpression: conditionExpression, ...RETURN_ITEM_ON_FAILED_CONDITION }
          : {}),
        ...expression.attributes(),
      },
    };
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

  /** Sends one operation built by writeItem on its own (outside a transaction). */
  private async sendWrite(item: TransactWriteItem): Promise<void> {
    if (item.Put) await this.client.send(new PutItemCommand(item.Put));
    else if (item.Update) await this.client.send(new UpdateItemCommand(item.Update));
  }

  /** A failed "exists (and has this etag)" condition: a missing table or entity, or a stale etag. */
  private async explainFailedCondition(table: string, keys: EntityKeys, cause: unknown): Promise<Error> {
    if (itemAtFailure(cause) || (await this.getEntity(table, keys.partitionKey, keys.rowKey))) {
      return new ConflictError(
        `The entity with ${describe(table, keys)} has changed since it was read (its etag no longer matches).`,
        { cause, code: 'EtagMismatch' },
      );
    }
    if (!(await this.tableExists(table))) {
      return new NotFoundError(`Table "${table}" does not exist.`, { cause, code: 'TableNotFound' });
    }
    return new NotFoundError(`No entity with ${describe(table, keys)}.`, { cause, code: 'EntityNotFound' });
  }

  /** Names the failing operation of a cancelled transaction in the service's terms. */
  private async explainCancellation(
    table: string,
    actions: TransactionAction[],
    cause: unknown,
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
      const current =
        itemAtFailure(reason) ?? (await this.getEntity(table, action[1].partitionKey, action[1].rowKey));
      failure = current ? TRANSACTION_FAILURES.stale : TRANSACTION_FAILURES.missing;
    }
    return new TransactionError(failure.message, {
      cause,
      code: failure.code,
      status: failure.status,
      failedIndex,
    });
  }

  private checkWrite(table: string, entity: TableEntity): void {
    assertValidWrite(table, entity);
    assertKeysFit(entity.partitionKey, entity.rowKey);
  }

  private remember(table: string): void {
    this.knownTables.set(table, Date.now() + this.tableCacheTtlMs);
  }

  private async tableExists(table: string): Promise<boolean> {
    const result = await this.client
      .send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: keyItem(registryKey(table)),
          ConsistentRead: true,
        }),
      )
      .catch(this.fail);
    if (result.Item) this.remember(table);
    else this.knownTables.delete(table);
    return Boolean(result.Item);
  }

  private async ensureTable(table: string): Promise<void> {
    if ((this.knownTables.get(table) ?? 0) > Date.now()) return;
    if (!(await this.tableExists(table))) {
      throw new NotFoundError(`Table "${table}" does not exist.`, { code: 'TableNotFound' });
    }
  }
}

function keyItem(key: PrimaryKey): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: key.pk }, [ATTR.sk]: { S: key.sk } };
}

/** "exists" and/or "has this etag", or nothing when neither is asked. */
function condition(
  expression: ExpressionBuilder,
  mustExist: boolean,
  etag: string | undefined,
): string | undefined {
  const parts: string[] = [];
  if (mustExist) parts.push(`attribute_exists(${expression.name(ATTR.pk)})`);
  if (etag !== undefined && etag !== '*')
    parts.push(`${expression.name(ATTR.etag)} = ${expression.value({ S: etag })}`);
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

function describe(table: string, keys: EntityKeys): string {
  return `partitionKey "${keys.partitionKey}" and rowKey "${keys.rowKey}" in table "${table}"`;
}

/** A weak etag around a random version id; a recreated entity never reuses an old etag. */
function newEtag(): string {
  return `W/"${randomBytes(12).toString('base64url')}"`;
}

const TOKEN_KEYS: Record<ListMode, string[]> = {
  partition: [ATTR.pk, ATTR.sk],
  index: [ATTR.pk, ATTR.sk, ATTR.gsi1pk, ATTR.gsi1sk],
};

function startKeyOf(item: Record<string, AttributeValue>, mode: ListMode): Record<string, AttributeValue> {
  return Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, item[name]!]));
}

/** LastEvaluatedKey (all string attributes) as base64url JSON, tagged with the listing it belongs to. */
function encodeToken(key: Record<string, AttributeValue>, mode: ListMode): string {
  const plain = Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, key[name]?.S ?? '']));
  return Buffer.from(JSON.stringify({ m: mode, k: plain }), 'utf8').toString('base64url');
}

function decodeToken(token: string, mode: ListMode, scope: string): Record<string, AttributeValue> {
  let parsed: { m?: unknown; k?: Record<string, unknown> } | undefined;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const key = parsed?.k;
  const valid =
    typeof token === 'string' &&
    parsed?.m === mode &&
    typeof key === 'object' &&
    key !== null &&
    TOKEN_KEYS[mode].every((name) => typeof key[name] === 'string') &&
    // A token continues the listing it came from: same partition, or same table for the index.
    (mode === 'partition' ? key[ATTR.pk] === scope : key[ATTR.gsi1pk] === scope);
  if (!valid) {
    throw new ValidationError(
      'The continuation token is not valid for this listing; pass back the token it returned.',
      {
        code: 'InvalidContinuationToken',
      },
    );
  }
  return Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, { S: key[name] as string }]));
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
