import {
  ConflictError,
  MAX_PAGE_SIZE,
  NotFoundError,
  TransactionError,
  assertUpdateMode,
  assertValidKeys,
  assertValidTableName,
  assertValidTransaction,
  matchesFilter,
  userProperties,
  type EntityValue,
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
    if (!table) throw new NotFoundError(`Table ${name} does not exist.`, { code: 'TableNotFound' });
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
    if (!this.tables.has(table)) this.tables.set(table, new Map());
  }

  async deleteTable(table: string): Promise<void> {
    this.track('deleteTable');
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

  private checkEtag(row: Row, options?: WriteOptions): void {
    const etag = options?.etag ?? '*';
    if (etag !== '*' && etag !== row.etag) {
      throw new ConflictError('The entity was changed since it was read.', {
        code: 'UpdateConditionNotSatisfied',
      });
    }
  }

  async createEntity(table: string, entity: TableEntity): Promise<WriteResult> {
    this.track('createEntity');
    assertValidKeys(entity);
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
    assertValidKeys({ partitionKey, rowKey });
    const row = this.existing(table, partitionKey, rowKey);
    return row ? (MemoryTableStore.stored(row) as StoredEntity<T>) : null;
  }

  async listEntities<T extends TableEntity = TableEntity>(
    table: string,
    options: ListOptions = {},
  ): Promise<Page<StoredEntity<T>>> {
    this.track('listEntities');
    const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
    const rows = [...this.table(table).values()]
      .filter((row) =>
        options.partitionKey !== undefined
          ? row.partitionKey === options.partitionKey
          : options.partitionKeyPrefix === undefined ||
            row.partitionKey.startsWith(options.partitionKeyPrefix),
      )
      .sort((a, b) => compare(a.partitionKey, b.partitionKey) || compare(a.rowKey, b.rowKey));
    const start = options.continuationToken ? Number(options.continuationToken) : 0;
    const slice = rows.slice(start, start + pageSize);
    const items = slice
      .map(MemoryTableStore.stored)
      .filter((entity) => !options.filter || matchesFilter(entity, options.filter)) as StoredEntity<T>[];
    const next = start + pageSize;
    return next < rows.length ? { items, continuationToken: String(next) } : { items };
  }

  async updateEntity(
    table: string,
    entity: TableEntity,
    mode: UpdateMode = 'Merge',
    options?: WriteOptions,
  ): Promise<WriteResult> {
    this.track('updateEntity');
    assertValidKeys(entity);
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
    assertValidKeys(entity);
    assertUpdateMode(mode);
    const row = this.existing(table, entity.partitionKey, entity.rowKey);
    if (row) this.checkEtag(row, options);
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
    assertValidKeys({ partitionKey, rowKey });
    const row = this.existing(table, partitionKey, rowKey);
    if (!row) throw new NotFoundError('The entity does not exist.', { code: 'ResourceNotFound' });
    this.checkEtag(row, options);
    this.table(table).delete(MemoryTableStore.id(partitionKey, rowKey));
  }

  async submitTransaction(table: string, actions: TransactionAction[]): Promise<void> {
    this.track('submitTransaction');
    assertValidTransaction(actions);
    const data = this.table(table);
    const snapshot = new Map(data);
    try {
      for (const action of actions) {
        switch (action[0]) {
          case 'create':
            await this.createEntity(table, action[1]);
            break;
          case 'delete':
            await this.deleteEntity(table, action[1].partitionKey, action[1].rowKey, {
              etag: action[1].etag,
            });
            break;
          case 'update':
            await this.updateEntity(table, action[1], action[2], action[3]);
            break;
          case 'upsert':
            await this.upsertEntity(table, action[1], action[2]);
            break;
        }
      }
    } catch (error) {
      data.clear();
      for (const [k, v] of snapshot) data.set(k, v);
      throw new TransactionError(error instanceof Error ? error.message : undefined, { cause: error });
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
