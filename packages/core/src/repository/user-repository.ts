import { ConflictError, NotFoundError } from '../errors';
import { inBatches } from '../in-batches';
import { RETRY_LIMITS, retryOnConflict } from '../retry';
import { TABLES } from '../entities';
import type { User } from '../entities';
import { listAllEntities, type TableEntity, type TableStore } from '../table-store';
import { appendDataChange, parseDataChanges, type ChangedSince, type DataChange } from './data-changes';
import { parseWriteIntents, writeIntentsText, type WriteIntent } from './write-intents';
import { PushTokenRows } from './push-tokens';
import {
  ACCOUNT_DELETED_AT,
  PENDING_UPLOADS,
  num,
  pendingUploads,
  refuseDeletedAccount,
  rowToUser,
  str,
  type Reservation,
  type UserRow,
} from './rows';
import { deleteRows } from './table-rows';

/** Owner rows released at once when an account is deleted. */
const DELETES_AT_ONCE = 8;

/** The version of a user's report data, and the writes that led to it (see data-changes.ts). */
export interface DataState {
  readonly version: string;
  readonly changes: DataChange[];
  /** Writes that started and have not been taken by the read models yet (see addWriteIntent). */
  readonly intents: WriteIntent[];
  /** Uploads' reservations of pending scans, each also the upload's intent (see settle-uploads.ts). */
  readonly uploads?: Reservation[];
}

/** The quota counts on a user's row (the limits and their messages are in use-cases/quotas.ts). */
export interface QuotaUsage {
  /** The UTC day (YYYY-MM-DD) the daily counts are of. */
  day: string;
  uploads: number;
  /** Receipts analysed again on `day`. */
  reanalyses: number;
  bytes: number;
  /** Pending scans reserved by uploads whose queue entry was not seen yet. */
  pending: Reservation[];
}

/**
 * The users aggregate: the user's row in Users (profile, push tokens, the version of the report
 * data with its change log and write intents, the quota counts, the deletion mark) and the other
 * rows of the user's partition (push tokens, image index, visits), as far as the account is
 * concerned. Every write of the row that a deleted account must not make reads it and writes it by
 * etag, refusing once the mark is there.
 */
export class UserRepository {
  private readonly tokens: PushTokenRows;

  constructor(private readonly store: TableStore) {
    this.tokens = new PushTokenRows(store);
  }

  /** The user's row, or null when the user never signed in and has no data. */
  async getUser(userId: string): Promise<UserRow | null> {
    const row = await this.store.getEntity(TABLES.users, userId, userId);
    return row ? rowToUser(row) : null;
  }

  /** Saves the profile; push tokens and data version are kept. */
  async saveUserProfile(user: User): Promise<void> {
    await this.store.upsertEntity(
      TABLES.users,
      { partitionKey: user.user_id, rowKey: user.user_id, ...user },
      'Merge',
    );
  }

  /**
   * Gives a device's push token to `userId`: a token belongs to one user only, and the latest
   * registration wins. The token's owner row is claimed first (by etag), then the token leaves the
   * previous owner's list and joins this user's. Should two registrations race and leave the token in
   * two lists, {@link pushTokensOf} still sends only to the owner.
   */
  registerFcmToken(userId: string, token: string): Promise<void> {
    return this.tokens.register(userId, token);
  }

  /**
   * Takes a device's push token from `userId` (sign-out): out of the user's list, and its owner row
   * removed when it is still this user's. Another user's registration of it is left alone.
   */
  unregisterFcmToken(userId: string, token: string): Promise<void> {
    return this.tokens.unregister(userId, token);
  }

  /**
   * Deletes the owner row of the push token with this key when it still names `userId` (by etag: a
   * registration by anyone meanwhile stands).
   * @returns whether a row was deleted
   */
  releasePushTokenOwner(userId: string, key: string): Promise<boolean> {
    return this.tokens.releaseOwner(userId, key);
  }

  /**
   * The push tokens to notify `userId` on: the user's list without tokens that another user has
   * registered since (those are dropped from the list). A token with no owner row was registered
   * before owner rows existed and is kept.
   */
  async pushTokensOf(userId: string): Promise<string[]> {
    return this.tokens.tokensOf(userId, (await this.getUser(userId))?.fcm_tokens ?? []);
  }

