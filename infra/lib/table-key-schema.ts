/**
 * The key layout of the DynamoDB table, taken from the DynamoDB table store adapter so that the
 * deployed table and the adapter cannot disagree. Only the adapter's constants are imported here, not
 * the adapter (and its SDK).
 */
import { ATTR, GSI1 } from '../../packages/store-dynamo/src/key-layout';

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
