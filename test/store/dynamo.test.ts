import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, silentLogger } from '@receipts/core';
import { createStoreTable, DynamoTableStore } from '@receipts/store-dynamo';
import { startDynalite, type RunningDynalite } from '../../dev/src/dynalite';
import { describeTableStoreConformance } from './conformance';

const TABLE = 'receipts-conformance';
let dynalite: RunningDynalite;
let client: DynamoDBClient;

const clientFor = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

beforeAll(async () => {
  dynalite = await startDynalite();
  client = clientFor(dynalite.endpoint);
  await createStoreTable(client, TABLE);
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

describeTableStoreConformance(
  'DynamoTableStore on dynalite',
  (logger) => new DynamoTableStore({ client, tableName: TABLE, logger }),
);

describe('DynamoTableStore set-up', () => {
  it('creating the store table twice leaves it usable', async () => {
    await createStoreTable(client, TABLE);
    const store = new DynamoTableStore({ client, tableName: TABLE, logger: silentLogger });
    await store.createTable('Twice');
    expect(await store.listTables()).toContain('Twice');
  });

  it('says which DynamoDB table is missing', async () => {
    const store = new DynamoTableStore({ client, tableName: 'no-such-table', logger: silentLogger });
    await expect(store.listTables()).rejects.toThrow(ConfigurationError);
    await expect(store.listTables()).rejects.toThrow(/"no-such-table" does not exist/);
  });
});

describe('dynalite launcher', () => {
  it('keeps the data in its folder across a restart', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'dynalite-restart-'));
    try {
      const first = await startDynalite({ path: folder });
      const firstClient = clientFor(first.endpoint);
      await createStoreTable(firstClient, 'persisted');
      const store = new DynamoTableStore({
        client: firstClient,
        tableName: 'persisted',
        logger: silentLogger,
      });
      await store.createTable('Survivors');
      await store.createEntity('Survivors', { partitionKey: 'p', rowKey: 'r', note: 'still here' });
      firstClient.destroy();
      await first.stop();

      const second = await startDynalite({ path: folder });
      const secondClient = clientFor(second.endpoint);
      try {
        const again = new DynamoTableStore({
          client: secondClient,
          tableName: 'persisted',
          logger: silentLogger,
        });
        expect((await again.getEntity('Survivors', 'p', 'r'))?.note).toBe('still here');
      } finally {
        secondClient.destroy();
        await second.stop();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
