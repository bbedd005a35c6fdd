import { describe, expect, it } from 'vitest';
import { ValidationError } from '@receipts/core';
import { decodeToken, encodeToken, startKeyOf } from '../src/continuation-token';

const item = {
  pk: { S: 'Receipts#user-1' },
  sk: { S: 'r#b' },
  gsi1pk: { S: 'Receipts' },
  gsi1sk: { S: 'user-1\u0001b' },
  p_total: { N: '12.5' },
};

describe('continuation tokens', () => {
  it('continue a partition listing right after the item they were made from', () => {
    const token = encodeToken(startKeyOf(item, 'partition'), 'partition');
    expect(decodeToken(token, 'partition', 'Receipts#user-1')).toEqual({ pk: item.pk, sk: item.sk });
  });

  it('carry the index keys for a whole-table listing and nothing of the properties', () => {
    const token = encodeToken(startKeyOf(item, 'index'), 'index');
    expect(decodeToken(token, 'index', 'Receipts')).toEqual({
      pk: item.pk,
      sk: item.sk,
      gsi1pk: item.gsi1pk,
      gsi1sk: item.gsi1sk,
    });
  });

  it('refuse a token of another partition, another table or another kind of listing', () => {
    const partitionToken = encodeToken(startKeyOf(item, 'partition'), 'partition');
    const indexToken = encodeToken(startKeyOf(item, 'index'), 'index');
    expect(() => decodeToken(partitionToken, 'partition', 'Receipts#user-2')).toThrow(ValidationError);
    expect(() => decodeToken(indexToken, 'index', 'Merchants')).toThrow(ValidationError);
    expect(() => decodeToken(partitionToken, 'index', 'Receipts')).toThrow(ValidationError);
  });

  it('refuse a token that is not one of ours, with words the caller can act on', () => {
    expect(() => decodeToken('not-a-token', 'partition', 'Receipts#user-1')).toThrow(
      /pass back the token it returned/,
    );
    const forged = Buffer.from(JSON.stringify({ m: 'partition', k: { pk: 'Receipts#user-1' } })).toString(
      'base64url',
    );
    expect(() => decodeToken(forged, 'partition', 'Receipts#user-1')).toThrow(ValidationError);
  });
});
