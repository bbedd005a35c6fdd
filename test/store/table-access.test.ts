/**
 * The per-table signatures of each access level, against Azurite: a function's store can do what its
 * level allows and the Table service itself refuses the rest, whatever the code asks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_TABLES, silentLogger, TABLES, TEST_PARTITION } from '@receipts/core';
import {
  AzureTableStore,
  createTableAccess,
  parseTableAccess,
  setupTables,
  type TableAccessLevel,
} from '@receipts/store-azure';
import { runCli } from '../../packages/store-azure/src/cli';
import { startAzurite, type RunningAzurite } from '../../dev/src/azurite';

let azurite: RunningAzurite;
let location: string;
let admin: AzureTableStore;
const inAnHour = () => new Date(Date.now() + 3_600_000);

/** A store as a function of the level sees it: built from the secret's text. */
const storeOf = (level: TableAccessLevel) =>
  AzureTableStore.fromTableAccess(
    parseTableAccess(JSON.stringify(createTableAccess(azurite.connectionString, level, inAnHour()))),
    { logger: silentLogger },
  );

const row = (partitionKey: string, rowKey: string) => ({ partitionKey, rowKey, note: 'x' });

beforeAll(async () => {
  location = await mkdtemp(join(tmpdir(), 'azurite-access-'));
  azurite = await startAzurite({ location, silent: true });
  admin = AzureTableStore.fromConnectionString(azurite.connectionString, { logger: silentLogger });
  await setupTables(admin, silentLogger);
  await admin.createEntity(TABLES.receipts, row('user-1', 'r1'));
  await admin.createEntity(TABLES.scanQueue, row('user-1', 'scan-1'));
});

afterAll(async () => {
  await azurite?.stop();
  await rm(location, { recursive: true, force: true });
});

