/**
 * The key layout of the DynamoDB table, taken from the DynamoDB table store adapter so that the
 * deployed table and the adapter cannot disagree. Only the adapter's constants are imported here, not
 * the adapter (and its SDK).
 */
import { ATTR, GSI1, partitionPk, registryKey } from '@receipts/store-dynamo/key-layout';

export interface TableIndexSchema {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface TableKeySchema {
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Every index projects all attributes: the adapter reads whole entities from it. */
  readonly globalSecondaryIndexes: readonly TableIndexSchema[];
}

export const TABLE_KEY_SCHEMA: TableKeySchema = {
  partitionKey: ATTR.pk,
  sortKey: ATTR.sk,
  globalSecondaryIndexes: [{ indexName: GSI1, partitionKey: ATTR.gsi1pk, sortKey: ATTR.gsi1sk }],
};

/**
 * The item by which the adapter knows that a (logical) table exists, in DynamoDB JSON: the key and
 * name its createTable writes (without the time of writing, so that the template stays the same
 * from one synth to the next).
 *
 * @param table - the table name, e.g. Users
 */
export function tableRegistryItem(table: string): Record<string, { S: string }> {
  const key = registryKey(table);
  return {
    [ATTR.pk]: { S: key.pk },
    [ATTR.sk]: { S: key.sk },
    [ATTR.tableName]: { S: table },
  };
}

/**
 * The partition keys of every item of a (logical) table, as an IAM `StringLike` pattern for the
 * `dynamodb:LeadingKeys` condition key: e.g. `Users#*`.
 *
 * @param table - the table name, e.g. Users
 */
export function tableLeadingKeys(table: string): string {
  return partitionPk(table, '*');
}
