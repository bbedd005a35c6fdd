import { createRequire } from 'node:module';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite, type RunningDynalite } from '../src/dynalite';

let dynalite: RunningDynalite;
let client: DynamoDBClient;
const TableName = 'transactions';

beforeAll(async () => {
  dynalite = await startDynalite();
  client = new DynamoDBClient({
    endpoint: dynalite.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    }),
  );
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

const get = async (id: string) =>
  (await client.send(new GetItemCommand({ TableName, Key: { id: { S: id } } }))).Item;

describe('TransactWriteItems on dynalite', () => {
  it('applies puts, updates and deletes together', async () => {
    await client.send(new PutItemCommand({ TableName, Item: { id: { S: 'u' }, n: { N: '1' } } }));
    await client.send(new PutItemCommand({ TableName, Item: { id: { S: 'd' } } }));
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName, Item: { id: { S: 'new' } }, ConditionExpression: 'attribute_not_exists(id)' } },
          {
            Update: {
              TableName,
              Key: { id: { S: 'u' } },
              UpdateExpression: 'SET n = n + :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
          { Delete: { TableName, Key: { id: { S: 'd' } } } },
        ],
      }),
    );
    expect(await get('new')).toBeDefined();
    expect((await get('u'))?.n).toEqual({ N: '2' });
    expect(await get('d')).toBeUndefined();
  });

  it('writes nothing when one condition fails, and names it in the cancellation reasons', async () => {
    await client.send(new PutItemCommand({ TableName, Item: { id: { S: 'guard' }, open: { BOOL: false } } }));
    const failure = await client
      .send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName, Item: { id: { S: 'never' } } } },
            {
              ConditionCheck: {
                TableName,
                Key: { id: { S: 'guard' } },
                ConditionExpression: '#open = :yes',
                ExpressionAttributeNames: { '#open': 'open' },
                ExpressionAttributeValues: { ':yes': { BOOL: true } },
              },
            },
          ],
        }),
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransactionCanceledException);
    expect(
      (failure as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code),
    ).toEqual(['None', 'ConditionalCheckFailed']);
    expect(await get('never')).toBeUndefined();
  });

  it('refuses two operations on one item and more than 100 operations', async () => {
    await expect(
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName, Item: { id: { S: 'twice' } } } },
            { Delete: { TableName, Key: { id: { S: 'twice' } } } },
          ],
        }),
      ),
    ).rejects.toThrow(/multiple operations on one item/);
    const many = Array.from({ length: 101 }, (_, i) => ({
      Put: { TableName, Item: { id: { S: `m${i}` } } },
    }));
    await expect(client.send(new TransactWriteItemsCommand({ TransactItems: many }))).rejects.toThrow(
      /between 1 and 100/,
    );
    expect(await get('twice')).toBeUndefined();
    expect(await get('m0')).toBeUndefined();
  });

  it('keeps serving ordinary requests while transactions run', async () => {
    const writes = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? client.send(new PutItemCommand({ TableName, Item: { id: { S: `plain${i}` } } }))
        : client.send(
            new TransactWriteItemsCommand({
              TransactItems: [{ Put: { TableName, Item: { id: { S: `tx${i}` } } } }],
            }),
          ),
    );
    await Promise.all(writes);
    for (let i = 0; i < 20; i++) expect(await get(i % 2 === 0 ? `plain${i}` : `tx${i}`)).toBeDefined();
  });
});

describe('the dynalite dependency', () => {
  it('is pinned to the exact version that is installed, since the shim loads its private modules', () => {
    const require = createRequire(import.meta.url);
    const manifest = require('../package.json') as { dependencies: Record<string, string> };
    const installed = (require('dynalite/package.json') as { version: string }).version;
    expect(manifest.dependencies.dynalite).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies.dynalite).toBe(installed);
  });
});
