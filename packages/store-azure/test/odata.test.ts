import { describe, expect, it } from 'vitest';
import { and, eq, ge, gt, le, lt, ne, or, ValidationError } from '@receipts/core';
import { doubleLiteral, fromAzureEntity, literal, quote, toAzureEntity, toODataFilter } from '../src';

describe('OData literals', () => {
  it('doubles single quotes inside strings', () => {
    expect(quote("O'Brien")).toBe("'O''Brien'");
    expect(quote("''")).toBe("''''''");
    expect(literal('Café ☕')).toBe("'Café ☕'");
  });

  it('writes numbers as plain Edm.Double literals, never in exponent notation', () => {
    expect(doubleLiteral(5)).toBe('5.0');
    expect(doubleLiteral(-2)).toBe('-2.0');
    expect(doubleLiteral(12.99)).toBe('12.99');
    expect(doubleLiteral(1e-7)).toBe('0.0000001');
    expect(doubleLiteral(-1.5e-7)).toBe('-0.00000015');
    expect(doubleLiteral(1.5e21)).toBe('1500000000000000000000.0');
    expect(doubleLiteral(9007199254740991)).toBe('9007199254740991.0');
    for (const value of [1e-7, -1.5e-7, 1.5e21, 123.456e-10])
      expect(Number(doubleLiteral(value))).toBe(value);
  });

  it('writes dates and booleans as their EDM literals', () => {
    expect(literal(new Date('2024-01-02T03:04:05.678Z'))).toBe("datetime'2024-01-02T03:04:05.678Z'");
    expect(literal(true)).toBe('true');
  });
});

describe('toODataFilter', () => {
  it('translates each operator, maps the key names and writes ne as not(eq)', () => {
    expect(toODataFilter(eq('partitionKey', "u'1"))).toBe("PartitionKey eq 'u''1'");
    expect(toODataFilter(gt('rowKey', 'a'))).toBe("RowKey gt 'a'");
    expect(toODataFilter(ge('total', 10))).toBe('total ge 10.0');
    expect(toODataFilter(lt('total', 2.5))).toBe('total lt 2.5');
    expect(toODataFilter(le('paid', false))).toBe('paid le false');
    expect(toODataFilter(ne('name', 'x'))).toBe("not (name eq 'x')");
  });

  it('parenthesises and / or, nested', () => {
    expect(toODataFilter(and(eq('a', 1), or(eq('b', 'x'), ne('c', true))))).toBe(
      "(a eq 1.0) and ((b eq 'x') or (not (c eq true)))",
    );
  });

  it('refuses malformed filters', () => {
    expect(() => toODataFilter(or())).toThrow(ValidationError);
    expect(() => toODataFilter(eq('timestamp', 'x'))).toThrow(ValidationError);
    expect(() => toODataFilter(eq("x' or 1 eq 1", 'x'))).toThrow(ValidationError);
    expect(() => toODataFilter(eq('total', Number.POSITIVE_INFINITY))).toThrow(ValidationError);
  });
});

describe('entity conversion', () => {
  it('stores numbers as Edm.Double and null as an empty Edm.Binary marker', () => {
    const when = new Date('2024-01-01T00:00:00Z');
    expect(
      toAzureEntity({
        partitionKey: 'p',
        rowKey: 'r',
        n: 3,
        s: 's',
        b: true,
        d: when,
        z: null,
        u: undefined,
      }),
    ).toEqual({
      partitionKey: 'p',
      rowKey: 'r',
      n: { value: 3, type: 'Double' },
      s: 's',
      b: true,
      d: when,
      z: { value: '', type: 'Binary' },
    });
  });

  it('reads EDM values back as the port types and drops OData metadata', () => {
    const entity = fromAzureEntity({
      'odata.metadata': 'http://x/$metadata',
      partitionKey: 'p',
      rowKey: 'r',
      etag: 'W/"1"',
      timestamp: '2024-01-01T00:00:00.0000000Z',
      int64: 123n,
      empty: new Uint8Array(0),
      bytes: new Uint8Array([1, 2]),
      guid: { value: '0f8fad5b-d9cb-469f-a165-70867728950e', type: 'Guid' },
      when: new Date('2024-01-01T00:00:00Z'),
      n: 2.5,
    });
    expect(entity).toEqual({
      partitionKey: 'p',
      rowKey: 'r',
      etag: 'W/"1"',
      timestamp: '2024-01-01T00:00:00.0000000Z',
      int64: 123,
      empty: null,
      bytes: 'AQI=',
      guid: '0f8fad5b-d9cb-469f-a165-70867728950e',
      when: new Date('2024-01-01T00:00:00Z'),
      n: 2.5,
    });
  });
});