describe('per-table signatures of an access level', () => {
  it('holds a signature per table and no account key', () => {
    const access = createTableAccess(azurite.connectionString, 'read', inAnHour());
    expect(Object.keys(access.tables).sort()).toEqual([...REQUIRED_TABLES].sort());
    const text = JSON.stringify(access);
    expect(text).not.toContain('AccountKey');
    expect(text).not.toContain(azurite.connectionString.match(/AccountKey=([^;]+)/)![1]);
    expect(access.tables[TABLES.receipts]).toMatch(/(^|&)tn=receipts(&|$)/i);
    expect(access.tables[TABLES.receipts]).toMatch(/(^|&)sp=r(&|$)/);
  });

  it('read: reads every table, and the service refuses a write', async () => {
    const store = storeOf('read');
    expect(await store.getEntity(TABLES.receipts, 'user-1', 'r1')).toMatchObject({ note: 'x' });
    await expect(store.createEntity(TABLES.receipts, row('user-1', 'r2'))).rejects.toThrow();
    await expect(store.deleteEntity(TABLES.receipts, 'user-1', 'r1')).rejects.toThrow();
    expect(await admin.getEntity(TABLES.receipts, 'user-1', 'r1')).not.toBeNull();
    expect(await admin.getEntity(TABLES.receipts, 'user-1', 'r2')).toBeNull();
  });

  it('settle: writes the user rows, queue entries and items the settle step writes, and no receipt', async () => {
    const store = storeOf('settle');
    await store.upsertEntity(TABLES.users, row('user-1', 'intent'), 'Replace');
    await store.deleteEntity(TABLES.users, 'user-1', 'intent');
    await store.upsertEntity(TABLES.scanQueue, { ...row('user-1', 'scan-1'), note: 'failed' }, 'Replace');
    await store.createEntity(TABLES.items, row('receipt-1', 'item-1'));
    await store.deleteEntity(TABLES.items, 'receipt-1', 'item-1');
    expect(await admin.getEntity(TABLES.scanQueue, 'user-1', 'scan-1')).toMatchObject({ note: 'failed' });
    expect(await store.getEntity(TABLES.receipts, 'user-1', 'r1')).toMatchObject({ note: 'x' });
    await expect(store.createEntity(TABLES.receipts, row('user-1', 'r4'))).rejects.toThrow();
    await expect(store.deleteEntity(TABLES.receipts, 'user-1', 'r1')).rejects.toThrow();
    expect(await admin.getEntity(TABLES.receipts, 'user-1', 'r1')).not.toBeNull();
  });

  it('readWrite: writes and deletes a user’s rows', async () => {
    const store = storeOf('readWrite');
    await store.createEntity(TABLES.receipts, row('user-1', 'r3'));
    await store.deleteEntity(TABLES.receipts, 'user-1', 'r3');
    expect(await admin.getEntity(TABLES.receipts, 'user-1', 'r3')).toBeNull();
    await expect(store.listTables()).rejects.toMatchObject({ code: 'NoTableAccess' });
  });

  it('queueKeeper: updates scan queue entries, reaches no other table and deletes nothing', async () => {
    const store = storeOf('queueKeeper');
    await store.upsertEntity(TABLES.scanQueue, { ...row('user-1', 'scan-1'), note: 'swept' }, 'Replace');
    expect(await admin.getEntity(TABLES.scanQueue, 'user-1', 'scan-1')).toMatchObject({ note: 'swept' });
    await expect(store.deleteEntity(TABLES.scanQueue, 'user-1', 'scan-1')).rejects.toThrow();
    expect(await admin.getEntity(TABLES.scanQueue, 'user-1', 'scan-1')).not.toBeNull();
    await expect(store.getEntity(TABLES.receipts, 'user-1', 'r1')).rejects.toMatchObject({
      code: 'NoTableAccess',
    });
  });

  it('storageTester: lists the tables and works in the test partition, with no update', async () => {
    const access = createTableAccess(azurite.connectionString, 'storageTester', inAnHour());
    // Azure checks the partition range of a signature; Azurite does not, so it is asserted on the token.
    for (const sas of Object.values(access.tables)) {
      const query = new URLSearchParams(sas);
      expect(query.get('spk')).toBe(TEST_PARTITION);
      expect(query.get('epk')).toBe(TEST_PARTITION);
      expect(query.get('sp')).toBe('rad');
    }
    const store = storeOf('storageTester');
    expect((await store.listTables()).sort()).toEqual([...REQUIRED_TABLES].sort());
    await store.createEntity(TABLES.receipts, row(TEST_PARTITION, 't1'));
    expect((await store.listEntities(TABLES.receipts, { partitionKey: TEST_PARTITION })).items).toHaveLength(
      1,
    );
    await expect(
      store.updateEntity(TABLES.receipts, { ...row(TEST_PARTITION, 't1'), note: 'y' }, 'Merge'),
    ).rejects.toThrow();
    await store.deleteEntity(TABLES.receipts, TEST_PARTITION, 't1');
    expect(await admin.getEntity(TABLES.receipts, TEST_PARTITION, 't1')).toBeNull();
  });

  it('refuses a connection string without the account key, and a secret that is not an access', () => {
    const sas = `TableEndpoint=http://127.0.0.1:${azurite.port}/devstoreaccount1;SharedAccessSignature=sv=1&sig=x`;
    expect(() => createTableAccess(sas, 'read', inAnHour())).toThrow(/account key/);
    expect(() => parseTableAccess('{"endpoint":"http://x"}')).toThrow(/npm run tables:access/);
  });

  it('npm run tables:access prints the JSON a function reads from its secret', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io = {
      env: { AZURE_TABLES_CONNECTION_STRING: azurite.connectionString },
      out: (line: string) => stdout.push(line),
      err: (line: string) => stderr.push(line),
    };
    expect(await runCli(['access', 'read', '--days', '30'], io)).toBe(0);
    const access = parseTableAccess(stdout.join('\n'));
    expect(access.level).toBe('read');
    expect(Date.parse(access.expiresOn) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const store = AzureTableStore.fromTableAccess(access, { logger: silentLogger });
    expect(await store.getEntity(TABLES.receipts, 'user-1', 'r1')).not.toBeNull();
    expect(await runCli(['access', 'everything'], io)).toBe(2);
    expect(stderr.join('\n')).toMatch(/Give an access level/);
  });
});