  /** Adds a device token (idempotent); keeps the newest MAX_FCM_TOKENS. */
  addFcmToken(userId: string, token: string): Promise<void> {
    return this.tokens.add(userId, token);
  }

  /** Removes tokens the push service reported invalid. */
  removeFcmTokens(userId: string, invalid: string[]): Promise<void> {
    return this.tokens.remove(userId, invalid);
  }

  /**
   * Marks the account as being deleted (see ACCOUNT_DELETED_AT), or takes the mark away (`at` null).
   * A plain write: it changes the row's etag, so a write of the user in progress that read the row
   * before fails its conditional write, reads again and finds the mark.
   */
  async markAccountDeleted(userId: string, at: Date | null): Promise<void> {
    await this.store.upsertEntity(
      TABLES.users,
      { partitionKey: userId, rowKey: userId, [ACCOUNT_DELETED_AT]: at ? at.toISOString() : '' },
      'Merge',
    );
  }

  /** The version of the user's report data ('0' before the first write). */
  async getDataVersion(userId: string): Promise<string> {
    return (await this.getDataState(userId)).version;
  }

  /** The version of the user's report data, the log of the writes that led to it, and writes in progress. */
  async getDataState(userId: string): Promise<DataState> {
    const row = await this.store.getEntity(TABLES.users, userId, userId);
    const raw = row ? str(row, 'data_changes') : null;
    let changes: DataChange[] | undefined;
    return {
      version: (row && str(row, 'data_version')) || '0',
      // Parsed only by a reader whose copy is behind: most reads need the version alone.
      get changes() {
        return (changes ??= parseDataChanges(raw));
      },
      intents: row ? parseWriteIntents(str(row, 'write_intents')) : [],
      uploads: row ? pendingUploads(row) : [],
    };
  }

  /**
   * Records on the user's row (by etag) that a write of these receipts and merchants is about to
   * start, before any of its rows is written: should it stop half-way, whoever finds the intent
   * brings the read models up to date with those rows (see use-cases/commit-write.ts).
   */
  async addWriteIntent(userId: string, intent: WriteIntent): Promise<void> {
    await this.editWriteIntents(userId, (intents) => [...intents.filter((i) => i.id !== intent.id), intent]);
  }

  /** Removes write intents from the user's row (by etag); ids no longer there are fine. */
  async removeWriteIntents(userId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.editWriteIntents(userId, (intents) => intents.filter((i) => !ids.includes(i.id)));
  }

  private async editWriteIntents(
    userId: string,
    edit: (intents: WriteIntent[]) => WriteIntent[],
  ): Promise<void> {
    await retryOnConflict(async () => {
      const row = await this.store.getEntity(TABLES.users, userId, userId);
      refuseDeletedAccount(row);
      const before = row ? parseWriteIntents(str(row, 'write_intents')) : [];
      const after = edit(before);
      if (row && after.length === before.length && after.every((i, at) => i === before[at])) return;
      const entity: TableEntity = {
        partitionKey: userId,
        rowKey: userId,
        write_intents: writeIntentsText(after),
      };
      if (row) await this.store.updateEntity(TABLES.users, entity, 'Merge', { etag: row.etag });
      else await this.store.createEntity(TABLES.users, { ...entity, user_id: userId });
    });
  }

