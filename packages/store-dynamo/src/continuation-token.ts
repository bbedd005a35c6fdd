import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ValidationError } from '@receipts/core';
import { ATTR } from './key-layout';

/** How a listing is served: one partition from the table, or a table or prefix from index gsi1. */
export type ListMode = 'partition' | 'index';

/** The key attributes that locate a position in each kind of listing. */
const TOKEN_KEYS: Record<ListMode, string[]> = {
  partition: [ATTR.pk, ATTR.sk],
  index: [ATTR.pk, ATTR.sk, ATTR.gsi1pk, ATTR.gsi1sk],
};

/**
 * The start key that continues a listing right after this item.
 * @param item - the last item handed out
 * @param mode - the listing's mode
 */
export function startKeyOf(
  item: Record<string, AttributeValue>,
  mode: ListMode,
): Record<string, AttributeValue> {
  return Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, item[name]!]));
}

/**
 * LastEvaluatedKey (all string attributes) as base64url JSON, tagged with the listing it belongs to.
 * @param key - the start key of the next page
 * @param mode - the listing's mode
 */
export function encodeToken(key: Record<string, AttributeValue>, mode: ListMode): string {
  const plain = Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, key[name]?.S ?? '']));
  return Buffer.from(JSON.stringify({ m: mode, k: plain }), 'utf8').toString('base64url');
}

/**
 * A token back as the start key, after checking that it continues this very listing.
 * @param token - what a previous page returned
 * @param mode - the listing's mode
 * @param scope - the partition's pk (partition mode) or the table name (index mode)
 * @throws ValidationError when the token is malformed or belongs to another listing
 */
export function decodeToken(token: string, mode: ListMode, scope: string): Record<string, AttributeValue> {
  let parsed: { m?: unknown; k?: Record<string, unknown> } | undefined;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const key = parsed?.k;
  const valid =
    typeof token === 'string' &&
    parsed?.m === mode &&
    typeof key === 'object' &&
    key !== null &&
    TOKEN_KEYS[mode].every((name) => typeof key[name] === 'string') &&
    // A token continues the listing it came from: same partition, or same table for the index.
    (mode === 'partition' ? key[ATTR.pk] === scope : key[ATTR.gsi1pk] === scope);
  if (!valid) {
    throw new ValidationError(
      'The continuation token is not valid for this listing; pass back the token it returned.',
      {
        code: 'InvalidContinuationToken',
      },
    );
  }
  return Object.fromEntries(TOKEN_KEYS[mode].map((name) => [name, { S: key[name] as string }]));
}
