import {
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ResourceNotFoundException,
  ScanCommand,
  ThrottlingException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  and,
  ConfigurationError,
  ConflictError,
  eq,
  ne,
  silentLogger,
  StoreError,
  TransactionError,
  ValidationError,
  type TransactionAction,
} from '@receipts/core';
import { DynamoTableStore } from '../src';

const dynamo = mockClient(DynamoDBClient);
const TABLE_NAME = 'receipts';
const registryItem = (table: string) => ({ Item: { pk: { S: '#TABLES' }, sk: { S: table } } });
const metadata = { $metadata: {} };

/** Resolves placeholders so assertions read like the expression DynamoDB evaluates. */
function readable(
  expression: string | undefined,
  names: Record<string, string> = {},
  values: Record<string, AttributeValue> = {},
) {
  return (expression ?? '')
    .replace(/#[0-9a-z]+/g, (placeholder) => names[placeholder] ?? placeholder)
    .replace(/:[0-9a-z]+/g, (placeholder) => JSON.stringify(values[placeholder]));
}

function storedItem(partitionKey: string, rowKey: string, extra: Record<string, AttributeValue> = {}) {
  return {
    pk: { S: `Receipts#${partitionKey}` },
    sk: { S: `r#${rowKey}` },
    gsi1pk: { S: 'Receipts' },
    gsi1sk: { S: `${partitionKey}\u0001${rowKey}` },
    partitionKey: { S: partitionKey },
    rowKey: { S: rowKey },
    etag: { S: 'W/"v1"' },
    timestamp: { S: '2024-01-01T00:00:00.000Z' },
    ...extra,
  };
}

let store: DynamoTableStore;

beforeEach(() => {
  dynamo.reset();
  store = new DynamoTableStore({
    client: new DynamoDBClient({ region: 'eu-west-1' }),
    tableName: TABLE_NAME,
    logger: silentLogger,
  });
});

afterEach(() => {
  // Every listing is a Query: a Scan would read every user's data.
  expect(dynamo.commandCalls(ScanCommand)).toHaveLength(0);
});

describe('DynamoTableStore requests', () => {
  it('reads one entity by its composite key, strongly consistent, and unmarshals typed values', async () => {
    dynamo.on(GetItemCommand).resolves({
      Item: storedItem("O'Brien", 'r1', {
        p_total: { N: '12.5' },
        p_paid: { BOOL: true },
        p_note: { NULL: true },
        p_when: { M: { date: { S: '2024-02-03T04:05:06.789Z' } } },
      }),
    });
    const entity = await store.getEntity('Receipts', "O'Brien", 'r1');
    expect(dynamo.commandCalls(GetItemCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: { pk: { S: "Receipts#O'Brien" }, sk: { S: 'r#r1' } },
      ConsistentRead: true,
    });
    expect(entity).toEqual({
      partitionKey: "O'Brien",
      rowKey: 'r1',
      etag: 'W/"v1"',
      timestamp: '2024-01-01T00:00:00.000Z',
      total: 12.5,
      paid: true,
      note: null,
      when: new Date('2024-02-03T04:05:06.789Z'),
    });
  });

  it('lists a partition with a Query on pk and translates the filter', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [storedItem('u1', 'a')] });
    await store.listEntities('Receipts', {
      partitionKey: 'u1',
      filter: and(eq('user_id', "it's"), ne('day', new Date('2024-01-01T00:00:00Z'))),
      pageSize: 10,
    });
    const input = dynamo.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(input.IndexName).toBeUndefined();
    expect(input.ConsistentRead).toBe(true);
    expect(input.Limit).toBe(10);
    expect(
      readable(input.KeyConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
    ).toBe('pk = {"S":"Receipts#u1"}');
    expect(
      readable(input.FilterExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
    ).toBe('(p_user_id = {"S":"it\'s"}) AND (NOT (p_day.date = {"S":"2024-01-01T00:00:00.000Z"}))');
  });

  it('lists a whole table or a partition-key prefix through index gsi1 with begins_with', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [storedItem('u1', 'a')] });
    await store.listEntities('Receipts');
    await store.listEntities('Receipts', { partitionKeyPrefix: 'u1-' });
    const [whole, prefixed] = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(whole!.IndexName).toBe('gsi1');
    expect(
      readable(
        whole!.KeyConditionExpression,
        whole!.ExpressionAttributeNames,
        whole!.ExpressionAttributeValues,
      ),
    ).toBe('gsi1pk = {"S":"Receipts"}');
    expect(
      readable(
        prefixed!.KeyConditionExpression,
        prefixed!.ExpressionAttributeNames,
        prefixed!.ExpressionAttributeValues,
      ),
    ).toBe('gsi1pk = {"S":"Receipts"} AND begins_with(gsi1sk, {"S":"u1-"})');
  });

  it('keeps querying until the page is full, since Limit applies before the filter', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({
        Items: [storedItem('u1', 'a')],
        LastEvaluatedKey: { pk: { S: 'Receipts#u1' }, sk: { S: 'r#c' } },
      })
      .resolvesOnce({
        Items: [storedItem('u1', 'd'), storedItem('u1', 'e'), storedItem('u1', 'f')],
        LastEvaluatedKey: { pk: { S: 'Receipts#u1' }, sk: { S: 'r#g' } },
      });
    const page = await store.listEntities('Receipts', {
      partitionKey: 'u1',
      filter: eq('kept', true),
      pageSize: 3,
    });
    expect(page.items.map((entity) => entity.rowKey)).toEqual(['a', 'd', 'e']);
    const calls = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.ExclusiveStartKey).toEqual({ pk: { S: 'Receipts#u1' }, sk: { S: 'r#c' } });

    // The page ended inside the second batch: the next one starts right after 'e', not after 'g'.
    dynamo.reset();
    dynamo.on(QueryCommand).resolves({ Items: [storedItem('u1', 'f')] });
    const next = await store.listEntities('Receipts', {
      partitionKey: 'u1',
      filter: eq('kept', true),
      pageSize: 3,
      continuationToken: page.continuationToken,
    });
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input.ExclusiveStartKey).toEqual({
      pk: { S: 'Receipts#u1' },
      sk: { S: 'r#e' },
    });
    expect(next.continuationToken).toBeUndefined();
  });

  it('refuses a continuation token of another partition', async () => {
    dynamo.on(QueryCommand).resolves({
      Items: [storedItem('u1', 'a')],
      LastEvaluatedKey: { pk: { S: 'Receipts#u1' }, sk: { S: 'r#a' } },
    });
    const page = await store.listEntities('Receipts', { partitionKey: 'u1', pageSize: 1 });
    await expect(
      store.listEntities('Receipts', { partitionKey: 'u2', continuationToken: page.continuationToken }),
    ).rejects.toThrow(ValidationError);
  });

  it('stores user properties under a prefix so they never overwrite key attributes', async () => {
    dynamo.on(GetItemCommand).resolves(registryItem('Receipts'));
    dynamo.on(PutItemCommand).resolves({});
    await store.createEntity('Receipts', {
      partitionKey: 'u1',
      rowKey: 'r1',
      pk: 'evil',
      gsi1pk: 'x',
      total: 3,
    });
    const input = dynamo.commandCalls(PutItemCommand)[0]!.args[0].input;
    expect(input.Item).toMatchObject({
      pk: { S: 'Receipts#u1' },
      sk: { S: 'r#r1' },
      gsi1pk: { S: 'Receipts' },
      gsi1sk: { S: 'u1\u0001r1' },
      p_pk: { S: 'evil' },
      p_gsi1pk: { S: 'x' },
      p_total: { N: '3' },
    });
    expect(readable(input.ConditionExpression, input.ExpressionAttributeNames)).toBe(
      'attribute_not_exists(pk)',
    );
  });

  it('checks the etag with a condition expression: Merge is an UpdateItem, Replace a PutItem', async () => {
    dynamo.on(UpdateItemCommand).resolves({});
    dynamo.on(PutItemCommand).resolves({});
    const etag = 'W/"abc"';
    await store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1', total: 4 }, 'Merge', { etag });
    await store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1', total: 5 }, 'Replace', { etag });
    const merge = dynamo.commandCalls(UpdateItemCommand)[0]!.args[0].input;
    expect(merge.Key).toEqual({ pk: { S: 'Receipts#u1' }, sk: { S: 'r#r1' } });
    expect(
      readable(merge.ConditionExpression, merge.ExpressionAttributeNames, merge.ExpressionAttributeValues),
    ).toBe('attribute_exists(pk) AND etag = {"S":"W/\\"abc\\""}');
    expect(
      readable(merge.UpdateExpression, merge.ExpressionAttributeNames, merge.ExpressionAttributeValues),
    ).toMatch(/^SET .*, p_total = \{"N":"4"\}$/);
    const replace = dynamo.commandCalls(PutItemCommand)[0]!.args[0].input;
    expect(replace.Item?.p_total).toEqual({ N: '5' });
    expect(
      readable(
        replace.ConditionExpression,
        replace.ExpressionAttributeNames,
        replace.ExpressionAttributeValues,
      ),
    ).toBe('attribute_exists(pk) AND etag = {"S":"W/\\"abc\\""}');
  });

  it('sends no etag condition for the default etag *', async () => {
    dynamo.on(DeleteItemCommand).resolves({});
    await store.deleteEntity('Receipts', 'u1', 'r1');
    const input = dynamo.commandCalls(DeleteItemCommand)[0]!.args[0].input;
    expect(readable(input.ConditionExpression, input.ExpressionAttributeNames)).toBe('attribute_exists(pk)');
  });

  it('tells a stale etag (ConflictError) from a missing entity after a failed condition', async () => {
    dynamo
      .on(UpdateItemCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'failed', ...metadata }));
    dynamo.on(GetItemCommand).resolvesOnce({ Item: storedItem('u1', 'r1') });
    await expect(
      store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1' }, 'Merge', { etag: 'W/"old"' }),
    ).rejects.toThrow(ConflictError);
  });

  it('asks for the item as it was whenever a write carries a condition', async () => {
    dynamo.on(GetItemCommand).resolves(registryItem('Receipts'));
    dynamo.on(UpdateItemCommand).resolves({});
    dynamo.on(PutItemCommand).resolves({});
    dynamo.on(DeleteItemCommand).resolves({});
    await store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1', total: 4 }, 'Merge');
    await store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1', total: 5 }, 'Replace');
    await store.deleteEntity('Receipts', 'u1', 'r1', { etag: 'W/"e1"' });
    await store.upsertEntity('Receipts', { partitionKey: 'u1', rowKey: 'r2' }, 'Replace');
    const sent = [
      ...dynamo.commandCalls(UpdateItemCommand),
      ...dynamo.commandCalls(PutItemCommand),
      ...dynamo.commandCalls(DeleteItemCommand),
    ].map(
      (call) =>
        call.args[0].input as { ConditionExpression?: string; ReturnValuesOnConditionCheckFailure?: string },
    );
    expect(sent).toHaveLength(4);
    for (const input of sent) {
      expect(input.ReturnValuesOnConditionCheckFailure).toBe(
        input.ConditionExpression ? 'ALL_OLD' : undefined,
      );
    }
    // The unconditional upsert asks for nothing.
    expect(sent.filter((input) => input.ConditionExpression)).toHaveLength(3);
  });

  it('explains a failed condition by the item DynamoDB returned with it, without reading again', async () => {
    // Another writer changed the entity (the failure carries it) and then deleted it: a read now would
    // find nothing and wrongly report a missing entity.
    dynamo.on(UpdateItemCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'failed',
        Item: storedItem('u1', 'r1', { etag: { S: 'W/"newer"' } }),
        ...metadata,
      }),
    );
    dynamo.on(GetItemCommand).resolves({});
    await expect(
      store.updateEntity('Receipts', { partitionKey: 'u1', rowKey: 'r1' }, 'Merge', { etag: 'W/"old"' }),
    ).rejects.toMatchObject({ name: 'ConflictError', code: 'EtagMismatch' });
    expect(dynamo.commandCalls(GetItemCommand)).toHaveLength(0);
  });

  it("names a transaction's stale operation from the cancellation reason's item, without reading again", async () => {
    dynamo.on(GetItemCommand).resolvesOnce(registryItem('Items')).resolves({});
    dynamo.on(TransactWriteItemsCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled [ConditionalCheckFailed]',
        CancellationReasons: [
          {
            Code: 'ConditionalCheckFailed',
            Message: 'failed',
            Item: storedItem('rc1', 'a', { etag: { S: 'W/"x"' } }),
          },
        ],
        ...metadata,
      }),
    );
    const error = (await store
      .submitTransaction('Items', [
        ['update', { partitionKey: 'rc1', rowKey: 'a' }, 'Merge', { etag: 'W/"old"' }],
      ])
      .catch((failure: unknown) => failure)) as TransactionError;
    expect(error).toMatchObject({
      failedIndex: 0,
      status: 412,
      code: 'UpdateConditionNotSatisfied',
      lostRace: true,
    });
    expect(dynamo.commandCalls(GetItemCommand)).toHaveLength(1);
    const [item] = dynamo.commandCalls(TransactWriteItemsCommand)[0]!.args[0].input.TransactItems!;
    expect(item!.Update?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  });

  it('sends a transaction as one TransactWriteItems with a condition per operation', async () => {
    dynamo.on(GetItemCommand).resolves(registryItem('Items'));
    dynamo.on(TransactWriteItemsCommand).resolves({});
    const actions: TransactionAction[] = [
      ['create', { partitionKey: 'rc1', rowKey: 'i1', description: 'Milk' }],
      ['update', { partitionKey: 'rc1', rowKey: 'i2', qty: 2 }, 'Merge', { etag: 'W/"e2"' }],
      ['upsert', { partitionKey: 'rc1', rowKey: 'i3', qty: 3 }, 'Replace'],
      ['delete', { partitionKey: 'rc1', rowKey: 'i4' }],
    ];
    await store.submitTransaction('Items', actions);
    await store.submitTransaction('Items', [['delete', { partitionKey: 'rc1', rowKey: 'i1' }]]);
    // The table's existence is checked once, then remembered.
    expect(dynamo.commandCalls(GetItemCommand)).toHaveLength(1);
    const [first] = dynamo
      .commandCalls(TransactWriteItemsCommand)
      .map((call) => call.args[0].input.TransactItems!);
    expect(first).toHaveLength(4);
    const [create, update, upsert, remove] = first!;
    expect(create!.Put?.TableName).toBe(TABLE_NAME);
    expect(create!.Put?.Item?.p_description).toEqual({ S: 'Milk' });
    expect(readable(create!.Put?.ConditionExpression, create!.Put?.ExpressionAttributeNames)).toBe(
      'attribute_not_exists(pk)',
    );
    expect(update!.Update?.Key).toEqual({ pk: { S: 'Items#rc1' }, sk: { S: 'r#i2' } });
    expect(
      readable(
        update!.Update?.ConditionExpression,
        update!.Update?.ExpressionAttributeNames,
        update!.Update?.ExpressionAttributeValues,
      ),
    ).toBe('attribute_exists(pk) AND etag = {"S":"W/\\"e2\\""}');
    expect(upsert!.Put?.ConditionExpression).toBeUndefined();
    expect(remove!.Delete?.Key).toEqual({ pk: { S: 'Items#rc1' }, sk: { S: 'r#i4' } });
  });

  it('maps a cancelled transaction to TransactionError naming the failing operation', async () => {
    dynamo.on(GetItemCommand).resolves(registryItem('Items'));
    dynamo.on(TransactWriteItemsCommand).rejects(
      new TransactionCanceledException({
        message:
          'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]',
        CancellationReasons: [
          { Code: 'None' },
          { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        ],
        ...metadata,
      }),
    );
    const error = (await store
      .submitTransaction('Items', [
        ['upsert', { partitionKey: 'rc1', rowKey: 'a' }],
        ['create', { partitionKey: 'rc1', rowKey: 'b' }],
      ])
      .catch((failure: unknown) => failure)) as TransactionError;
    expect(error).toBeInstanceOf(TransactionError);
    expect(error).toMatchObject({ failedIndex: 1, status: 409, code: 'EntityAlreadyExists' });
    expect(error.message).toBe('The specified entity already exists.');
  });

  it('refuses cross-partition, oversized and duplicate-row transactions without sending anything', async () => {
    const many = Array.from({ length: 101 }, (_, i): TransactionAction => [
      'create',
      { partitionKey: 'p', rowKey: `r${i}` },
    ]);
    await expect(
      store.submitTransaction('Items', [
        ['create', { partitionKey: 'a', rowKey: '1' }],
        ['create', { partitionKey: 'b', rowKey: '1' }],
      ]),
    ).rejects.toThrow(/same partitionKey/);
    await expect(store.submitTransaction('Items', many)).rejects.toThrow(/at most 100/);
    await expect(
      store.submitTransaction('Items', [
        ['create', { partitionKey: 'a', rowKey: '1' }],
        ['delete', { partitionKey: 'a', rowKey: '1' }],
      ]),
    ).rejects.toThrow(/more than once/);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('deletes a table by querying its index and batch-deleting 25 at a time, retrying unprocessed ones', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ pk: { S: 'Old#p' }, sk: { S: `r#${i}` } }));
    dynamo.on(GetItemCommand).resolves(registryItem('Old'));
    dynamo.on(QueryCommand).resolves({ Items: items });
    dynamo
      .on(BatchWriteItemCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE_NAME]: [{ DeleteRequest: { Key: items[0]! } }] } })
      .resolves({});
    dynamo.on(DeleteItemCommand).resolves({});
    await store.deleteTable('Old');
    const query = dynamo.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query.IndexName).toBe('gsi1');
    const batches = dynamo
      .commandCalls(BatchWriteItemCommand)
      .map((call) => call.args[0].input.RequestItems![TABLE_NAME]!.length);
    expect(batches).toEqual([25, 1, 5]);
    expect(dynamo.commandCalls(DeleteItemCommand)[0]!.args[0].input.Key).toEqual({
      pk: { S: '#TABLES' },
      sk: { S: 'Old' },
    });
  });

  it('translates service failures into the core errors', async () => {
    dynamo
      .on(QueryCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: 'Requested resource not found', ...metadata }))
      .rejectsOnce(new ThrottlingException({ message: 'Rate exceeded', ...metadata }));
    await expect(store.listTables()).rejects.toThrow(ConfigurationError);
    const throttled = await store.listTables().catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(StoreError);
    expect(throttled).toMatchObject({ code: 'Throttled' });
  });
});
