import { beforeAll, describe, expect, it } from 'vitest';
import {
  and,
  ConflictError,
  eq,
  ge,
  gt,
  le,
  listAllEntities,
  lt,
  ne,
  NotFoundError,
  or,
  TransactionError,
  ValidationError,
  type Filter,
  type Logger,
  type TableEntity,
  type TableStore,
  type TransactionAction,
} from '@receipts/core';

/** A log line the store wrote. */
export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** Keys a user may well type: quotes (doubled in OData), a doubled quote, and non-ASCII text. */
const AWKWARD_KEYS = ["O'Brien", "''", 'Café ☕ 日本語 ñ'];

const sortKeys = (entities: { partitionKey: string; rowKey: string }[]) =>
  entities.map((entity) => `${entity.partitionKey}|${entity.rowKey}`);

/**
 * The behaviour every TableStore adapter must show (spec §5, §7, §8 and the port's TSDoc), run by
 * each adapter's test file against its real emulator.
 *
 * @param name - suite title
 * @param makeStore - builds the store under test; it must log through the given logger
 */
export function describeTableStoreConformance(
  name: string,
  makeStore: (logger: Logger) => TableStore | Promise<TableStore>,
): void {
  describe(name, () => {
    const logs: LogRecord[] = [];
    const logger: Logger = {
      debug: (message, fields) => logs.push({ level: 'debug', message, fields }),
      info: (message, fields) => logs.push({ level: 'info', message, fields }),
      warn: (message, fields) => logs.push({ level: 'warn', message, fields }),
      error: (message, fields) => logs.push({ level: 'error', message, fields }),
    };
    let store: TableStore;
    let counter = 0;
    const uniqueName = () => `Conf${Date.now().toString(36)}${(counter++).toString(36)}`;
    /** A new, empty table for one test. */
    const freshTable = async () => {
      const table = uniqueName();
      await store.createTable(table);
      return table;
    };

    beforeAll(async () => {
      store = await makeStore(logger);
    });

    describe('tables', () => {
      it('lists a created table, sorted among the others', async () => {
        const first = await freshTable();
        const second = await freshTable();
        const tables = await store.listTables();
        expect(tables).toContain(first);
        expect(tables).toContain(second);
        expect(tables).toEqual([...tables].sort());
      });

      it('creates a table twice without error and logs that it existed', async () => {
        const table = await freshTable();
        logs.length = 0;
        await expect(store.createTable(table)).resolves.toBeUndefined();
        expect(
          logs.some((log) => log.fields?.table === table && log.fields?.code === 'TableAlreadyExists'),
        ).toBe(true);
        expect((await store.listTables()).filter((t) => t === table)).toHaveLength(1);
      });

      it('deletes a missing table without error', async () => {
        await expect(store.deleteTable(uniqueName())).resolves.toBeUndefined();
      });

      it('deletes a table with its entities', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', n: 1 });
        await store.deleteTable(table);
        expect(await store.listTables()).not.toContain(table);
        await expect(store.createEntity(table, { partitionKey: 'p', rowKey: 'r2' })).rejects.toThrow(
          NotFoundError,
        );
        await store.createTable(table);
        expect(await store.getEntity(table, 'p', 'r')).toBeNull();
        expect((await store.listEntities(table)).items).toEqual([]);
      });

      it('refuses a malformed table name', async () => {
        await expect(store.createTable('no-dashes')).rejects.toThrow(ValidationError);
        await expect(store.createTable('1starts')).rejects.toThrow(ValidationError);
      });
    });

    describe('entities', () => {
      it('round-trips strings, numbers, booleans, dates and null with an etag and a timestamp', async () => {
        const table = await freshTable();
        const when = new Date('2024-03-05T10:20:30.456Z');
        const entity = {
          partitionKey: 'p',
          rowKey: 'r',
          text: 'Milk 1L',
          empty: '',
          integer: 3,
          price: 12.99,
          negative: -1.5,
          zero: 0,
          big: 9007199254740991,
          tiny: 0.0000001,
          huge: 1.5e21,
          paid: true,
          refunded: false,
          when,
          missing: null,
        };
        const { etag } = await store.createEntity(table, entity);
        expect(typeof etag).toBe('string');
        const read = await store.getEntity(table, 'p', 'r');
        expect(read).not.toBeNull();
        const { etag: readEtag, timestamp, ...rest } = read!;
        expect(rest).toEqual(entity);
        expect(read!.when).toBeInstanceOf(Date);
        expect(readEtag).toBe(etag);
        expect(Number.isNaN(Date.parse(timestamp))).toBe(false);
      });

      it('returns null for a missing entity', async () => {
        const table = await freshTable();
        expect(await store.getEntity(table, 'nobody', 'nothing')).toBeNull();
      });

      it('returns null for an entity of a missing table', async () => {
        expect(await store.getEntity(uniqueName(), 'p', 'r')).toBeNull();
      });

      it('refuses to create an entity that exists', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', v: 1 });
        await expect(store.createEntity(table, { partitionKey: 'p', rowKey: 'r', v: 2 })).rejects.toThrow(
          ConflictError,
        );
        expect((await store.getEntity(table, 'p', 'r'))?.v).toBe(1);
      });

      it('names the missing table when writing to it', async () => {
        const table = uniqueName();
        const write = store.createEntity(table, { partitionKey: 'p', rowKey: 'r' });
        await expect(write).rejects.toThrow(NotFoundError);
        await expect(write).rejects.toThrow(table);
        await expect(store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r' })).rejects.toThrow(
          NotFoundError,
        );
        await expect(store.updateEntity(table, { partitionKey: 'p', rowKey: 'r' })).rejects.toThrow(
          `Table "${table}" does not exist`,
        );
        await expect(store.deleteEntity(table, 'p', 'r')).rejects.toThrow(`Table "${table}" does not exist`);
      });

      it('names the null or undefined key on get, delete, update and upsert', async () => {
        const table = await freshTable();
        const missing = [null, undefined] as unknown as string[];
        for (const bad of missing) {
          await expect(store.getEntity(table, bad, 'r')).rejects.toThrow(
            /partitionKey must not be null or undefined/,
          );
          await expect(store.getEntity(table, 'p', bad)).rejects.toThrow(
            /rowKey must not be null or undefined/,
          );
          await expect(store.deleteEntity(table, bad, 'r')).rejects.toThrow(/partitionKey must not be null/);
          await expect(store.deleteEntity(table, 'p', bad)).rejects.toThrow(/rowKey must not be null/);
          const noPartition = { partitionKey: bad, rowKey: 'r' } as TableEntity;
          const noRow = { partitionKey: 'p', rowKey: bad } as TableEntity;
          await expect(store.updateEntity(table, noPartition)).rejects.toThrow(
            /partitionKey must not be null/,
          );
          await expect(store.updateEntity(table, noRow)).rejects.toThrow(/rowKey must not be null/);
          await expect(store.upsertEntity(table, noPartition)).rejects.toThrow(
            /partitionKey must not be null/,
          );
          await expect(store.upsertEntity(table, noRow)).rejects.toThrow(/rowKey must not be null/);
        }
      });

      it('refuses the key characters Azure forbids, on every backend alike', async () => {
        const table = await freshTable();
        for (const bad of ['a/b', 'a\\b', 'a#b', 'a?b', 'a\u0001b', 'a\u007fb', 'a\nb']) {
          await expect(store.createEntity(table, { partitionKey: bad, rowKey: 'r' })).rejects.toThrow(
            ValidationError,
          );
          await expect(store.createEntity(table, { partitionKey: 'p', rowKey: bad })).rejects.toThrow(
            ValidationError,
          );
          await expect(store.getEntity(table, 'p', bad)).rejects.toThrow(ValidationError);
        }
        expect((await store.listEntities(table)).items).toEqual([]);
      });

      it('refuses property names and values no store can keep', async () => {
        const table = await freshTable();
        const write = (extra: Record<string, unknown>) =>
          store.createEntity(table, { partitionKey: 'p', rowKey: 'r', ...extra } as TableEntity);
        await expect(write({ 'bad-name': 1 })).rejects.toThrow(ValidationError);
        await expect(write({ '1st': 1 })).rejects.toThrow(ValidationError);
        await expect(write({ PartitionKey: 'x' })).rejects.toThrow(ValidationError);
        await expect(write({ nested: { a: 1 } })).rejects.toThrow(/Unknown EDM type/);
        await expect(write({ count: Number.NaN })).rejects.toThrow(ValidationError);
        await expect(write({ when: new Date('not a date') })).rejects.toThrow(ValidationError);
        expect(await store.getEntity(table, 'p', 'r')).toBeNull();
      });

      it('keeps an entity with many properties', async () => {
        const table = await freshTable();
        const entity: TableEntity = { partitionKey: 'p', rowKey: 'wide' };
        for (let i = 0; i < 250; i++)
          entity[`prop_${i}`] = i % 3 === 0 ? `value ${i}` : i % 3 === 1 ? i * 1.5 : i % 2 === 0;
        await store.createEntity(table, entity);
        await store.updateEntity(table, { partitionKey: 'p', rowKey: 'wide', prop_7: 'changed' }, 'Merge');
        const read = await store.getEntity(table, 'p', 'wide');
        expect(Object.keys(read!).filter((key) => key.startsWith('prop_'))).toHaveLength(250);
        expect(read!.prop_0).toBe('value 0');
        expect(read!.prop_1).toBe(1.5);
        expect(read!.prop_7).toBe('changed');
        expect(read!.prop_247).toBe(370.5);
        const tooMany: TableEntity = { partitionKey: 'p', rowKey: 'too-wide' };
        for (let i = 0; i < 253; i++) tooMany[`prop_${i}`] = i;
        await expect(store.createEntity(table, tooMany)).rejects.toThrow(ValidationError);
      });
    });

    describe('batch reads', () => {
      it('reads entities of several partitions in the order asked, null for the missing ones', async () => {
        const table = await freshTable();
        const { etag } = await store.createEntity(table, { partitionKey: 'a', rowKey: '1', v: 1 });
        await store.createEntity(table, { partitionKey: 'b', rowKey: '2', v: 2, when: new Date(0) });
        await store.createEntity(table, { partitionKey: AWKWARD_KEYS[0]!, rowKey: AWKWARD_KEYS[2]!, v: 3 });
        const read = await store.getEntities(table, [
          { partitionKey: 'b', rowKey: '2' },
          { partitionKey: 'a', rowKey: 'missing' },
          { partitionKey: AWKWARD_KEYS[0]!, rowKey: AWKWARD_KEYS[2]! },
          { partitionKey: 'a', rowKey: '1' },
          { partitionKey: 'b', rowKey: '2' },
        ]);
        expect(read.map((e) => e?.v ?? null)).toEqual([2, null, 3, 1, 2]);
        expect(read[0]!.when).toEqual(new Date(0));
        // The etag read is the one a conditional write needs.
        expect(read[3]!.etag).toBe(etag);
        await store.updateEntity(table, { partitionKey: 'a', rowKey: '1', v: 10 }, 'Merge', {
          etag: read[3]!.etag,
        });
        expect((await store.getEntities(table, [{ partitionKey: 'a', rowKey: '1' }]))[0]?.v).toBe(10);
      });

      it('reads more than 100 entities at once, and nothing for no keys or a missing table', async () => {
        const table = await freshTable();
        const keys = Array.from({ length: 130 }, (_, i) => ({ partitionKey: `p${i % 3}`, rowKey: `r${i}` }));
        for (const p of ['p0', 'p1', 'p2']) {
          const own = keys.filter((k) => k.partitionKey === p && Number(k.rowKey.slice(1)) % 2 === 0);
          await store.submitTransaction(
            table,
            own.map((k): TransactionAction => ['create', { ...k, n: Number(k.rowKey.slice(1)) }]),
          );
        }
        const read = await store.getEntities(table, keys);
        expect(read).toHaveLength(130);
        expect(read.map((e) => e?.n ?? null)).toEqual(keys.map((_, i) => (i % 2 === 0 ? i : null)));
        expect(await store.getEntities(table, [])).toEqual([]);
        expect(await store.getEntities(uniqueName(), [{ partitionKey: 'p', rowKey: 'r' }])).toEqual([null]);
      });

      it('refuses a malformed key before any call, naming its position', async () => {
        const table = await freshTable();
        const bad = [
          { partitionKey: 'p', rowKey: 'r' },
          { partitionKey: 'p', rowKey: null },
        ] as never;
        await expect(store.getEntities(table, bad)).rejects.toThrow(ValidationError);
        await expect(store.getEntities(table, bad)).rejects.toThrow(
          /keys\[1\]: rowKey must not be null or undefined/,
        );
        await expect(store.getEntities(table, [{ partitionKey: 'a/b', rowKey: 'r' }])).rejects.toThrow(
          /keys\[0\]/,
        );
      });
    });

    describe('keys with quotes and non-ASCII text', () => {
      it('create and get', async () => {
        const table = await freshTable();
        for (const partitionKey of AWKWARD_KEYS) {
          for (const rowKey of AWKWARD_KEYS) {
            await store.createEntity(table, { partitionKey, rowKey, label: `${partitionKey}/${rowKey}` });
          }
        }
        for (const partitionKey of AWKWARD_KEYS) {
          for (const rowKey of AWKWARD_KEYS) {
            const read = await store.getEntity(table, partitionKey, rowKey);
            expect(read).toMatchObject({ partitionKey, rowKey, label: `${partitionKey}/${rowKey}` });
          }
        }
      });

      it('merge and replace', async () => {
        const table = await freshTable();
        for (const key of AWKWARD_KEYS) {
          await store.createEntity(table, { partitionKey: key, rowKey: key, a: 'a', b: "it's" });
          await store.updateEntity(table, { partitionKey: key, rowKey: key, b: "O''Hara" }, 'Merge');
          expect(await store.getEntity(table, key, key)).toMatchObject({ a: 'a', b: "O''Hara" });
          await store.updateEntity(table, { partitionKey: key, rowKey: key, c: 'ç' }, 'Replace');
          const read = await store.getEntity(table, key, key);
          expect(read).toMatchObject({ c: 'ç' });
          expect(read).not.toHaveProperty('a');
        }
      });

      it('delete', async () => {
        const table = await freshTable();
        for (const key of AWKWARD_KEYS) {
          await store.createEntity(table, { partitionKey: key, rowKey: key });
          await store.deleteEntity(table, key, key);
          expect(await store.getEntity(table, key, key)).toBeNull();
        }
      });

      it('filter and partition listing', async () => {
        const table = await freshTable();
        for (const key of AWKWARD_KEYS) {
          await store.createEntity(table, { partitionKey: key, rowKey: 'r', name: key });
          await store.createEntity(table, { partitionKey: key, rowKey: 's', name: 'other' });
        }
        for (const key of AWKWARD_KEYS) {
          const byKey = await store.listEntities(table, { filter: eq('partitionKey', key) });
          expect(byKey.items.map((e) => e.partitionKey)).toEqual([key, key]);
          const byValue = await store.listEntities(table, { filter: eq('name', key) });
          expect(sortKeys(byValue.items)).toEqual([`${key}|r`]);
          const partition = await store.listEntities(table, { partitionKey: key });
          expect(partition.items.map((e) => e.rowKey)).toEqual(['r', 's']);
        }
      });

      it('transaction', async () => {
        const table = await freshTable();
        for (const key of AWKWARD_KEYS) {
          await store.submitTransaction(table, [
            ['create', { partitionKey: key, rowKey: "a'1", v: 1 }],
            ['create', { partitionKey: key, rowKey: 'b☕', v: 2 }],
          ]);
          await store.submitTransaction(table, [
            ['update', { partitionKey: key, rowKey: "a'1", v: 10 }, 'Merge'],
            ['delete', { partitionKey: key, rowKey: 'b☕' }],
          ]);
          const items = (await store.listEntities(table, { partitionKey: key })).items;
          expect(items.map((e) => [e.rowKey, e.v])).toEqual([["a'1", 10]]);
        }
      });
    });

    describe('updates', () => {
      it('Merge keeps properties absent from the update', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', a: 1, b: 'two' });
        await store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', b: 'deux', c: true }, 'Merge');
        expect(await store.getEntity(table, 'p', 'r')).toMatchObject({ a: 1, b: 'deux', c: true });
      });

      it('Replace drops properties absent from the update', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', a: 1, b: 'two' });
        await store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', c: true }, 'Replace');
        const read = await store.getEntity(table, 'p', 'r');
        expect(read).toMatchObject({ c: true });
        expect(read).not.toHaveProperty('a');
        expect(read).not.toHaveProperty('b');
      });

      it('Merge with null sets the property to null', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', total: 9.5, note: 'x' });
        await store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', total: null }, 'Merge');
        const read = await store.getEntity(table, 'p', 'r');
        expect(read?.total).toBeNull();
        expect(read?.note).toBe('x');
        await store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', total: 4 }, 'Merge');
        expect((await store.getEntity(table, 'p', 'r'))?.total).toBe(4);
      });

      it('update of a missing entity is NotFoundError', async () => {
        const table = await freshTable();
        await expect(store.updateEntity(table, { partitionKey: 'p', rowKey: 'none', a: 1 })).rejects.toThrow(
          NotFoundError,
        );
        await expect(
          store.updateEntity(table, { partitionKey: 'p', rowKey: 'none', a: 1 }, 'Replace'),
        ).rejects.toThrow(NotFoundError);
        expect(await store.getEntity(table, 'p', 'none')).toBeNull();
      });

      it('a stale etag is a ConflictError; the current one succeeds with a new etag', async () => {
        const table = await freshTable();
        const first = await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', v: 1 });
        const second = await store.updateEntity(
          table,
          { partitionKey: 'p', rowKey: 'r', v: 2 },
          'Merge',
          first,
        );
        expect(second.etag).not.toBe(first.etag);
        await expect(
          store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', v: 3 }, 'Merge', first),
        ).rejects.toThrow(ConflictError);
        await expect(
          store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', v: 3 }, 'Replace', first),
        ).rejects.toThrow(ConflictError);
        expect((await store.getEntity(table, 'p', 'r'))?.v).toBe(2);
        expect((await store.getEntity(table, 'p', 'r'))?.etag).toBe(second.etag);
      });

      it("refuses an update mode other than Merge or Replace with 'Unexpected value for update mode'", async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r' });
        const badMode = 'merge' as unknown as 'Merge';
        await expect(store.updateEntity(table, { partitionKey: 'p', rowKey: 'r' }, badMode)).rejects.toThrow(
          'Unexpected value for update mode',
        );
        await expect(store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r' }, badMode)).rejects.toThrow(
          'Unexpected value for update mode',
        );
      });

      it('upsert inserts, then merges or replaces', async () => {
        const table = await freshTable();
        await store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r', a: 1, b: 2 });
        expect(await store.getEntity(table, 'p', 'r')).toMatchObject({ a: 1, b: 2 });
        await store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r', b: 3 }, 'Merge');
        expect(await store.getEntity(table, 'p', 'r')).toMatchObject({ a: 1, b: 3 });
        await store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r', c: 4 }, 'Replace');
        const read = await store.getEntity(table, 'p', 'r');
        expect(read).toMatchObject({ c: 4 });
        expect(read).not.toHaveProperty('a');
      });

      it('upsert with a stale etag is a ConflictError', async () => {
        const table = await freshTable();
        const first = await store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r', v: 1 });
        const second = await store.upsertEntity(
          table,
          { partitionKey: 'p', rowKey: 'r', v: 2 },
          'Merge',
          first,
        );
        await expect(
          store.upsertEntity(table, { partitionKey: 'p', rowKey: 'r', v: 3 }, 'Replace', first),
        ).rejects.toThrow(ConflictError);
        await expect(
          store.upsertEntity(table, { partitionKey: 'p', rowKey: 'absent', v: 3 }, 'Merge', first),
        ).rejects.toThrow(ConflictError);
        expect(await store.getEntity(table, 'p', 'r')).toMatchObject({ v: 2, etag: second.etag });
        expect(await store.getEntity(table, 'p', 'absent')).toBeNull();
      });
    });

    describe('deletes', () => {
      it('a stale etag is a ConflictError and keeps the entity; the current one deletes', async () => {
        const table = await freshTable();
        const first = await store.createEntity(table, { partitionKey: 'p', rowKey: 'r', v: 1 });
        const second = await store.updateEntity(table, { partitionKey: 'p', rowKey: 'r', v: 2 });
        await expect(store.deleteEntity(table, 'p', 'r', first)).rejects.toThrow(ConflictError);
        expect(await store.getEntity(table, 'p', 'r')).not.toBeNull();
        await store.deleteEntity(table, 'p', 'r', second);
        expect(await store.getEntity(table, 'p', 'r')).toBeNull();
      });

      it('deleting a missing entity is NotFoundError', async () => {
        const table = await freshTable();
        await expect(store.deleteEntity(table, 'p', 'none')).rejects.toThrow(NotFoundError);
      });
    });

    describe('listing', () => {
      const seed = async (table: string) => {
        const keys = [
          ['b', '2'],
          ['a', '2'],
          ['b', '1'],
          ['a', '1'],
          ['a b', '1'],
          ['c', '1'],
          ['ab', '9'],
        ];
        for (const [partitionKey, rowKey] of keys) {
          await store.createEntity(table, { partitionKey: partitionKey!, rowKey: rowKey! });
        }
      };

      it('lists a whole table in (partitionKey, rowKey) order', async () => {
        const table = await freshTable();
        await seed(table);
        const page = await store.listEntities(table);
        expect(sortKeys(page.items)).toEqual(['a|1', 'a|2', 'a b|1', 'ab|9', 'b|1', 'b|2', 'c|1']);
        expect(page.continuationToken).toBeUndefined();
      });

      it('lists one partition only', async () => {
        const table = await freshTable();
        await seed(table);
        const page = await store.listEntities(table, { partitionKey: 'a' });
        expect(sortKeys(page.items)).toEqual(['a|1', 'a|2']);
      });

      it('lists the partitions that start with a prefix', async () => {
        const table = await freshTable();
        await seed(table);
        const page = await store.listEntities(table, { partitionKeyPrefix: 'a' });
        expect(sortKeys(page.items)).toEqual(['a|1', 'a|2', 'a b|1', 'ab|9']);
        const narrower = await store.listEntities(table, {
          partitionKeyPrefix: 'ab',
          filter: eq('rowKey', '9'),
        });
        expect(sortKeys(narrower.items)).toEqual(['ab|9']);
        expect((await store.listEntities(table, { partitionKeyPrefix: 'zz' })).items).toEqual([]);
      });

      it('pages 101 entities 50 at a time with a continuation token', async () => {
        const table = await freshTable();
        const expected: string[] = [];
        for (let i = 0; i < 101; i++) {
          const rowKey = String(i).padStart(3, '0');
          await store.createEntity(table, { partitionKey: 'page', rowKey, i });
          expected.push(`page|${rowKey}`);
        }
        for (const scope of [{ partitionKey: 'page' }, {}]) {
          const first = await store.listEntities(table, { ...scope, pageSize: 50 });
          expect(first.items).toHaveLength(50);
          expect(typeof first.continuationToken).toBe('string');
          const second = await store.listEntities(table, {
            ...scope,
            pageSize: 50,
            continuationToken: first.continuationToken,
          });
          expect(second.items).toHaveLength(50);
          const third = await store.listEntities(table, {
            ...scope,
            pageSize: 50,
            continuationToken: second.continuationToken,
          });
          expect(third.items).toHaveLength(1);
          expect(third.continuationToken).toBeUndefined();
          expect(sortKeys([...first.items, ...second.items, ...third.items])).toEqual(expected);
        }
        expect(await listAllEntities(store, table, { pageSize: 7 })).toHaveLength(101);
      });

      it('fills each page when a filter skips entities', async () => {
        const table = await freshTable();
        for (let i = 0; i < 120; i++) {
          await store.createEntity(table, {
            partitionKey: 'f',
            rowKey: String(i).padStart(3, '0'),
            even: i % 2 === 0,
          });
        }
        const sizes: number[] = [];
        let continuationToken: string | undefined;
        const seen: string[] = [];
        do {
          const page = await store.listEntities(table, {
            partitionKey: 'f',
            filter: eq('even', true),
            pageSize: 25,
            continuationToken,
          });
          sizes.push(page.items.length);
          seen.push(...page.items.map((e) => e.rowKey));
          continuationToken = page.continuationToken;
        } while (continuationToken);
        expect(sizes.slice(0, 2)).toEqual([25, 25]);
        expect(seen).toHaveLength(60);
        expect(new Set(seen).size).toBe(60);
      });

      it('refuses a forged continuation token and a page size out of range', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'p', rowKey: 'r' });
        await expect(store.listEntities(table, { continuationToken: 'not a token' })).rejects.toThrow(
          ValidationError,
        );
        await expect(store.listEntities(table, { pageSize: 0 })).rejects.toThrow(ValidationError);
        await expect(store.listEntities(table, { pageSize: 1001 })).rejects.toThrow(ValidationError);
        await expect(store.listEntities(table, { pageSize: 2.5 })).rejects.toThrow(ValidationError);
      });

      it('listing a missing table is NotFoundError naming it', async () => {
        const table = uniqueName();
        await expect(store.listEntities(table)).rejects.toThrow(NotFoundError);
        await expect(store.listEntities(table, { partitionKey: 'p' })).rejects.toThrow(table);
      });
    });

    describe('filters', () => {
      const people = [
        {
          rowKey: '1',
          name: 'Aldi',
          total: 10,
          rate: 0.21,
          paid: true,
          day: new Date('2024-01-01T00:00:00Z'),
        },
        {
          rowKey: '2',
          name: 'Lidl',
          total: 25.5,
          rate: 0.06,
          paid: false,
          day: new Date('2024-02-15T12:00:00Z'),
        },
        {
          rowKey: '3',
          name: "Lidl's",
          total: 3,
          rate: 0.21,
          paid: true,
          day: new Date('2024-03-31T23:59:59.999Z'),
        },
        {
          rowKey: '4',
          name: 'Colruyt',
          total: -2,
          rate: 0,
          paid: false,
          day: new Date('2023-12-31T23:59:59Z'),
        },
      ];
      const run = async (table: string, filter: Filter) =>
        (await store.listEntities(table, { filter })).items.map((e) => e.rowKey).sort();
      const seeded = async () => {
        const table = await freshTable();
        for (const person of people) await store.createEntity(table, { partitionKey: 'f', ...person });
        return table;
      };

      it('compares strings with each operator', async () => {
        const table = await seeded();
        expect(await run(table, eq('name', 'Lidl'))).toEqual(['2']);
        expect(await run(table, ne('name', 'Lidl'))).toEqual(['1', '3', '4']);
        expect(await run(table, gt('name', 'Lidl'))).toEqual(['3']);
        expect(await run(table, ge('name', 'Lidl'))).toEqual(['2', '3']);
        expect(await run(table, lt('name', 'Colruyt'))).toEqual(['1']);
        expect(await run(table, le('name', 'Colruyt'))).toEqual(['1', '4']);
        expect(await run(table, eq('name', "Lidl's"))).toEqual(['3']);
      });

      it('compares numbers with each operator, whole and fractional alike', async () => {
        const table = await seeded();
        expect(await run(table, eq('total', 10))).toEqual(['1']);
        expect(await run(table, eq('total', 25.5))).toEqual(['2']);
        expect(await run(table, ne('total', 10))).toEqual(['2', '3', '4']);
        expect(await run(table, gt('total', 3))).toEqual(['1', '2']);
        expect(await run(table, ge('total', 3))).toEqual(['1', '2', '3']);
        expect(await run(table, lt('total', 0))).toEqual(['4']);
        expect(await run(table, le('rate', 0.06))).toEqual(['2', '4']);
        expect(await run(table, gt('total', 2.9999))).toEqual(['1', '2', '3']);
      });

      it('compares booleans', async () => {
        const table = await seeded();
        expect(await run(table, eq('paid', true))).toEqual(['1', '3']);
        expect(await run(table, eq('paid', false))).toEqual(['2', '4']);
        expect(await run(table, ne('paid', true))).toEqual(['2', '4']);
      });

      it('compares dates with each operator', async () => {
        const table = await seeded();
        const feb = new Date('2024-02-15T12:00:00Z');
        expect(await run(table, eq('day', feb))).toEqual(['2']);
        expect(await run(table, ne('day', feb))).toEqual(['1', '3', '4']);
        expect(await run(table, gt('day', feb))).toEqual(['3']);
        expect(await run(table, ge('day', feb))).toEqual(['2', '3']);
        expect(await run(table, lt('day', new Date('2024-01-01T00:00:00Z')))).toEqual(['4']);
        expect(await run(table, le('day', new Date('2024-01-01T00:00:00Z')))).toEqual(['1', '4']);
      });

      it('combines conditions with and / or, nested', async () => {
        const table = await seeded();
        expect(await run(table, and(eq('paid', true), gt('total', 5)))).toEqual(['1']);
        expect(await run(table, or(eq('name', 'Colruyt'), eq('rowKey', '1')))).toEqual(['1', '4']);
        expect(
          await run(
            table,
            or(
              and(eq('rate', 0.21), lt('total', 5)),
              and(eq('paid', false), ge('day', new Date('2024-01-01'))),
            ),
          ),
        ).toEqual(['2', '3']);
        expect(await run(table, and(eq('partitionKey', 'f'), ge('rowKey', '3')))).toEqual(['3', '4']);
      });

      it('never matches a missing, null or differently typed property, except with ne', async () => {
        const table = await seeded();
        await store.createEntity(table, { partitionKey: 'f', rowKey: '5', name: null });
        await store.createEntity(table, { partitionKey: 'f', rowKey: '6', total: '10' });
        expect(await run(table, eq('total', 10))).toEqual(['1']);
        expect(await run(table, eq('total', '10'))).toEqual(['6']);
        expect(await run(table, gt('name', 'A'))).toEqual(['1', '2', '3', '4']);
        expect(await run(table, ne('name', 'Aldi'))).toEqual(['2', '3', '4', '5', '6']);
        expect(await run(table, ne('day', new Date('2024-01-01T00:00:00Z')))).toEqual([
          '2',
          '3',
          '4',
          '5',
          '6',
        ]);
      });

      it('refuses malformed filters', async () => {
        const table = await seeded();
        await expect(run(table, and())).rejects.toThrow(ValidationError);
        await expect(run(table, eq('etag', 'x'))).rejects.toThrow(ValidationError);
        await expect(run(table, eq('bad name', 'x'))).rejects.toThrow(ValidationError);
        await expect(run(table, eq('total', Number.NaN))).rejects.toThrow(ValidationError);
      });
    });

    describe('transactions', () => {
      it('applies create, update, upsert and delete together', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'receipt', rowKey: 'keep', a: 1, b: 2 });
        await store.createEntity(table, { partitionKey: 'receipt', rowKey: 'drop' });
        await store.createEntity(table, { partitionKey: 'receipt', rowKey: 'swap', a: 1 });
        await store.submitTransaction(table, [
          ['create', { partitionKey: 'receipt', rowKey: 'new', n: 1 }],
          ['update', { partitionKey: 'receipt', rowKey: 'keep', b: 3 }, 'Merge'],
          ['upsert', { partitionKey: 'receipt', rowKey: 'swap', c: 5 }, 'Replace'],
          ['upsert', { partitionKey: 'receipt', rowKey: 'born', d: 6 }],
          ['delete', { partitionKey: 'receipt', rowKey: 'drop' }],
        ]);
        const items = await listAllEntities(store, table, { partitionKey: 'receipt' });
        const byKey = Object.fromEntries(
          items.map(({ etag: _e, timestamp: _t, ...rest }) => [rest.rowKey, rest]),
        );
        expect(Object.keys(byKey).sort()).toEqual(['born', 'keep', 'new', 'swap']);
        expect(byKey.keep).toMatchObject({ a: 1, b: 3 });
        expect(byKey.swap).toEqual({ partitionKey: 'receipt', rowKey: 'swap', c: 5 });
        expect(byKey.born).toMatchObject({ d: 6 });
      });

      it('rolls everything back when one operation fails, naming it', async () => {
        const table = await freshTable();
        await store.createEntity(table, { partitionKey: 'r', rowKey: 'exists', v: 1 });
        await store.createEntity(table, { partitionKey: 'r', rowKey: 'other', v: 1 });
        const failure = await store
          .submitTransaction(table, [
            ['create', { partitionKey: 'r', rowKey: 'a' }],
            ['update', { partitionKey: 'r', rowKey: 'other', v: 2 }],
            ['create', { partitionKey: 'r', rowKey: 'exists' }],
          ])
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(TransactionError);
        const error = failure as TransactionError;
        expect(error.failedIndex).toBe(2);
        expect(error.status).toBe(409);
        expect(error.code).toBe('EntityAlreadyExists');
        expect(error.message).toMatch(/already exists/);
        expect(await store.getEntity(table, 'r', 'a')).toBeNull();
        expect((await store.getEntity(table, 'r', 'other'))?.v).toBe(1);
        expect((await store.getEntity(table, 'r', 'exists'))?.v).toBe(1);
      });

      it('fails on an update of a missing entity or a stale etag, applying nothing', async () => {
        const table = await freshTable();
        const { etag } = await store.createEntity(table, { partitionKey: 'r', rowKey: 'x', v: 1 });
        await store.updateEntity(table, { partitionKey: 'r', rowKey: 'x', v: 2 });
        const missing = (await store
          .submitTransaction(table, [
            ['create', { partitionKey: 'r', rowKey: 'y' }],
            ['update', { partitionKey: 'r', rowKey: 'ghost', v: 1 }],
          ])
          .catch((error: unknown) => error)) as TransactionError;
        expect(missing).toBeInstanceOf(TransactionError);
        expect(missing).toMatchObject({ status: 404, failedIndex: 1 });
        const stale = (await store
          .submitTransaction(table, [
            ['update', { partitionKey: 'r', rowKey: 'x', v: 3 }, 'Replace', { etag }],
            ['create', { partitionKey: 'r', rowKey: 'y' }],
          ])
          .catch((error: unknown) => error)) as TransactionError;
        expect(stale).toBeInstanceOf(TransactionError);
        expect(stale).toMatchObject({ status: 412, failedIndex: 0 });
        expect(await store.getEntity(table, 'r', 'y')).toBeNull();
        expect((await store.getEntity(table, 'r', 'x'))?.v).toBe(2);
      });

      it('refuses operations on more than one partitionKey before any call', async () => {
        const table = await freshTable();
        await expect(
          store.submitTransaction(table, [
            ['create', { partitionKey: 'a', rowKey: '1' }],
            ['create', { partitionKey: 'b', rowKey: '1' }],
          ]),
        ).rejects.toThrow(/same partitionKey/);
        expect((await store.listEntities(table)).items).toEqual([]);
      });

      it('refuses more than 100 operations and accepts exactly 100', async () => {
        const table = await freshTable();
        const creates = (count: number, prefix: string): TransactionAction[] =>
          Array.from({ length: count }, (_, i) => [
            'create',
            { partitionKey: 'big', rowKey: `${prefix}${i}`, i },
          ]);
        await expect(store.submitTransaction(table, creates(101, 'x'))).rejects.toThrow(ValidationError);
        expect((await store.listEntities(table)).items).toEqual([]);
        await store.submitTransaction(table, creates(100, 'y'));
        expect((await store.listEntities(table, { partitionKey: 'big' })).items).toHaveLength(100);
      });

      it('refuses an empty transaction and one that touches a row twice', async () => {
        const table = await freshTable();
        await expect(store.submitTransaction(table, [])).rejects.toThrow(ValidationError);
        await expect(
          store.submitTransaction(table, [
            ['create', { partitionKey: 'p', rowKey: '1' }],
            ['upsert', { partitionKey: 'p', rowKey: '1', v: 2 }],
          ]),
        ).rejects.toThrow(ValidationError);
        expect(await store.getEntity(table, 'p', '1')).toBeNull();
      });

      it('a transaction on a missing table is NotFoundError', async () => {
        await expect(
          store.submitTransaction(uniqueName(), [['create', { partitionKey: 'p', rowKey: '1' }]]),
        ).rejects.toThrow(NotFoundError);
      });
    });
  });
}
