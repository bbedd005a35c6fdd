import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REQUIRED_TABLES, silentLogger, type Logger } from '@receipts/core';
import { AzureTableStore, resetTables, setupTables, SETUP_CHECK_PARTITION } from '@receipts/store-azure';
import { runCli, type CliIo } from '../../packages/store-azure/src/cli';
import { startAzurite, type RunningAzurite } from '../../dev/src/azurite';

let azurite: RunningAzurite;
let location: string;
let store: AzureTableStore;

beforeAll(async () => {
  location = await mkdtemp(join(tmpdir(), 'azurite-setup-'));
  azurite = await startAzurite({ location, silent: true });
  store = AzureTableStore.fromConnectionString(azurite.connectionString, { logger: silentLogger });
});

afterAll(async () => {
  await azurite?.stop();
  await rm(location, { recursive: true, force: true });
});

beforeEach(async () => {
  for (const table of await store.listTables()) await store.deleteTable(table);
});

function capture(): { logger: Logger; lines: { level: string; message: string; table?: unknown }[] } {
  const lines: { level: string; message: string; table?: unknown }[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push({ level, message, table: fields?.table });
  return {
    logger: { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') },
    lines,
  };
}

function cliIo(connectionString: string): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env: { AZURE_TABLES_CONNECTION_STRING: connectionString },
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    logger: silentLogger,
    stdout,
    stderr,
  };
}

describe('setupTables', () => {
  it('creates every required table, leaves no sample row behind and logs each outcome', async () => {
    const { logger, lines } = capture();
    const outcomes = await setupTables(store, logger);
    expect(outcomes.map((outcome) => outcome.table)).toEqual([...REQUIRED_TABLES]);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(await store.listTables()).toEqual([...REQUIRED_TABLES].sort());
    for (const table of REQUIRED_TABLES) {
      expect((await store.listEntities(table, { partitionKey: SETUP_CHECK_PARTITION })).items).toEqual([]);
      expect(lines.some((line) => line.level === 'info' && line.table === table)).toBe(true);
    }
    expect(lines.at(-1)?.message).toMatch(/Table setup finished/);
  });

  it('runs again over existing tables without harm', async () => {
    await setupTables(store, silentLogger);
    await store.createEntity('Users', { partitionKey: 'u1', rowKey: 'u1', user_email: 'a@example.com' });
    const outcomes = await setupTables(store, silentLogger);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect((await store.getEntity('Users', 'u1', 'u1'))?.user_email).toBe('a@example.com');
  });

  it('reports a table that cannot be set up and still sets up the others', async () => {
    const { logger, lines } = capture();
    const outcomes = await setupTables(store, logger, ['Receipts', 'not-a-table', 'Items']);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
    expect(outcomes[1]?.error).toMatch(/not valid/);
    expect(lines.some((line) => line.level === 'error' && line.table === 'not-a-table')).toBe(true);
  });
});

describe('resetTables', () => {
  it('deletes every table except Users, whose rows stay', async () => {
    await setupTables(store, silentLogger);
    await store.createTable('Extra');
    await store.createEntity('Users', { partitionKey: 'u1', rowKey: 'u1', user_name: 'Ann' });
    await store.createEntity('Receipts', { partitionKey: 'u1', rowKey: 'rc1' });
    const deleted = await resetTables(store, silentLogger);
    expect(deleted.sort()).toEqual([...REQUIRED_TABLES.filter((table) => table !== 'Users'), 'Extra'].sort());
    expect(await store.listTables()).toEqual(['Users']);
    expect((await store.getEntity('Users', 'u1', 'u1'))?.user_name).toBe('Ann');
  });
});

describe('tables command', () => {
  it('refuses to reset without --yes and deletes nothing', async () => {
    await setupTables(store, silentLogger);
    const io = cliIo(azurite.connectionString);
    expect(await runCli(['reset'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/Refusing to reset without --yes/);
    expect(io.stderr.join('\n')).toMatch(/npm run tables:reset -- --yes/);
    expect(await store.listTables()).toEqual([...REQUIRED_TABLES].sort());
  });

  it('sets up and resets with --yes', async () => {
    const io = cliIo(azurite.connectionString);
    expect(await runCli(['setup'], io)).toBe(0);
    expect(io.stdout).toContain('Receipts: ready');
    expect(await runCli(['reset', '--yes'], io)).toBe(0);
    expect(io.stdout.at(-1)).toMatch(/Users kept/);
    expect(await store.listTables()).toEqual(['Users']);
  });

  it('shows the usage for an unknown command or option', async () => {
    const io = cliIo(azurite.connectionString);
    expect(await runCli(['drop'], io)).toBe(2);
    expect(await runCli(['reset', '--force'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/Usage: tables setup/);
  });

  it('names the wrong part of a bad connection string, without a stack trace', async () => {
    const io = cliIo(
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=;EndpointSuffix=core.windows.net',
    );
    expect(await runCli(['setup'], io)).toBe(1);
    expect(io.stderr).toEqual([
      'Invalid AccountKey in the Azure Tables connection string: it is empty; copy the key from the storage account\'s "Access keys".',
    ]);
  });
});
