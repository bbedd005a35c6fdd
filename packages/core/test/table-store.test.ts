import { describe, expect, it } from 'vitest';
import {
  and,
  assertValidKey,
  assertValidTransaction,
  assertUpdateMode,
  eq,
  ge,
  lt,
  matchesFilter,
  ne,
  or,
  ValidationError,
  type TransactionAction,
} from '../src';

describe('key rules', () => {
  it('names the missing key', () => {
    expect(() => assertValidKey('partitionKey', undefined)).toThrow(/partitionKey must not be null/);
    expect(() => assertValidKey('rowKey', null)).toThrow(/rowKey must not be null/);
  });
  it('refuses characters Azure forbids and accepts quotes and non-ASCII text', () => {
    for (const bad of ['a/b', 'a\\b', 'a#b', 'a?b', 'a\u0001b']) {
      expect(() => assertValidKey('rowKey', bad)).toThrow(ValidationError);
    }
    expect(() => assertValidKey('rowKey', "O'Brien''s Café ☕")).not.toThrow();
  });
  it('allows only Merge and Replace', () => {
    expect(() => assertUpdateMode('Merge')).not.toThrow();
    expect(() => assertUpdateMode('merge')).toThrow('Unexpected value for update mode');
  });
});

describe('transaction rules', () => {
  const create = (pk: string, rk: string): TransactionAction => ['create', { partitionKey: pk, rowKey: rk }];
  it('refuses operations on more than one partition', () => {
    expect(() => assertValidTransaction([create('a', '1'), create('b', '1')])).toThrow(/same partitionKey/);
  });
  it('refuses more than 100 operations and an empty transaction', () => {
    const many = Array.from({ length: 101 }, (_, i) => create('a', String(i)));
    expect(() => assertValidTransaction(many)).toThrow(/at most 100/);
    expect(() => assertValidTransaction(many.slice(0, 100))).not.toThrow();
    expect(() => assertValidTransaction([])).toThrow(/at least one/);
  });
});

describe('matchesFilter', () => {
  const entity = {
    partitionKey: 'u1',
    rowKey: 'r1',
    total: 12.5,
    name: "Lidl's",
    paid: true,
    when: new Date('2024-01-02'),
  };
  it('compares strings, numbers, booleans and dates', () => {
    expect(matchesFilter(entity, eq('name', "Lidl's"))).toBe(true);
    expect(matchesFilter(entity, and(ge('total', 12.5), lt('total', 13)))).toBe(true);
    expect(matchesFilter(entity, eq('paid', false))).toBe(false);
    expect(matchesFilter(entity, ge('when', new Date('2024-01-01')))).toBe(true);
    expect(matchesFilter(entity, or(eq('name', 'Aldi'), eq('rowKey', 'r1')))).toBe(true);
  });
  it('treats a missing property as unequal to everything', () => {
    expect(matchesFilter(entity, eq('missing', 'x'))).toBe(false);
    expect(matchesFilter(entity, ne('missing', 'x'))).toBe(true);
    expect(matchesFilter(entity, eq('total', '12.5'))).toBe(false);
  });
});
