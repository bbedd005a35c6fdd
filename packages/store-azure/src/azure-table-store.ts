import {
  TableClient,
  TableServiceClient,
  type TableServiceClientOptions,
  type TransactionAction as AzureTransactionAction,
} from '@azure/data-tables';
import {
  assertUpdateMode,
  assertValidEntityAddress,
  assertValidEntityKeys,
  assertValidTableName,
  assertValidTransaction,
  assertValidWrite,
  checkListOptions,
  ConfigurationError,
  ConflictError,
  silentLogger,
  NotFoundError,
  StoreError,
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
import { checkTablesEndpoint, fromConnectionString } from './connection-string';
import type { TableAccess } from './table-access';
import { isRestError, toStoreError, toTransactionError, type CallContext } from './errors';
import { allOf, fromAzureEntity, partitionPrefixFilter, quote, toAzureEntity, toODataFilter } from './odata';

/** The error of a call this store holds no signature for: a deployment mistake, not a user's. */
const noAccess = (what: string) =>
  new ConfigurationError(
    `This function was given no access to ${what} in Azure Tables (see ACCESS_LEVELS in ` +
      'packages/store-azure); its route was not expected to need it.',
    { code: 'NoTableAccess' },
  );

/** Point reads one {@link AzureTableStore.getEntities} call keeps in flight at once. */
const PARALLEL_READS = 16;

/** Options of {@link AzureTableStore.fromConnectionString}. */
export interface AzureTableStoreOptions {
  /** Where "table already exists" and similar notes go; default nowhere (the composition root gives one). */
  logger?: Logger;
  /**
   * Allow credentials over plain http. Default: allowed only for an endpoint on this machine
   * (Azurite); anything else must use https unless this is set.
   */
  allowInsecureConnection?: boolean;
}

/**
 * The TableStore port on Azure Tables (or Azurite) through `@azure/data-tables`, following spec §5, §7
 * and §8: keys are checked before any call, quotes in keys and values are doubled in OData, a table
 * that already exists is not an error, nor is deleting one that does not, and service failures become
 * the core error hierarchy.
 */
export class AzureTableStore implements TableStore {
  private serviceClient: TableServiceClient | undefined;
  private readonly tables = new Map<string, TableClient>();

  private constructor(
    /**
     * The connection string of the client of a table, or of the service (table undefined);
     * undefined when this store was given no access there.
     */
    private readonly connectionFor: (table?: string) => string | undefined,
    /** The Table service URL, without a signature. */
    readonly endpoint: string,
    private readonly clientOptions: TableServiceClientOptions,
    private readonly logger: Logger,
  ) {}

  /** The service client (tables list, create, delete). */
  private get service(): TableServiceClient {
    const connectionString = this.connectionFor();
    if (connectionString === undefined) throw noAccess('the list of tables');
    this.serviceClient ??= TableServiceClient.fromConnectionString(connectionString, {
      ...this.clientOptions,
    });
    return this.serviceClient;
  }

  /**
   * Creates a store from an Azure Storage connection string, parsed by `@azure/data-tables`.
   * @param connectionString - account-key, SAS or `UseDevelopmentStorage=true` connection string
   * @param options - logger and insecure-connection policy
   * @throws ConfigurationError naming the wrong part (endpoint, shared-access signature, account name…)
   */
  static fromConnectionString(
    connectionString: string,
    options: AzureTableStoreOptions = {},
  ): AzureTableStore {
    // Parsed once, insecure allowed, only to learn the endpoint; the https check below decides.
    const parsed = fromConnectionString(connectionString, (value) =>
      TableServiceClient.fromConnectionString(value, { allowInsecureConnection: true }),
    );
    const endpoint = checkTablesEndpoint(parsed.url);
    const allowInsecureConnection = options.allowInsecureConnection ?? endpoint.loopbackHttp;
    if (endpoint.insecure && !allowInsecureConnection) {
      throw new ConfigurationError(
        `Invalid TableEndpoint in the Azure Tables connection string: ${endpoint.url} is plain http on ` +
          'another machine; use https, or pass allowInsecureConnection: true to send credentials unencrypted.',
        { code: 'InvalidTableEndpoint' },
      );
    }
    const trimmed = connectionString.trim();
    return new AzureTableStore(
      () => trimmed,
      endpoint.url,
      { allowInsecureConnection },
      options.logger ?? silentLogger,
    );
  }

  /**
   * Creates a store that holds only an access level's per-table signatures (see createTableAccess):
   * each table is reached with its own signature, a table without one not at all.
   * @param access - the signatures, as parseTableAccess reads them from the function's secret
   * @param options - logger and insecure-connection policy
   * @throws ConfigurationError for plain http to another machine
   */
  static fromTableAccess(access: TableAccess, options: AzureTableStoreOptions = {}): AzureTableStore {
    const endpoint = checkTablesEndpoint(access.endpoint);
    const allowInsecureConnection = options.allowInsecureConnection ?? endpoint.loopbackHttp;
    if (endpoint.insecure && !allowInsecureConnection) {
      throw new ConfigurationError(
        `The Azure tables endpoint ${endpoint.url} is plain http on another machine; use https.`,
        { code: 'InvalidTableEndpoint' },
      );
    }
    const withSignature = (sas: string | undefined) =>
      sas === undefined ? undefined : `TableEndpoint=${endpoint.url};SharedAccessSignature=${sas}`;
    return new AzureTableStore(
      (table) => withSignature(table === undefined ? access.listTables : access.tables[table]),
      endpoint.url,
      { allowInsecureConnection },
      options.logger ?? silentLogger,
    );
  }

  private client(table: string): TableClient {
    let client = this.tables.get(table);
    if (!client) {
      const connectionString = this.connectionFor(table);
      if (connectionString === undefined) throw noAccess(`the table ${table}`);
      client = TableClient.fromConnectionString(connectionString, table, { ...this.clientOptions });
      this.tables.set(table, client);
    }
    return client;
  }

  private context(table: string, keys?: { partitionKey?: string; rowKey?: string }): CallContext {
    return {
      table,
      partitionKey: keys?.partitionKey,
      rowKey: keys?.rowKey,
      endpoint: this.endpoint,
    };
  }

  /** Names of all tables, sorted. */
  async listTables(): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const table of this.service.listTables()) if (table.name) names.push(table.name);
    } catch (error) {
      throw toStoreError(error, this.context('(list of tables)'));
    }
    return names.sort();
  }

  /**
   * Creates a table; one that already exists (409 TableAlreadyExists) is logged and not an error.
   * @param table - 3 to 63 letters and digits, starting with a letter
   */
  async createTable(table: string): Promise<void> {
    assertValidTableName(table);
    // The SDK swallows 409 TableAlreadyExists itself; its response still tells us it happened.
    const existed = await this.answered(table, 409, (options) => this.service.createTable(table, options));
    if (existed)
      this.logger.info('Table already exists; nothing to create.', { table, code: 'TableAlreadyExists' });
  }

  /**
   * Deletes a table and its entities; a missing table (404) is not an error.
   * @param table - the table name
   */
  async deleteTable(table: string): Promise<void> {
    assertValidTableName(table);
    const missing = await this.answered(table, 404, (options) => this.service.deleteTable(table, options));
    this.tables.delete(table);
    if (missing)
      this.logger.info('Table does not exist; nothing to delete.', { table, code: 'TableNotFound' });
  }

  /**
   * Inserts a new entity.
   * @param table - the table name
   * @param entity - keys and properties (string, number, boolean, Date or null)
   * @returns the new etag
   * @throws ConflictError when an entity with the same keys exists; NotFoundError when the table does not
   */
  async createEntity(table: string, entity: TableEntity): Promise<WriteResult> {
    assertValidWrite(table, entity);
    return this.write(table, entity, (client) => client.createEntity(toAzureEntity(entity)));
  }

  /**
   * Reads one entity.
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
    try {
      const raw = await this.client(table).getEntity<Record<string, unknown>>(partitionKey, rowKey);
      return fromAzureEntity<T>(raw);
    } catch (error) {
      if (isRestError(error) && error.statusCode === 404) return null;
      throw toStoreError(error, this.context(table, { partitionKey, rowKey }));
    }
  }

  /**
   * Reads several entities. Azure Tables has no batch read (a query naming several row keys scans
   * the partition), so these are point reads of the distinct keys, at most
   * {@link PARALLEL_READS} in flight at once.
   * @param table - the table name
   * @param keys - the entities' keys (a key may repeat)
   * @returns one entry per key, in order: the entity, or null when it (or its table) does not exist
   */
  async getEntities<T extends TableEntity = TableEntity>(
    table: string,
    keys: readonly EntityKeys[],
  ): Promise<(StoredEntity<T> | null)[]> {
    assertValidEntityKeys(table, keys);
    const idOf = (key: EntityKeys) => JSON.stringify([key.partitionKey, key.rowKey]);
    const distinct = new Map<string, EntityKeys>();
    for (const key of keys) distinct.set(idOf(key), key);
    const found = new Map<string, StoredEntity<T> | null>();
    const all = [...distinct];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL_READS, all.length) }, async () => {
        while (next < all.length) {
          const [id, key] = all[next++]!;
          found.set(id, await this.getEntity<T>(table, key.partitionKey, key.rowKey));
        }
      }),
    );
    return keys.map((key) => found.get(idOf(key)) ?? null);
  }

  /**
   * One page of entities in (partitionKey, rowKey) order. A page is filled up to `pageSize` unless
   * the listing ends; its continuation token is opaque base64url.
   * @param table - the table name
   * @param options - partition or partition prefix, typed filter, page size, continuation token
   * @throws NotFoundError when the table does not exist; ValidationError for a bad option or token
   */
  async listEntities<T extends TableEntity = TableEntity>(
    table: string,
    options: ListOptions = {},
  ): Promise<Page<StoredEntity<T>>> {
    const pageSize = checkListOptions(table, options);
    let scope: string | undefined;
    if (options.partitionKey !== undefined) {
      scope = `PartitionKey eq ${quote(options.partitionKey)}`;
    } else if (options.partitionKeyPrefix !== undefined) {
      scope = partitionPrefixFilter(options.partitionKeyPrefix);
    }
    const filter = allOf(scope, options.filter ? toODataFilter(options.filter) : undefined);
    let token = options.continuationToken === undefined ? undefined : decodeToken(options.continuationToken);

    const items: StoredEntity<T>[] = [];
    try {
      const listing = this.client(table).listEntities<Record<string, unknown>>({ queryOptions: { filter } });
      // The service may end a page early (time limit, partition boundary); keep asking until it is full.
      do {
        const pages = listing.byPage({ maxPageSize: pageSize - items.length, continuationToken: token });
        const next = await pages.next();
        if (next.done) {
          token = undefined;
          break;
        }
        for (const raw of next.value) items.push(fromAzureEntity<T>(raw));
        token = next.value.continuationToken;
      } while (token && items.length < pageSize);
    } catch (error) {
      throw toStoreError(error, this.context(table));
    }
    return token ? { items, continuationToken: encodeToken(token) } : { items };
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
    assertValidWrite(table, entity);
    assertUpdateMode(mode);
    return this.write(table, entity, (client) =>
      client.updateEntity(toAzureEntity(entity), mode, { etag: options.etag ?? '*' }),
    );
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
    assertValidWrite(table, entity);
    assertUpdateMode(mode);
    if (options.etag !== undefined && options.etag !== '*') {
      try {
        return await this.updateEntity(table, entity, mode, options);
      } catch (error) {
        if (error instanceof NotFoundError && error.code === 'EntityNotFound') {
          throw new ConflictError(error.message.replace(/^No entity/, 'The etag matches no entity'), {
            cause: error,
            code: 'EtagMismatch',
          });
        }
        throw error;
      }
    }
    return this.write(table, entity, (client) => client.upsertEntity(toAzureEntity(entity), mode));
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
    try {
      await this.client(table).deleteEntity(partitionKey, rowKey, { etag: options.etag ?? '*' });
    } catch (error) {
      throw toStoreError(error, this.context(table, { partitionKey, rowKey }));
    }
  }

  /**
   * Applies all actions in one entity-group transaction, or none.
   * @param table - the table name
   * @param actions - at most 100, all on one partitionKey (checked before any call)
   * @throws ValidationError before any call for a malformed transaction; TransactionError carrying the
   * service message, code, status and failing index when the service refuses it
   */
  async submitTransaction(table: string, actions: TransactionAction[]): Promise<void> {
    assertValidTableName(table);
    assertValidTransaction(actions);
    const azureActions = actions.map((action): AzureTransactionAction => {
      switch (action[0]) {
        case 'create':
          return ['create', toAzureEntity(action[1])];
        case 'delete':
          return ['delete', { partitionKey: action[1].partitionKey, rowKey: action[1].rowKey }];
        case 'update':
          return ['update', toAzureEntity(action[1]), action[2] ?? 'Merge', { etag: action[3]?.etag ?? '*' }];
        case 'upsert':
          return ['upsert', toAzureEntity(action[1]), action[2] ?? 'Merge'];
      }
    });
    try {
      await this.client(table).submitTransaction(azureActions);
    } catch (error) {
      throw toTransactionError(error, this.context(table));
    }
  }

  /**
   * Runs a table-level service call and tells whether the service answered with `status`, which the
   * SDK handles without an error for these calls.
   */
  private async answered(
    table: string,
    status: number,
    call: (options: { onResponse: (response: { status: number }) => void }) => Promise<void>,
  ): Promise<boolean> {
    let seen = false;
    try {
      await call({ onResponse: (response) => void (seen ||= response.status === status) });
    } catch (error) {
      throw toStoreError(error, this.context(table));
    }
    return seen;
  }

  /** Sends one single-entity write and returns its etag; failures are reported against the entity's keys. */
  private async write(
    table: string,
    entity: TableEntity,
    send: (client: TableClient) => Promise<{ etag?: string }>,
  ): Promise<WriteResult> {
    try {
      const response = await send(this.client(table));
      return { etag: required(response.etag) };
    } catch (error) {
      throw toStoreError(error, this.context(table, entity));
    }
  }
}

