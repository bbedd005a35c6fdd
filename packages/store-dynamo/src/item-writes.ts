import { randomBytes } from 'node:crypto';
import {
  PutItemCommand,
  UpdateItemCommand,
  type AttributeValue,
  type Delete,
  type DynamoDBClient,
  type Put,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import {
  userProperties,
  type EntityKeys,
  type TableEntity,
  type TransactionAction,
  type UpdateMode,
} from '@receipts/core';
import { ExpressionBuilder } from './expressions';
import { ATTR, entityKey, entityKeyAttributes } from './key-layout';
import { keyItem, propertyAttribute, toAttributeValue, toItem } from './marshal';

/*
 * The requests that write entities: a Put, Update or Delete with the conditions the port's rules
 * need ("no item yet", "exists", "has this etag"), the same on their own and inside a transaction.
 */

/**
 * Asks DynamoDB to return the item as it was when a condition failed, so a failure is explained by
 * the state that caused it rather than by a later read that another write may have changed.
 */
export const RETURN_ITEM_ON_FAILED_CONDITION = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;

/** What a write demands of the stored item: that it exists, and (unless `*`) that it has this etag. */
export interface WriteRules {
  mustExist: boolean;
  etag?: string;
}

/** A weak etag around a random version id; a recreated entity never reuses an old etag. */
export function newEtag(): string {
  return `W/"${randomBytes(12).toString('base64url')}"`;
}

/**
 * The Put of a new entity, on condition that no item has its keys.
 * @param dynamoTable - the DynamoDB table
 * @param table - the logical table
 * @param entity - the entity (checked before)
 * @param etag - its new etag
 */
export function createPut(dynamoTable: string, table: string, entity: TableEntity, etag: string): Put {
  const expression = new ExpressionBuilder();
  return {
    TableName: dynamoTable,
    Item: toItem(table, entity, etag, new Date().toISOString()),
    ConditionExpression: `attribute_not_exists(${expression.name(ATTR.pk)})`,
    ...expression.attributes(),
    ...RETURN_ITEM_ON_FAILED_CONDITION,
  };
}

/**
 * The Delete of an existing entity, on condition that it exists and (unless `*`) has this etag.
 * @param dynamoTable - the DynamoDB table
 * @param table - the logical table
 * @param keys - the entity's keys (checked before)
 * @param etag - the etag to match, if any
 */
export function deleteOfExisting(
  dynamoTable: string,
  table: string,
  keys: EntityKeys,
  etag: string | undefined,
): Delete {
  const expression = new ExpressionBuilder();
  return {
    TableName: dynamoTable,
    Key: keyItem(entityKey(table, keys.partitionKey, keys.rowKey)),
    ConditionExpression: condition(expression, { mustExist: true, etag }),
    ...expression.attributes(),
    ...RETURN_ITEM_ON_FAILED_CONDITION,
  };
}

/**
 * An update or upsert: Replace is a whole-item Put; Merge an Update that sets only the given
 * properties. Either is conditional only when `rules` ask for something.
 * @param dynamoTable - the DynamoDB table
 * @param table - the logical table
 * @param entity - keys and properties (checked before)
 * @param mode - Merge or Replace
 * @param etag - the entity's new etag
 * @param rules - existence and etag to demand
 */
export function writeItem(
  dynamoTable: string,
  table: string,
  entity: TableEntity,
  mode: UpdateMode,
  etag: string,
  rules: WriteRules,
): TransactWriteItem {
  const expression = new ExpressionBuilder();
  const timestamp = new Date().toISOString();
  if (mode === 'Replace') {
    const conditionExpression = condition(expression, rules);
    return {
      Put: {
        TableName: dynamoTable,
        Item: toItem(table, entity, etag, timestamp),
        ...(conditionExpression
          ? { ConditionExpression: conditionExpression, ...RETURN_ITEM_ON_FAILED_CONDITION }
          : {}),
        ...expression.attributes(),
      },
    };
  }
  const keys = entityKeyAttributes(table, entity.partitionKey, entity.rowKey);
  const assignments: [string, AttributeValue][] = [
    [ATTR.gsi1pk, { S: keys.gsi1pk }],
    [ATTR.gsi1sk, { S: keys.gsi1sk }],
    [ATTR.partitionKey, { S: entity.partitionKey }],
    [ATTR.rowKey, { S: entity.rowKey }],
    [ATTR.etag, { S: etag }],
    [ATTR.timestamp, { S: timestamp }],
    ...Object.entries(userProperties(entity)).map(([name, value]): [string, AttributeValue] => [
      propertyAttribute(name),
      toAttributeValue(value),
    ]),
  ];
  const conditionExpression = condition(expression, rules);
  const update = `SET ${assignments
    .map(([attribute, value]) => `${expression.name(attribute)} = ${expression.value(value)}`)
    .join(', ')}`;
  return {
    Update: {
      TableName: dynamoTable,
      Key: keyItem(entityKey(table, entity.partitionKey, entity.rowKey)),
      UpdateExpression: update,
      ...(conditionExpression
        ? { ConditionExpression: conditionExpression, ...RETURN_ITEM_ON_FAILED_CONDITION }
        : {}),
      ...expression.attributes(),
    },
  };
}

/**
 * One operation of a transaction as a TransactWriteItems entry, each with a new etag.
 * @param dynamoTable - the DynamoDB table
 * @param table - the logical table
 * @param action - the port's operation (checked before)
 */
export function transactItem(
  dynamoTable: string,
  table: string,
  action: TransactionAction,
): TransactWriteItem {
  const etag = newEtag();
  switch (action[0]) {
    case 'create':
      return { Put: createPut(dynamoTable, table, action[1], etag) };
    case 'delete':
      // The port refuses an etag on a delete inside a transaction (assertValidTransaction).
      return { Delete: deleteOfExisting(dynamoTable, table, action[1], undefined) };
    case 'update':
      return writeItem(dynamoTable, table, action[1], action[2] ?? 'Merge', etag, {
        mustExist: true,
        etag: action[3]?.etag,
      });
    case 'upsert':
      return writeItem(dynamoTable, table, action[1], action[2] ?? 'Merge', etag, { mustExist: false });
  }
}

/**
 * Sends one operation built by {@link writeItem} on its own (outside a transaction).
 * @param client - the DynamoDB client
 * @param item - a Put or an Update
 */
export async function sendWrite(client: DynamoDBClient, item: TransactWriteItem): Promise<void> {
  if (item.Put) await client.send(new PutItemCommand(item.Put));
  else if (item.Update) await client.send(new UpdateItemCommand(item.Update));
}

/** "exists" and/or "has this etag", or nothing when neither is asked. */
function condition(expression: ExpressionBuilder, rules: WriteRules): string | undefined {
  const parts: string[] = [];
  if (rules.mustExist) parts.push(`attribute_exists(${expression.name(ATTR.pk)})`);
  if (rules.etag !== undefined && rules.etag !== '*')
    parts.push(`${expression.name(ATTR.etag)} = ${expression.value({ S: rules.etag })}`);
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}
