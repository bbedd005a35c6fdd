import { ValidationError } from '@receipts/core';

/*
 * Single-table layout (documented in the package README; the CDK stack declares the same table).
 *
 *   entity:          pk = "<table>#<partitionKey>"   sk = "r#<rowKey>"
 *                    gsi1pk = "<table>"              gsi1sk = "<partitionKey>\u0001<rowKey>"
 *   table registry:  pk = "#TABLES"                  sk = "<table>"
 *
 * Table names are letters and digits only and keys may not contain "#" or control characters, so
 * "#" and "\u0001" can never appear inside a name or key: the composites are unambiguous. "\u0001"
 * sorts below every character a key may hold, so gsi1sk orders entities by (partitionKey, rowKey)
 * exactly as the service orders them. The "r#" prefix keeps an empty rowKey (allowed by Azure) a
 * non-empty DynamoDB sort key without changing the order.
 */

/** Attribute names of an item. User properties are stored as `p_<name>` and never clash with these. */
export const ATTR = {
  pk: 'pk',
  sk: 'sk',
  gsi1pk: 'gsi1pk',
  gsi1sk: 'gsi1sk',
  partitionKey: 'partitionKey',
  rowKey: 'rowKey',
  etag: 'etag',
  timestamp: 'timestamp',
  tableName: 'tableName',
} as const;

/** The global secondary index over (gsi1pk, gsi1sk): whole-table and partition-prefix listings. */
export const GSI1 = 'gsi1';
/** Partition of the table registry. */
export const REGISTRY_PK = '#TABLES';
/** Prefix of the attribute that holds a user property. */
export const PROPERTY_PREFIX = 'p_';
/** Key of the map that marks a Date value: `{ M: { date: { S: iso } } }`. */
export const DATE_TAG = 'date';

const ROW_PREFIX = 'r#';
const SEPARATOR = '\u0001';
/** DynamoDB's limit for a sort key, in UTF-8 bytes; gsi1sk holds both keys plus the separator. */
const MAX_SORT_KEY_BYTES = 1024;

export interface PrimaryKey {
  pk: string;
  sk: string;
}

export interface EntityKeyAttributes extends PrimaryKey {
  gsi1pk: string;
  gsi1sk: string;
}

/** pk of an entity partition. */
export const partitionPk = (table: string, partitionKey: string): string => `${table}#${partitionKey}`;

/** Primary key of an entity. */
export const entityKey = (table: string, partitionKey: string, rowKey: string): PrimaryKey => ({
  pk: partitionPk(table, partitionKey),
  sk: `${ROW_PREFIX}${rowKey}`,
});

/** All key attributes of an entity item (table and index). */
export const entityKeyAttributes = (
  table: string,
  partitionKey: string,
  rowKey: string,
): EntityKeyAttributes => ({
  ...entityKey(table, partitionKey, rowKey),
  gsi1pk: table,
  gsi1sk: `${partitionKey}${SEPARATOR}${rowKey}`,
});

/** Primary key of a table's registry item. */
export const registryKey = (table: string): PrimaryKey => ({ pk: REGISTRY_PK, sk: table });

/**
 * Refuses keys too long for the composite index key (a DynamoDB limit that Azure does not have;
 * ordinary ids are far below it).
 * @throws ValidationError
 */
export function assertKeysFit(partitionKey: string, rowKey: string): void {
  const bytes = Buffer.byteLength(partitionKey, 'utf8') + Buffer.byteLength(rowKey, 'utf8') + 1;
  if (bytes > MAX_SORT_KEY_BYTES) {
    throw new ValidationError(
      `partitionKey and rowKey together take ${bytes - 1} bytes; on DynamoDB they may take at most ` +
        `${MAX_SORT_KEY_BYTES - 1} bytes (UTF-8).`,
      { code: 'InvalidKey' },
    );
  }
}