function required(etag: string | undefined): string {
  // The service always returns an ETag on a successful write; its absence is a broken response.
  if (!etag) throw new StoreError('Azure Tables returned no etag for a write.', { code: 'MissingEtag' });
  return etag;
}

interface NextKeys {
  nextPartitionKey: string;
  nextRowKey?: string;
}

/*
 * The SDK's own token is base64 JSON of the service's NextPartitionKey / NextRowKey headers. Ours
 * carries the same two values as base64url JSON, so it is safe in a URL and independent of the SDK.
 */
function encodeToken(sdkToken: string): string {
  const keys = JSON.parse(Buffer.from(sdkToken, 'base64').toString('latin1')) as NextKeys;
  return Buffer.from(JSON.stringify({ p: keys.nextPartitionKey, r: keys.nextRowKey }), 'utf8').toString(
    'base64url',
  );
}

function decodeToken(token: string): string {
  let keys: { p?: unknown; r?: unknown };
  try {
    keys = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { p?: unknown; r?: unknown };
  } catch {
    keys = {};
  }
  if (
    typeof token !== 'string' ||
    typeof keys?.p !== 'string' ||
    (keys.r !== undefined && typeof keys.r !== 'string')
  ) {
    throw new ValidationError(
      'The continuation token is not valid; pass back the token a listing returned.',
      {
        code: 'InvalidContinuationToken',
      },
    );
  }
  const sdk: NextKeys = { nextPartitionKey: keys.p, ...(keys.r ? { nextRowKey: keys.r } : {}) };
  return Buffer.from(JSON.stringify(sdk), 'latin1').toString('base64');
}
