import {
  CreateTableCommand,
  DescribeTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { StoreError } from '@receipts/core';
import { isSdkError, toStoreError } from './errors';
import { ATTR, GSI1 } from './key-layout';

/**
 * The DynamoDB table DynamoTableStore needs, for any table name: string keys pk (hash) and sk (range),
 * index gsi1 over gsi1pk (hash) and gsi1sk (range) projecting all attributes, on-demand billing.
 * The CDK stack declares the same.
 */
export const STORE_TABLE_SCHEMA = {
  AttributeDefinitions: [
    { AttributeName: ATTR.pk, AttributeType: 'S' },
    { AttributeName: ATTR.sk, AttributeType: 'S' },
    { AttributeName: ATTR.gsi1pk, AttributeType: 'S' },
    { AttributeName: ATTR.gsi1sk, AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: ATTR.pk, KeyType: 'HASH' },
    { AttributeName: ATTR.sk, KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: GSI1,
      KeySchema: [
        { AttributeName: ATTR.gsi1pk, KeyType: 'HASH' },
        { AttributeName: ATTR.gsi1sk, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST',
} as const satisfies Omit<CreateTableCommandInput, 'TableName'>;

/**
 * Creates the store's DynamoDB table (an existing one is left as it is) and waits until it and its
 * index are ACTIVE. For tests and local use; in AWS the CDK stack creates it.
 * @param client - a configured client
 * @param tableName - the DynamoDB table name
 * @param options - how long to wait for ACTIVE (default 60 s)
 */
export async function createStoreTable(
  client: DynamoDBClient,
  tableName: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        ...STORE_TABLE_SCHEMA,
        AttributeDefinitions: [...STORE_TABLE_SCHEMA.AttributeDefinitions],
        KeySchema: [...STORE_TABLE_SCHEMA.KeySchema],
        GlobalSecondaryIndexes: STORE_TABLE_SCHEMA.GlobalSecondaryIndexes.map((index) => ({
          ...index,
          KeySchema: [...index.KeySchema],
        })),
      }),
    );
  } catch (error) {
    if (!isSdkError(error, 'ResourceInUseException')) throw toStoreError(error, tableName);
  }
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (table?.GlobalSecondaryIndexes ?? []).every(
      (index) => index.IndexStatus === 'ACTIVE',
    );
    if (table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) {
      throw new StoreError(`DynamoDB table "${tableName}" did not become ACTIVE in time.`, {
        code: 'TableNotActive',
      });
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}
