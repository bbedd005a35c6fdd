import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { NotFoundError, ThrottledError, retryThrottled, type Logger } from '@receipts/core';
import { isSdkError, toStoreError } from './errors';
import { ExpressionBuilder } from './expressions';
import { ATTR, GSI1, REGISTRY_PK, registryKey } from './key-layout';
import { keyItem } from './marshal';

/** Options of {@link TableRegistry}. */
export interface TableRegistryOptions {
  client: DynamoDBClient;
  /** The DynamoDB table that holds the registry and every logical table. */
  tableName: string;
  logger: Logger;
  /** How long a logical table is trusted to exist before its registry item is read again. */
  cacheTtlMs: number;
}

const BATCH_WRITE_LIMIT = 25;

/**
 * Which logical tables exist: one registry item per table (partition `#TABLES`), created and deleted
 * here, with a short-lived cache so that every write need not read the registry first.
 */
export class TableRegistry {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly logger: Logger;
  private readonly cacheTtlMs: number;
  private readonly knownTables = new Map<string, number>();

  /**
   * @param options - client, DynamoDB table name, logger and cache lifetime
   */
  constructor(options: TableRegistryOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
    this.logger = options.logger;
    this.cacheTtlMs = options.cacheTtlMs;
  }

  /** Rethrows an SDK failure in the core hierarchy: `client.send(…).catch(this.fail)`. */
  private readonly fail = (error: unknown): never => {
    throw toStoreError(error, this.tableName);
  };

  /** Names of all logical tables, sorted. */
  async list(): Promise<string[]> {
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
   * Writes the registry item of a (checked) table name; one that exists already is logged.
   * @param table - the logical table
   */
  async create(table: string): Promise<void> {
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
   * Deletes a logical table's entities (found through index gsi1, deleted in batches) and then its
   * registry item; a missing table is logged.
   * @param table - the logical table
   */
  async delete(table: string): Promise<void> {
    if (!(await this.exists(table))) {
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

  /**
   * Whether the table's registry item exists (a strongly consistent read that refreshes the cache).
   * @param table - the logical table
   */
  async exists(table: string): Promise<boolean> {
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

  /**
   * Passes when the table is known to exist (from the cache, or else from its registry item).
   * @param table - the logical table
   * @throws NotFoundError when it does not exist
   */
  async ensure(table: string): Promise<void> {
    if ((this.knownTables.get(table) ?? 0) > Date.now()) return;
    if (!(await this.exists(table))) {
      throw new NotFoundError(`Table "${table}" does not exist.`, { code: 'TableNotFound' });
    }
  }

  private remember(table: string): void {
    this.knownTables.set(table, Date.now() + this.cacheTtlMs);
  }

  private async deleteKeys(keys: Record<string, AttributeValue>[]): Promise<void> {
    const batches: WriteRequest[][] = [];
    for (let i = 0; i < keys.length; i += BATCH_WRITE_LIMIT) {
      batches.push(keys.slice(i, i + BATCH_WRITE_LIMIT).map((Key) => ({ DeleteRequest: { Key } })));
    }
    for (const batch of batches) {
      let pending: WriteRequest[] = batch;
      await retryThrottled(async () => {
        const result = await this.client
          .send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }))
          .catch(this.fail);
        pending = result.UnprocessedItems?.[this.tableName] ?? [];
        if (pending.length > 0) {
          throw new ThrottledError(
            `DynamoDB kept ${pending.length} deletions unprocessed; try deleting the table again.`,
          );
        }
      });
    }
  }
}
