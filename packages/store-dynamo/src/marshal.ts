import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  StoreError,
  userProperties,
  type EntityValue,
  type StoredEntity,
  type TableEntity,
} from '@receipts/core';
import { ATTR, DATE_TAG, entityKeyAttributes, PROPERTY_PREFIX, type PrimaryKey } from './key-layout';

/*
 * Values: string -> S, number -> N, boolean -> BOOL, null -> NULL, Date -> { M: { date: S(ISO) } }.
 * The map keeps a Date's type on the way back and still compares in time order inside filters
 * (`#p.#date > :iso`), while a filter on a plain string never matches it.
 */

/** The attribute holding user property `name`. */
export const propertyAttribute = (name: string): string => `${PROPERTY_PREFIX}${name}`;

/**
 * One property value as a DynamoDB attribute value.
 * @param value - string, finite number, boolean, Date or null
 */
export function toAttributeValue(value: EntityValue): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  return { M: { [DATE_TAG]: { S: value.toISOString() } } };
}

/**
 * A stored attribute value back as a property value.
 * @param name - the property, named in the error for a type the port does not know
 * @param value - the attribute value
 * @throws StoreError ('Unknown EDM type') for list, set, binary or other map values
 */
export function fromAttributeValue(name: string, value: AttributeValue): EntityValue {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  const date = value.M?.[DATE_TAG]?.S;
  if (date !== undefined && Object.keys(value.M ?? {}).length === 1) return new Date(date);
  throw new StoreError(
    `Unknown EDM type for property "${name}": the stored value is not a string, number, boolean, date or null.`,
    {
      code: 'UnknownEdmType',
    },
  );
}

/**
 * The whole item of an entity: key attributes, raw keys, etag, timestamp and `p_` properties.
 * @param table - the logical table
 * @param entity - the entity (checked before)
 * @param etag - the new etag
 * @param timestamp - the write time, ISO 8601
 */
export function toItem(
  table: string,
  entity: TableEntity,
  etag: string,
  timestamp: string,
): Record<string, AttributeValue> {
  const keys = entityKeyAttributes(table, entity.partitionKey, entity.rowKey);
  const item: Record<string, AttributeValue> = {
    [ATTR.pk]: { S: keys.pk },
    [ATTR.sk]: { S: keys.sk },
    [ATTR.gsi1pk]: { S: keys.gsi1pk },
    [ATTR.gsi1sk]: { S: keys.gsi1sk },
    [ATTR.partitionKey]: { S: entity.partitionKey },
    [ATTR.rowKey]: { S: entity.rowKey },
    [ATTR.etag]: { S: etag },
    [ATTR.timestamp]: { S: timestamp },
  };
  for (const [name, value] of Object.entries(userProperties(entity)))
    item[propertyAttribute(name)] = toAttributeValue(value);
  return item;
}

/**
 * An item back as the port's entity.
 * @param item - a stored entity item
 */
export function fromItem<T extends TableEntity>(item: Record<string, AttributeValue>): StoredEntity<T> {
  const entity: Record<string, EntityValue> = {
    partitionKey: item[ATTR.partitionKey]?.S ?? '',
    rowKey: item[ATTR.rowKey]?.S ?? '',
    etag: item[ATTR.etag]?.S ?? '',
    timestamp: item[ATTR.timestamp]?.S ?? '',
  };
  for (const [attribute, value] of Object.entries(item)) {
    if (!attribute.startsWith(PROPERTY_PREFIX)) continue;
    const name = attribute.slice(PROPERTY_PREFIX.length);
    entity[name] = fromAttributeValue(name, value);
  }
  return entity as StoredEntity<T>;
}

/**
 * The primary key of an item as DynamoDB's `Key`.
 * @param key - pk and sk (from `entityKey` or `registryKey`)
 */
export function keyItem(key: PrimaryKey): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: key.pk }, [ATTR.sk]: { S: key.sk } };
}
