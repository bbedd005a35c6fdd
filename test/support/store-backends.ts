import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { REQUIRED_TABLES, type TableStore } from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { startAzurite } from '../../dev/src/azurite';
import { startDynalite } from '../../dev/src/dynalite';

/** A real table store started for a test file, with the app's tables made, and how to stop it. */
export interface StartedStore {
  store: TableStore;
  stop: () => Promise<void>;
}

/** One of the two table stores the suites that run "on both stores" are repeated over. */
export interface StoreBackend {
  name: string;
  /** The local stack's `storageBackend` for suites that start a whole stack (startTestStack). */
  storageBackend: 'azure' | 'dynamodb';
  /** Starts the store with the app's tables, for suites that need only a TableStore. */
  start: () => Promise<StartedStore>;
}

async function withAppTables(started: StartedStore): Promise<StartedStore> {
  for (const table of REQUIRED_TABLES) await started.store.createTable(table);
  return started;
}

/**
 * The two real table stores the suites that run "on both stores" start for themselves: Azurite
 * (Azure Tables) in a folder of its own, and dynalite (DynamoDB) with the app's single table.
 * Use `describe.each(STORE_BACKENDS)('… on $name', ({ storageBackend }) => …)`.
 */
export const STORE_BACKENDS: StoreBackend[] = [
  {
    name: 'Azure Tables (Azurite)',
    storageBackend: 'azure',
    start: async () => {
      const location = await mkdtemp(join(tmpdir(), 'receipts-azurite-'));
      const azurite = await startAzurite({ location, silent: true });
      return withAppTables({
        store: AzureTableStore.fromConnectionString(azurite.connectionString),
        stop: async () => {
          await azurite.stop();
          await rm(location, { recursive: true, force: true });
        },
      });
    },
  },
  {
    name: 'DynamoDB (dynalite)',
    storageBackend: 'dynamodb',
    start: async () => {
      const dynalite = await startDynalite();
      const client = new DynamoDBClient({
        endpoint: dynalite.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await createStoreTable(client, 'receipts');
      return withAppTables({
        store: new DynamoTableStore({ client, tableName: 'receipts' }),
        stop: async () => {
          client.destroy();
          await dynalite.stop();
        },
      });
    },
  },
];
