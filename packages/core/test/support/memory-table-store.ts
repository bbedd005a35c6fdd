import {
  ConflictError,
  NotFoundError,
  TransactionError,
  ValidationError,
  assertUpdateMode,
  assertValidEntityAddress,
  assertValidEntityKeys,
  assertValidFilter,
  assertValidTableName,
  assertValidTransaction,
  assertValidWrite,
  checkListOptions,
  matchesFilter,
  silentLogger,
  userProperties,
  type EntityKeys,
  type EntityValue,
  type Logger,
  type ListOptions,
  type Page,
  type StoredEntity,
  type TableEntity,
  type TableStore,
  type TransactionAction,
  type UpdateMode,
  type WriteOptions,
  type WriteResult,
} from '../../src';

interface Row {
  partitionKey: string;
  rowKey: string;
  props: Record<string, EntityValue>;
  etag: string;
  timestamp: string;
}

/**
 * A TableStore held in memory, for unit tests of the use cases. It follows the port's contract:
 * validation, etags (default `*`), Merge/Replace, typed filters, (partitionKey, rowKey) order,
 * continuation tokens, prefix listing, and all-or-nothing single-partition transactions.
 * `calls` counts the calls per method, so tests can check what a use case reads.
 */
export class MemoryTableStore implements TableStore {
  private readonly tables = new Map<string, Map<string, Row>>();
  private counter = 0;
  readonly calls: Record<string, number> = {};

  /** @param logger - where it notes what the adapters note (a table that already existed) */
  constructor(private readonly logger: Logger = silentLogger) {}
  /** Set to make the next calls of a method fail (tests of failure paths). */
  failNext: { method: string; error: Error; times: number } | undefined;

  private track(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (this.failNext && this.failNext.method === method && this.failNext.times > 0) {
      this.failNext.times -= 1;
      throw this.failNext.error;
    }
  }

  private table(name: string): Map<string, Row> {
    assertValidTableName(name);
    const table = this.tables.get(name);
    if (!table) throw new NotFoundError(`Table "${name}" does not exist.`, { code: 'TableNotFound' });
    return table;
  }

  private static id(pk: string, rk: string): string {
    return `${pk}\u0000${rk}`;
  }

  private nextEtag(): string {
    this.counter += 1;
    return `W/"${this.counter}"`;
  }

  private static stored(row: Row): StoredEntity {
    return {
      ...row.props,
      partitionKey: row.partitionKey,
      rowKey: row.rowKey,
      etag: row.etag,
      timestamp: row.timestamp,
    };
  }

  async listTables(): Promise<string[]> {
    this.track('listTables');
    return [...this.tables.keys()].sort();
  }

  async createTable(table: string): Promise<void> {
    this.track('createTable');
    assertValidTableName(table);
    if (this.tables.has(table)) {
      this.logger.info('Table already exists; nothing to create.', { table, code: 'TableAlreadyExists' });
    } else this.tables.set(table, new Map());
  }

  async deleteTable(table: string): Promise<void> {
    this.track('deleteTable');
    assertValidTableName(table);
    this.tables.delete(table);
  }

  private write(table: string, entity: TableEntity, props: Record<string, EntityValue>): WriteResult {
    const etag = this.nextEtag();
    this.table(table).set(MemoryTableStore.id(entity.partitionKey, entity.rowKey), {
      partitionKey: entity.partitionKey,
      rowKey: entity.rowKey,
      props,
      etag,
      timestamp: new Date().toISOString(),
    });
    return { etag };
  }

  private existing(table: string, pk: string, rk: string): Row | undefined {
    return this.table(table).get(MemoryTableStore.id(pk, rk));
  }

  private checkEtag(row: Row | undefined, options?: WriteOptions): void {
    const etag = options?.etag ?? '*';
    if (etag !== '*' && etag !== row?.etag) {
      throw new ConflictError('The entity was changed since it was read.', {
        code: 'UpdateConditionNotSatisfied',
      });
    }
  }

  async createEntity(table: string, entity: TableEntity): Promise<WriteResult> {
    this.track('createEntity');
    return this.create(table, entity);
  }

  private create(table: string, entity: TableEntity): WriteResult {
    assertValidWrite(table, entity);
    if (this.existing(table, entity.partitionKey, entity.rowKey)) {
      throw new ConflictError('The entity already exists.', { code: 'EntityAlreadyExists' });
    }
    return this.write(table, entity, userProperties(entity));
  }

  async getEntity<T extends TableEntity = TableEntity>(
    table: string,
    partitionKey: string,
    rowKey: string,
  ): Promise<StoredEntity<T> | null> {
    this.track('getEntity');
    assertValidEntityAddress(table, partitionKey, rowKey);
    const row = this.tables.get(table)?.get(MemoryTableStore.id(partitionKey, rowKey));
    return row ? (MemoryTableStore.stored(row) as StoredEntity<T>) : null;
  }

  async getEntities<T extends TableEntity = TableEntity>(
    table: string,
    keys: readonly EntityKeys[],
  ): Promise<(StoredEntity<T> | null)[]> {
    this.track('getEntities');
    assertValidEntityKeys(table, keys);
    return keys.map((key) => {
      const row = this.tables.get(table)?.get(MemoryTableStore.id(key.partitionKey, key.rowKey));
      return row ? (MemoryTableStore.stored(row) as StoredEntity<T>) : null;
    });
  }

