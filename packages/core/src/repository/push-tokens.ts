import { NotFoundError } from '../errors';
import { retryOnConflict } from '../retry';
import { TABLES } from '../entities';
import type { TableEntity, TableStore } from '../table-store';
import { sha256Hex } from './keys';
import { refuseDeletedAccount, rowToUser, str } from './rows';
import { deleteIfUnchanged } from './table-rows';

/** Most device tokens kept per user; the oldest is dropped first. */
export const MAX_FCM_TOKENS = 10;
/**
 * Longest stored token list, as JSON characters: Azure Tables takes at most 32K characters in a
 * string property, and ten tokens of the longest accepted size would not fit.
 */
export const MAX_FCM_TOKENS_CHARS = 30_000;

/**
 * Partition of the Users table that says which user each push token belongs to (row key: the
 * token's SHA-256 in hex, as tokens are longer than a key may be). User ids never contain `~`, so it
 * is never a user's partition.
 */
export const PUSH_TOKEN_OWNERS_PARTITION = '~push-token-owners';

/**
 * Row key prefix, in the user's partition of the Users table, of the push tokens the user registered
 * (`~push~<SHA-256 of the token>`): how deleting the account finds the owner rows that name the
 * user, by key, without reading other users' rows.
 */
export const PUSH_TOKEN_PREFIX = '~push~';

/** The row key of a push token's owner row. */
export async function pushTokenKey(token: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(token));
}

/**
 * The push tokens of the users aggregate: the `fcm_tokens` list on the user's row, the user's
 * `~push~` rows and the owner rows. Reached through UserRepository, whose methods of the same names
 * these are.
 */
export class PushTokenRows {
  constructor(private readonly store: TableStore) {}

  /** See UserRepository.registerFcmToken. */
  async register(userId: string, token: string): Promise<void> {
    const key = await pushTokenKey(token);
    refuseDeletedAccount(await this.store.getEntity(TABLES.users, userId, userId));
    // Before the owner row: deleting the account finds the owner row from this one.
    await this.store.upsertEntity(
      TABLES.users,
      { partitionKey: userId, rowKey: PUSH_TOKEN_PREFIX + key, user_id: userId },
      'Replace',
    );
    let previous: string | null = null;
    await retryOnConflict(async () => {
      const owner = await this.store.getEntity(TABLES.users, PUSH_TOKEN_OWNERS_PARTITION, key);
      previous = owner ? str(owner, 'user_id') : null;
      const entity: TableEntity = { partitionKey: PUSH_TOKEN_OWNERS_PARTITION, rowKey: key, user_id: userId };
      if (!owner) await this.store.createEntity(TABLES.users, entity);
      else if (previous !== userId)
        await this.store.updateEntity(TABLES.users, entity, 'Replace', { etag: owner.etag });
    });
    if (previous && previous !== userId) await this.remove(previous, [token]);
    await this.add(userId, token);
  }

  /** See UserRepository.unregisterFcmToken. */
  async unregister(userId: string, token: string): Promise<void> {
    await this.remove(userId, [token]);
    const key = await pushTokenKey(token);
    await this.releaseOwner(userId, key);
    await this.store.deleteEntity(TABLES.users, userId, PUSH_TOKEN_PREFIX + key).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  }

  /** See UserRepository.releasePushTokenOwner. */
  async releaseOwner(userId: string, key: string): Promise<boolean> {
    const owner = await this.store.getEntity(TABLES.users, PUSH_TOKEN_OWNERS_PARTITION, key);
    if (!owner || str(owner, 'user_id') !== userId) return false;
    return deleteIfUnchanged(this.store, TABLES.users, PUSH_TOKEN_OWNERS_PARTITION, key, owner.etag);
  }

  /** See UserRepository.pushTokensOf. */
  async tokensOf(userId: string, tokens: string[]): Promise<string[]> {
    const owners = await Promise.all(
      tokens.map(async (token) => {
        const row = await this.store.getEntity(
          TABLES.users,
          PUSH_TOKEN_OWNERS_PARTITION,
          await pushTokenKey(token),
        );
        return row ? str(row, 'user_id') : null;
      }),
    );
    const moved = tokens.filter((_, i) => owners[i] !== null && owners[i] !== userId);
    await this.remove(userId, moved);
    return tokens.filter((token) => !moved.includes(token));
  }

  /** See UserRepository.addFcmToken. */
  async add(userId: string, token: string): Promise<void> {
    await this.edit(userId, (tokens) => {
      const kept = [...tokens.filter((t) => t !== token), token].slice(-MAX_FCM_TOKENS);
      while (kept.length > 1 && JSON.stringify(kept).length > MAX_FCM_TOKENS_CHARS) kept.shift();
      return kept;
    });
  }

  /** See UserRepository.removeFcmTokens. */
  async remove(userId: string, invalid: string[]): Promise<void> {
    if (invalid.length === 0) return;
    await this.edit(userId, (tokens) => tokens.filter((t) => !invalid.includes(t)));
  }

  /**
   * The keys of the owner rows that may name the user: from the user's `~push~` row keys, and the
   * token list for tokens registered before those rows were kept.
   */
  async keysOf(userRowKeys: readonly string[], tokens: readonly string[]): Promise<string[]> {
    return [
      ...new Set([
        ...userRowKeys
          .filter((k) => k.startsWith(PUSH_TOKEN_PREFIX))
          .map((k) => k.slice(PUSH_TOKEN_PREFIX.length)),
        ...(await Promise.all(tokens.map(pushTokenKey))),
      ]),
    ];
  }

  private async edit(userId: string, edit: (tokens: string[]) => string[]): Promise<void> {
    // Optimistic concurrency: two devices registering at once must both end up in the list.
    await retryOnConflict(async () => {
      const row = await this.store.getEntity(TABLES.users, userId, userId);
      refuseDeletedAccount(row);
      const before = row ? rowToUser(row).fcm_tokens : [];
      const after = edit(before);
      const entity: TableEntity = { partitionKey: userId, rowKey: userId, fcm_tokens: JSON.stringify(after) };
      if (row) await this.store.updateEntity(TABLES.users, entity, 'Merge', { etag: row.etag });
      else await this.store.createEntity(TABLES.users, { ...entity, user_id: userId });
    });
  }
}
