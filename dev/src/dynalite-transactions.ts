import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

/*
 * dynalite implements DynamoDB's item, query and table operations but not TransactWriteItems, which
 * DynamoTableStore uses for transactions. This module adds it to a dynalite server, built on
 * dynalite's own request validation, condition evaluation and write actions, so a transaction is
 * checked and applied with the same rules as the single-item calls:
 *
 * 1. every operation is validated as the equivalent PutItem / UpdateItem / DeleteItem request;
 * 2. all conditions are evaluated against the stored items; if one fails, nothing is written and the
 *    answer is a TransactionCanceledException whose CancellationReasons name the failing operation;
 * 3. otherwise the operations are applied in order; should a write fail midway, the ones already
 *    applied are undone from the items read in step 2.
 *
 * A transaction runs alone: other requests wait for it and it waits for those in flight, so no reader
 * sees half of it.
 *
 * It loads dynalite's private modules (db, validations, actions, its buffer-crc32) and replaces
 * `db.create`, none of which dynalite promises to keep from one release to the next. dev/package.json
 * therefore pins dynalite to one exact version (no ^ or ~): update it on purpose, and run
 * dev/test/dynalite.test.ts and test/store when you do.
 */

type AttributeValue = Record<string, unknown>;
type AttributeMap = Record<string, AttributeValue>;

interface DynaliteError extends Error {
  statusCode?: number;
  body?: Record<string, unknown>;
}

type Callback<T> = (error: DynaliteError | null | undefined, value?: T) => void;

interface TableDescription {
  KeySchema: { AttributeName: string; KeyType: string }[];
}

interface ItemDb {
  get(key: string, callback: Callback<AttributeMap>): void;
}

/** The part of dynalite's store (db/index.js `create`) this module uses. */
export interface DynaliteStore {
  getTable(name: string, callback: Callback<TableDescription>): void;
  getItemDb(name: string): ItemDb;
}

interface DynaliteDb {
  create(options: object): DynaliteStore;
  createKey(item: AttributeMap, table: TableDescription): string;
  validateItem(item: AttributeMap, table: TableDescription): DynaliteError | null | undefined;
  validateKey(key: AttributeMap, table: TableDescription): DynaliteError | null | undefined;
  validateUpdates(
    updates: unknown,
    expressionUpdates: unknown,
    table: TableDescription,
  ): DynaliteError | null | undefined;
  checkConditional(data: OperationData, existing: AttributeMap | undefined): DynaliteError | null | undefined;
}

interface ActionValidation {
  types: object;
  custom: (data: OperationData, store: DynaliteStore) => string | undefined;
}

interface Validations {
  checkTypes(data: unknown, types: object): OperationData;
  checkValidations(
    data: OperationData,
    types: object,
    custom: ActionValidation['custom'],
    store: DynaliteStore,
  ): void;
}

type Action = (store: DynaliteStore, data: OperationData, callback: Callback<unknown>) => void;

interface OperationData {
  TableName: string;
  Item?: AttributeMap;
  Key?: AttributeMap;
  AttributeUpdates?: unknown;
  _updates?: unknown;
  [field: string]: unknown;
}

type Kind = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

interface Operation {
  kind: Kind;
  data: OperationData;
  table: TableDescription;
  key: string;
  existing: AttributeMap | undefined;
}

const require = createRequire(import.meta.url);
const db = require('dynalite/db') as DynaliteDb;
const validations = require('dynalite/validations') as Validations;
const actionFor: Record<Exclude<Kind, 'ConditionCheck'>, Action> = {
  Put: require('dynalite/actions/putItem') as Action,
  Update: require('dynalite/actions/updateItem') as Action,
  Delete: require('dynalite/actions/deleteItem') as Action,
};
// A ConditionCheck has the shape of a DeleteItem request (table, key, condition), so it is validated as one.
const validationFor: Record<Kind, ActionValidation> = {
  Put: require('dynalite/validations/putItem') as ActionValidation,
  Update: require('dynalite/validations/updateItem') as ActionValidation,
  Delete: require('dynalite/validations/deleteItem') as ActionValidation,
  ConditionCheck: require('dynalite/validations/deleteItem') as ActionValidation,
};
// dynalite signs its answers with the checksum package it depends on; resolve it from there.
const dynaliteRequire = createRequire(require.resolve('dynalite'));
const crc32Unsigned = (dynaliteRequire('buffer-crc32') as { unsigned(input: string): number }).unsigned;

const MAX_ACTIONS = 100;
const KINDS: Kind[] = ['Put', 'Update', 'Delete', 'ConditionCheck'];

/**
 * Creates a dynalite server that also answers TransactWriteItems.
 * @param options - dynalite's options (`path`, `createTableMs`, …)
 */
export function createTransactionalDynalite(options: object): Server {
  const factory = require('dynalite') as (options: object) => Server;
  // dynalite does not expose its store; catch it as dynalite creates it.
  const originalCreate = db.create;
  let store: DynaliteStore | undefined;
  db.create = (storeOptions: object) => (store = originalCreate(storeOptions));
  let server: Server;
  try {
    server = factory(options);
  } finally {
    db.create = originalCreate;
  }
  if (!store) throw new Error('dynalite did not create its store.');
  installTransactWriteItems(server, store);
  return server;
}

function installTransactWriteItems(server: Server, store: DynaliteStore): void {
  const [original] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!original) throw new Error('dynalite server has no request handler.');
  server.removeAllListeners('request');
  const gate = new Gate();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.method === 'POST' && target.endsWith('.TransactWriteItems')) {
      gate
        .exclusive(() => handleTransaction(store, req, res))
        .catch((error: unknown) => {
          if (res.headersSent) return;
          res.statusCode = 500;
          res.setHeader('Content-Type', 'application/x-amz-json-1.0');
          res.end(
            JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
              message: String(error),
            }),
          );
        });
      return;
    }
    void gate.shared().then((release) => {
      res.once('close', release);
      original(req, res);
    });
  });
}

