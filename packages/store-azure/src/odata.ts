import {
  assertValidFilter,
  userProperties,
  type EntityValue,
  type Filter,
  type FilterValue,
  type StoredEntity,
  type TableEntity,
} from '@receipts/core';

/*
 * Translation between the port's typed values and Azure Tables' OData/EDM world.
 *
 * Numbers: every number is stored as Edm.Double (exact for integers up to 2^53), so that a filter
 * literal always has the type of the stored value; Azure does not compare Int32 with Double.
 * Int32 and Int64 values written by other tools are read back as numbers too.
 *
 * Null: Azure Tables does not keep null-valued properties (an insert drops them, a merge ignores
 * them), so null is stored as an empty Edm.Binary value, a type the port never writes otherwise. It
 * reads back as null, a merge with null sets it, and it never equals a filter value, as a missing
 * property does not.
 */

const KEY_NAMES: Record<string, string> = { partitionKey: 'PartitionKey', rowKey: 'RowKey' };
const NULL_MARKER = { value: '', type: 'Binary' } as const;

/** A property value as `@azure/data-tables` serializes it. */
export type AzureValue = string | boolean | Date | { value: string | number; type: 'Double' | 'Binary' };

/**
 * An OData string literal: single quotes, with quotes inside doubled (`O'Brien` -> `'O''Brien'`).
 * @param value - the text
 */
export function quote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * An Edm.Double literal in plain decimal notation (`5.0`, `0.0000001`), because exponent notation
 * is not understood by every Table service implementation.
 * @param value - a finite number
 */
export function doubleLiteral(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return Number.isInteger(value) ? `${text}.0` : text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = `${digits}${'0'.repeat(point - digits.length)}.0`;
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${plain}`;
}

/**
 * A filter value as an OData literal of the EDM type it is stored with.
 * @param value - string, number, boolean or Date
 */
export function literal(value: FilterValue): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return doubleLiteral(value);
  return `datetime'${value.toISOString()}'`;
}

/**
 * Translates a typed filter into an OData `$filter` string. `ne` is written `not (p eq v)` so that
 * an entity without the property (or with null) matches it, as the port's rules say.
 * @param filter - the typed filter (checked first)
 * @throws ValidationError when the filter is malformed
 */
export function toODataFilter(filter: Filter): string {
  assertValidFilter(filter);
  return translate(filter);
}

function translate(filter: Filter): string {
  if ('filters' in filter) return filter.filters.map((part) => `(${translate(part)})`).join(` ${filter.op} `);
  const property = KEY_NAMES[filter.property] ?? filter.property;
  const value = literal(filter.value);
  return filter.op === 'ne' ? `not (${property} eq ${value})` : `${property} ${filter.op} ${value}`;
}

/**
 * The key range of partitions starting with `prefix`, served by the service as a range scan.
 * @param prefix - the partitionKey prefix; empty means every partition
 */
export function partitionPrefixFilter(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  return `PartitionKey ge ${quote(prefix)} and PartitionKey lt ${quote(`${prefix}\uffff`)}`;
}

/** Joins filter strings with `and`, leaving out the absent ones. */
export function allOf(...filters: (string | undefined)[]): string | undefined {
  const present = filters.filter((filter): filter is string => Boolean(filter));
  if (present.length <= 1) return present[0];
  return present.map((filter) => `(${filter})`).join(' and ');
}

/**
 * The entity as `@azure/data-tables` writes it: keys plus typed properties.
 * Assumes the entity was checked with `assertValidProperties`.
 * @param entity - the port's entity
 */
export function toAzureEntity(
  entity: TableEntity,
): Record<string, AzureValue> & { partitionKey: string; rowKey: string } {
  const out: Record<string, AzureValue> & { partitionKey: string; rowKey: string } = {
    partitionKey: entity.partitionKey,
    rowKey: entity.rowKey,
  };
  for (const [name, value] of Object.entries(userProperties(entity))) out[name] = toAzureValue(value);
  return out;
}

function toAzureValue(value: EntityValue): AzureValue {
  if (value === null) return { ...NULL_MARKER };
  if (typeof value === 'number') return { value, type: 'Double' };
  return value;
}

/**
 * The port's entity from what `@azure/data-tables` read: EDM values turned back into string, number,
 * boolean, Date or null; OData metadata dropped.
 * @param raw - an entity as the SDK returns it
 */
export function fromAzureEntity<T extends TableEntity>(raw: Record<string, unknown>): StoredEntity<T> {
  const entity: Record<string, unknown> = {
    partitionKey: raw.partitionKey,
    rowKey: raw.rowKey,
    etag: raw.etag,
    timestamp: raw.timestamp,
  };
  for (const [name, value] of Object.entries(raw)) {
    if (name in entity || name.startsWith('odata.') || name.includes('@odata.')) continue;
    entity[name] = fromAzureValue(value);
  }
  return entity as StoredEntity<T>;
}

function fromAzureValue(value: unknown): EntityValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return value.length === 0 ? null : Buffer.from(value).toString('base64');
  if (value instanceof Date) return value;
  if (typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  return value as EntityValue;
}
