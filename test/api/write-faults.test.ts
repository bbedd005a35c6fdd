import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { REQUIRED_TABLES, type TableStore } from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { DynamoTableStore, createStoreTable } from '@receipts/store-dynamo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite } from '../../dev/src/azurite';
import { startDynalite } from '../../dev/src/dynalite';
import { WRITE_USE_CASES, sweepFaults } from '../support/write-faults';

/**
 * Fault injection on both real table stores: every write use case is run with its n-th store or
 * blob call failing, for every n (before the call, and for calls that write also after it, as when
 * the answer of a write that went through is lost). After the failure and one retry by the person,
 * and a read once the write's lease is over, the reports equal a rebuild from the rows, no row or
 * blob is left of a receipt that does not exist, and every receipt and merchant can be edited with
 * the etag the reports give.
 *
 * `npm test` fails calls spread evenly over each use case (six of them, the first and the
 * last included); `npm run test:faults` fails every call in turn, as the in-memory sweep of
 * packages/core does on every run.
 */
const sample = process.env.WRITE_FAULTS === 'all' ? undefined : 6;
const backends: { name: string; start: () => Promise<{ store: TableStore; stop: () => Promise<void> }> }[] = [
  {
    name: 'Azure Tables (Azurite)',
    start: async () => {
      const location = await mkdtemp(join(tmpdir(), 'receipts-faults-azurite-'));
      const azurite = await startAzurite({ location, silent: true });
      return {
        store: AzureTableStore.fromConnectionString(azurite.connectionString),
        stop: async () => {
          await azurite.stop();
          await rm(location, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'DynamoDB (dynalite)',
    start: async () => {
      const dynalite = await startDynalite();
      const client = new DynamoDBClient({
        endpoint: dynalite.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await createStoreTable(client, 'receipts');
      return {
        store: new DynamoTableStore({ client, tableName: 'receipts' }),
        stop: async () => {
          client.destroy();
          await dynalite.stop();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`write faults on ${backend.name}`, () => {
    let store: TableStore;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, stop } = await backend.start());
      for (const table of REQUIRED_TABLES) await store.createTable(table);
    });
    afterAll(async () => {
      await stop();
    });

    WRITE_USE_CASES.forEach((useCase, u) => {
      it(
        `${useCase.name}: a failure at any call leaves nothing stuck or orphaned`,
        { timeout: 900_000 },
        async () => {
          const { calls, runs, found } = await sweepFaults(store, useCase, `u${u}`, 6, sample);
          console.log(
            `${backend.name}, ${useCase.name}: ${calls} calls, ${runs} runs with a fault, ${found.length} left stuck or orphaned`,
          );
          expect(calls).toBeGreaterThan(3);
          expect(found).toEqual([]);
        },
      );
    });
  });
}