  /**
   * Marks the user's report data as changed. Call after the write, so a report computed before
   * it is never taken for current. `changed` names what the write touched, for the log that lets an
   * older copy of the report be brought up to date by reading those rows alone; without it (or when
   * the user's row keeps changing under this write) the log is emptied and older copies are rebuilt.
   * The write intents named by `finished` are removed in the same conditional write.
   * @returns the new version
   */
  async bumpDataVersion(
    userId: string,
    now: Date,
    changed?: Partial<ChangedSince>,
    finished: readonly string[] = [],
  ): Promise<string> {
    const version = `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    if (changed) {
      try {
        return await retryOnConflict(async () => {
          const row = await this.store.getEntity(TABLES.users, userId, userId);
          refuseDeletedAccount(row);
          const log = appendDataChange(row ? parseDataChanges(str(row, 'data_changes')) : [], {
            from: (row && str(row, 'data_version')) || '0',
            to: version,
            files: [...new Set(changed.files ?? [])],
            merchants: [...new Set(changed.merchants ?? [])],
          });
          const entity: TableEntity = {
            partitionKey: userId,
            rowKey: userId,
            data_version: version,
            data_changes: JSON.stringify(log),
          };
          // A scan written or failed for an upload is past its reservation of a pending scan.
          const reserved = row ? pendingUploads(row) : [];
          const files = changed.files ?? [];
          if (reserved.some((r) => files.includes(r.f))) {
            entity[PENDING_UPLOADS] = JSON.stringify(reserved.filter((r) => !files.includes(r.f)));
          }
          const intents = row ? parseWriteIntents(str(row, 'write_intents')) : [];
          if (finished.length > 0 && intents.some((i) => finished.includes(i.id))) {
            entity.write_intents = writeIntentsText(intents.filter((i) => !finished.includes(i.id)));
          }
          if (row) await this.store.updateEntity(TABLES.users, entity, 'Merge', { etag: row.etag });
          else await this.store.createEntity(TABLES.users, { ...entity, user_id: userId });
          return version;
        });
      } catch (error) {
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
      }
    }
    // The log is given up (older copies rebuild); intents stay for the next write to finish.
    await this.store.upsertEntity(
      TABLES.users,
      { partitionKey: userId, rowKey: userId, user_id: userId, data_version: version, data_changes: '[]' },
      'Merge',
    );
    return version;
  }

  /**
   * Edits the quota counts on the user's row, by etag, reading the row again when another write
   * came first (uploads of one user at once all write this row, so the counts never go past a
   * limit). `edit` may throw to refuse; it sees the counts as stored.
   * @throws AccountDeletedError when the account is being deleted; ConflictError or NotFoundError
   *   when the row stayed busy through every try
   */
  async editQuotaUsage(userId: string, edit: (usage: QuotaUsage) => QuotaUsage): Promise<void> {
    await retryOnConflict(
      async () => {
        const row = await this.store.getEntity(TABLES.users, userId, userId);
        refuseDeletedAccount(row);
        const next = edit({
          day: (row && str(row, 'quota_day')) ?? '',
          uploads: (row && num(row, 'quota_uploads')) ?? 0,
          reanalyses: (row && num(row, 'quota_reanalyses')) ?? 0,
          bytes: (row && num(row, 'stored_bytes')) ?? 0,
          pending: row ? pendingUploads(row) : [],
        });
        const entity = {
          partitionKey: userId,
          rowKey: userId,
          quota_day: next.day,
          quota_uploads: next.uploads,
          quota_reanalyses: next.reanalyses,
          stored_bytes: next.bytes,
          [PENDING_UPLOADS]: JSON.stringify(next.pending),
        };
        if (row) await this.store.updateEntity(TABLES.users, entity, 'Merge', { etag: row.etag });
        else await this.store.createEntity(TABLES.users, { ...entity, user_id: userId });
      },
      { tries: RETRY_LIMITS.busyRowTries, maxPauseMs: RETRY_LIMITS.quotaMaxPauseMs },
    );
  }

  /**
   * Deletes the rows of the user's partition but the user's row (image index, visits, `~push~`
   * rows), and first the push-token owner rows that name the user, found by key from the `~push~`
   * rows and the token list (by etag: a token another user registered since stays theirs).
   * @returns how many rows were deleted
   */
  async deleteAccountRows(userId: string): Promise<number> {
    const rows = (await listAllEntities(this.store, TABLES.users, { partitionKey: userId })).filter(
      (r) => r.rowKey !== userId,
    );
    const keys = await this.tokens.keysOf(
      rows.map((r) => r.rowKey),
      (await this.getUser(userId))?.fcm_tokens ?? [],
    );
    let released = 0;
    await inBatches(keys, DELETES_AT_ONCE, async (key) => {
      if (await this.tokens.releaseOwner(userId, key)) released++;
    });
    return released + (await deleteRows(this.store, TABLES.users, rows));
  }

  /**
   * Deletes the user's row, the last of the account; one already gone is fine.
   * @returns how many rows were deleted (0 or 1)
   */
  async deleteUserRow(userId: string): Promise<number> {
    const row = await this.store.getEntity(TABLES.users, userId, userId);
    return row ? deleteRows(this.store, TABLES.users, [row]) : 0;
  }
}
