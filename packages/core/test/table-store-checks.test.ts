import { describe, expect, it } from 'vitest';
import {
  and,
  assertValidEntityAddress,
  assertValidFilter,
  assertValidProperties,
  assertValidPropertyName,
  assertValidTransaction,
  assertValidWrite,
  checkListOptions,
  eq,
  MAX_PAGE_SIZE,
  MAX_ENTITY_PROPERTIES,
  or,
  ValidationError,
  type TableEntity,
} from '../src';

describe('property checks shared by the table-store adapters', () => {
  it('accepts identifier-like names and refuses others, including system names in any case', () => {
    for (const good of ['total_amount', '_x', 'A1'])
      expect(() => assertValidPropertyName(good)).not.toThrow();
    for (const bad of [
      '1st',
      'with space',
      'dash-ed',
      'PartitionKey',
      'ROWKEY',
      'Timestamp',
      'ETag',
      '',
      'x'.repeat(256),
    ]) {
      expect(() => assertValidPropertyName(bad)).toThrow(ValidationError);
    }
  });

  it('refuses values no store keeps and too many properties', () => {
    const entity = (extra: Record<string, unknown>) =>
      ({ partitionKey: 'p', rowKey: 'r', ...extra }) as TableEntity;
    expect(() =>
      assertValidProperties(entity({ s: 's', n: 1.5, b: false, d: new Date(0), z: null, u: undefined })),
    ).not.toThrow();
    expect(() => assertValidProperties(entity({ list: [1] }))).toThrow(
      /Unknown EDM type for property "list" \(array\)/,
    );
    expect(() => assertValidProperties(entity({ n: Number.POSITIVE_INFINITY }))).toThrow(/finite/);
    expect(() => assertValidProperties(entity({ big: 1n }))).toThrow(/Unknown EDM type/);
    const wide: Record<string, number> = {};
    for (let i = 0; i <= MAX_ENTITY_PROPERTIES; i++) wide[`p${i}`] = i;
    expect(() => assertValidProperties(entity(wide))).toThrow(/at most 252/);
  });
});

describe('transaction checks', () => {
  it('refuses a row touched twice and an etag on a transactional delete', () => {
    expect(() =>
      assertValidTransaction([
        ['create', { partitionKey: 'p', rowKey: '1' }],
        ['update', { partitionKey: 'p', rowKey: '1' }],
      ]),
    ).toThrow(/appears more than once/);
    expect(() =>
      assertValidTransaction([['delete', { partitionKey: 'p', rowKey: '1', etag: 'W/"1"' }]]),
    ).toThrow(/cannot carry an etag/);
    expect(() =>
      assertValidTransaction([['delete', { partitionKey: 'p', rowKey: '1', etag: '*' }]]),
    ).not.toThrow();
    expect(() =>
      assertValidTransaction([['create', { partitionKey: 'p', rowKey: '1', bad: { x: 1 } } as never]]),
    ).toThrow(/Unknown EDM type/);
  });
});

describe('filter checks', () => {
  it('accepts key and property comparisons and refuses empty groups, system names and missing values', () => {
    expect(() =>
      assertValidFilter(and(eq('partitionKey', 'p'), or(eq('total', 1), eq('when', new Date())))),
    ).not.toThrow();
    expect(() => assertValidFilter(and())).toThrow(/at least one condition/);
    expect(() => assertValidFilter(eq('etag', 'x'))).toThrow(ValidationError);
    expect(() => assertValidFilter(eq('name', null as never))).toThrow(/needs a value/);
    expect(() => assertValidFilter({ op: 'like' as never, property: 'name', value: 'x' })).toThrow(
      /Unknown filter operator/,
    );
  });
});

describe('argument checks of the table-store methods', () => {
  it('checks a write: table name, keys and properties', () => {
    expect(() =>
      assertValidWrite('Receipts', { partitionKey: 'u1', rowKey: 'r1', total: 12.5 }),
    ).not.toThrow();
    expect(() => assertValidWrite('x', { partitionKey: 'u1', rowKey: 'r1' })).toThrow(/Table name "x"/);
    expect(() => assertValidWrite('Receipts', { partitionKey: 'u/1', rowKey: 'r1' })).toThrow(/partitionKey/);
    expect(() => assertValidWrite('Receipts', { partitionKey: 'u1', rowKey: 'r1', '1st': 1 })).toThrow(
      /Property name "1st"/,
    );
  });

  it('checks a point read or delete: table name and both keys', () => {
    expect(() => assertValidEntityAddress('Receipts', 'u1', 'r1')).not.toThrow();
    expect(() => assertValidEntityAddress('Receipts', 'u1', undefined)).toThrow(/rowKey must not be null/);
    expect(() => assertValidEntityAddress('1Receipts', 'u1', 'r1')).toThrow(ValidationError);
  });

  it('checks a listing and gives the page size to use', () => {
    expect(checkListOptions('Receipts', {})).toBe(MAX_PAGE_SIZE);
    expect(checkListOptions('Receipts', { pageSize: 5, partitionKey: 'u1' })).toBe(5);
    for (const pageSize of [0, 1.5, MAX_PAGE_SIZE + 1])
      expect(() => checkListOptions('Receipts', { pageSize })).toThrow(/pageSize must be a whole number/);
    expect(() => checkListOptions('Receipts', { partitionKey: 'a#b' })).toThrow(/partitionKey/);
    expect(() => checkListOptions('Receipts', { partitionKeyPrefix: 3 as never })).toThrow(
      /partitionKeyPrefix must be a string/,
    );
  });
});