  async listEntities<T extends TableEntity = TableEntity>(
    table: string,
    options: ListOptions = {},
  ): Promise<Page<StoredEntity<T>>> {
    this.track('listEntities');
    const pageSize = checkListOptions(table, options);
    const { filter } = options;
    if (filter) assertValidFilter(filter);
    const rows = [...this.table(table).values()]
      .filter((row) =>
        options.partitionKey !== undefined
          ? row.partitionKey === options.partitionKey
          : options.partitionKeyPrefix === undefined ||
            row.partitionKey.startsWith(options.partitionKeyPrefix),
      )
      .sort((a, b) => compare(a.partitionKey, b.partitionKey) || compare(a.rowKey, b.rowKey))
      .map(MemoryTableStore.stored)
      .filter((entity) => !filter || matchesFilter(entity, filter)) as StoredEntity<T>[];
    const start =
      options.continuationToken === undefined ? 0 : MemoryTableStore.offset(options.continuationToken);
    const items = rows.slice(start, start + pageSize);
    const next = start + pageSize;
    return next < rows.length ? { items, continuationToken: `m${next}` } : { items };
  }

  /** The position a continuation token this store handed out stands for. */
  private static offset(token: string): number {
    const match = /^m(\d{1,9})$/.exec(token);
    if (!match) {
      throw new ValidationError('The continuation token is not one this store handed out.', {
        code: 'InvalidContinuationToken',
      });
    }
    return Number(match[1]);
  }

  async updateEntity(
    table: string,
    entity: TableEntity,
    mode: UpdateMode = 'Merge',
    options?: WriteOptions,
  ): Promise<WriteResult> {
    this.track('updateEntity');
    return this.update(table, entity, mode, options);
  }

  private update(table: string, entity: TableEntity, mode: UpdateMode, options?: WriteOptions): WriteResult {
    assertValidWrite(table, entity);
    assertUpdateMode(mode);
    const row = this.existing(table, entity.partitionKey, entity.rowKey);
    if (!row) throw new NotFoundError('The entity does not exist.', { code: 'ResourceNotFound' });
    this.checkEtag(row, options);
    const props = mode === 'Merge' ? { ...row.props, ...userProperties(entity) } : userProperties(entity);
    return this.write(table, entity, props);
  }

  async upsertEntity(
    table: string,
    entity: TableEntity,
    mode: UpdateMode = 'Merge',
    options?: WriteOptions,
  ): Promise<WriteResult> {
    this.track('upsertEntity');
    return this.upsert(table, entity, mode, options);
  }

  private upsert(table: string, entity: TableEntity, mode: UpdateMode, options?: WriteOptions): WriteResult {
    assertValidWrite(table, entity);
    assertUpdateMode(mode);
    const row = this.existing(table, entity.partitionKey, entity.rowKey);
    this.checkEtag(row, options);
    const props =
      row && mode === 'Merge' ? { ...row.props, ...userProperties(entity) } : userProperties(entity);
    return this.write(table, entity, props);
  }

  async deleteEntity(
    table: string,
    partitionKey: string,
    rowKey: string,
    options?: WriteOptions,
  ): Promise<void> {
    this.track('deleteEntity');
    this.remove(table, partitionKey, rowKey, options);
  }

  private remove(table: string, partitionKey: string, rowKey: string, options?: WriteOptions): void {
    assertValidEntityAddress(table, partitionKey, rowKey);
    const row = this.existing(table, partitionKey, rowKey);
    if (!row) throw new NotFoundError('The entity does not exist.', { code: 'ResourceNotFound' });
    this.checkEtag(row, options);
    this.table(table).delete(MemoryTableStore.id(partitionKey, rowKey));
  }

  async submitTransaction(table: string, actions: TransactionAction[]): Promise<void> {
    this.track('submitTransaction');
    assertValidTableName(table);
    assertValidTransaction(actions);
    const data = this.table(table);
    const snapshot = new Map(data);
    let index = 0;
    try {
      // Applied without yielding, so that no other call sees or changes the table half-way.
      for (const [at, action] of actions.entries()) {
        index = at;
        switch (action[0]) {
          case 'create':
            this.create(table, action[1]);
            break;
          case 'delete':
            this.remove(table, action[1].partitionKey, action[1].rowKey, { etag: action[1].etag });
            break;
          case 'update':
            this.update(table, action[1], action[2] ?? 'Merge', action[3]);
            break;
          case 'upsert':
            this.upsert(table, action[1], action[2] ?? 'Merge');
            break;
        }
      }
    } catch (error) {
      data.clear();
      for (const [k, v] of snapshot) data.set(k, v);
      // The status and code Azure Tables and DynamoDB report for the operation that failed.
      const [status, code] =
        error instanceof NotFoundError
          ? [404, 'ResourceNotFound']
          : error instanceof ConflictError && error.code === 'EntityAlreadyExists'
            ? [409, 'EntityAlreadyExists']
            : error instanceof ConflictError
              ? [412, 'UpdateConditionNotSatisfied']
              : [400, 'InvalidInput'];
      throw new TransactionError(error instanceof Error ? error.message : undefined, {
        cause: error,
        code,
        status,
        failedIndex: index,
      });
    }
  }

  /** Every row of a table (test inspection). */
  dump(table: string): StoredEntity[] {
    return [...(this.tables.get(table)?.values() ?? [])].map(MemoryTableStore.stored);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