/** Many requests at once, or one transaction alone. Transactions are served first. */
class Gate {
  private inFlight = 0;
  private exclusiveRun: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  async shared(): Promise<() => void> {
    while (this.exclusiveRun) await this.exclusiveRun;
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      if (this.inFlight === 0) this.drained?.();
    };
  }

  async exclusive(run: () => Promise<void>): Promise<void> {
    while (this.exclusiveRun) await this.exclusiveRun;
    let finish!: () => void;
    this.exclusiveRun = new Promise((done) => (finish = done));
    try {
      if (this.inFlight > 0) await new Promise<void>((done) => (this.drained = done));
      this.drained = undefined;
      await run();
    } finally {
      this.exclusiveRun = undefined;
      finish();
    }
  }
}

async function handleTransaction(
  store: DynaliteStore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const contentType = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim();
  const send = (status: number, body: object) => {
    const text = JSON.stringify(body);
    res.statusCode = status;
    res.setHeader('x-amzn-RequestId', randomBytes(39).toString('base64').toUpperCase().replace(/[+/]/g, '0'));
    res.setHeader('x-amz-crc32', crc32Unsigned(text));
    res.setHeader(
      'Content-Type',
      contentType === 'application/json' ? contentType : 'application/x-amz-json-1.0',
    );
    res.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
    res.end(text);
  };
  const validation = (message: string) =>
    send(400, { __type: 'com.amazon.coral.validate#ValidationException', message });

  let request: unknown;
  try {
    request = JSON.parse(await readBody(req));
  } catch {
    send(400, { __type: 'com.amazon.coral.service#SerializationException' });
    return;
  }
  const items = (request as { TransactItems?: unknown } | null)?.TransactItems;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ACTIONS) {
    validation(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: ` +
        `Member must have length between 1 and ${MAX_ACTIONS}`,
    );
    return;
  }

  const operations: Operation[] = [];
  const seen = new Set<string>();
  try {
    for (const item of items as Record<string, unknown>[]) {
      const kinds = KINDS.filter((kind) => item?.[kind] !== undefined);
      if (kinds.length !== 1) {
        validation('TransactItems can only contain one of Check, Put, Update or Delete');
        return;
      }
      const kind = kinds[0] as Kind;
      const { ReturnValuesOnConditionCheckFailure: _ignored, ...request } = item[kind] as Record<
        string,
        unknown
      >;
      const rules = validationFor[kind];
      const data = validations.checkTypes(request, rules.types);
      validations.checkValidations(data, rules.types, rules.custom, store);
      const table = await call<TableDescription>((done) => store.getTable(data.TableName, done));
      const keySource = kind === 'Put' ? data.Item : data.Key;
      const invalid =
        kind === 'Put'
          ? db.validateItem(data.Item ?? {}, table)
          : (db.validateKey(data.Key ?? {}, table) ??
            (kind === 'Update'
              ? db.validateUpdates(data.AttributeUpdates, data._updates, table)
              : undefined));
      if (invalid) throw invalid;
      const key = db.createKey(keySource ?? {}, table);
      const identity = `${data.TableName}\u0000${key}`;
      if (seen.has(identity)) {
        validation('Transaction request cannot include multiple operations on one item');
        return;
      }
      seen.add(identity);
      const existing = await call<AttributeMap | undefined>((done) =>
        store.getItemDb(data.TableName).get(key, (error, value) => {
          if (error && error.name !== 'NotFoundError') done(error);
          else done(null, error ? undefined : value);
        }),
      );
      operations.push({ kind, data, table, key, existing });
    }
  } catch (error) {
    const failure = error as DynaliteError;
    if (failure.statusCode && failure.body) {
      send(failure.statusCode, failure.body);
      return;
    }
    throw error;
  }

  const reasons = operations.map((operation) =>
    db.checkConditional(operation.data, operation.existing)
      ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }
      : { Code: 'None' },
  );
  if (reasons.some((reason) => reason.Code !== 'None')) {
    send(400, {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons ' +
        `[${reasons.map((reason) => reason.Code).join(', ')}]`,
      CancellationReasons: reasons,
    });
    return;
  }

  const applied: Operation[] = [];
  try {
    for (const operation of operations) {
      if (operation.kind === 'ConditionCheck') continue;
      const action = actionFor[operation.kind];
      await call((done) => action(store, operation.data, done));
      applied.push(operation);
    }
  } catch (error) {
    for (const operation of applied.reverse()) await undo(store, operation);
    const failure = error as DynaliteError;
    send(
      failure.statusCode ?? 500,
      failure.body ?? { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError' },
    );
    return;
  }
  send(200, {});
}

/** Puts back the item an applied operation replaced, or removes the one it created. */
async function undo(store: DynaliteStore, operation: Operation): Promise<void> {
  const { TableName } = operation.data;
  if (operation.existing) {
    await call((done) => actionFor.Put(store, { TableName, Item: operation.existing }, done));
    return;
  }
  const source = operation.data.Item ?? operation.data.Key ?? {};
  const Key: AttributeMap = {};
  for (const { AttributeName } of operation.table.KeySchema) {
    const value = source[AttributeName];
    if (value !== undefined) Key[AttributeName] = value;
  }
  await call((done) => actionFor.Delete(store, { TableName, Key }, done));
}

function call<T>(start: (done: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    start((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
