import { ConflictError, NotFoundError } from '../errors';
import { inBatches } from '../in-batches';
import { retryOnConflict } from '../retry';
import { TABLES } from '../entities';
import type { User } from '../entities';
import type { ScanJob } from '../ports';
import {
  MAX_TRANSACTION_ACTIONS,
  eq,
  listAllEntities,
  ne,
  type ListOptions,
  type StoredEntity,
  type TableEntity,
  type TableStore,
  type TransactionAction,
} from '../table-store';
import { appendDataChange, parseDataChanges, type ChangedSince, type DataChange } from './data-changes';
import { parseWriteIntents, writeIntentsText, type WriteIntent } from './write-intents';
import { BRAND_PARTITION, CORPORATION_PARTITION, dictionaryKey, taxRowKey, userKeyPrefix } from './keys';
import {
  itemToRow,
  merchantToRow,
  queueToRow,
  receiptToRow,
  rowToItem,
  rowToMerchant,
  rowToQueue,
  rowToReceipt,
  rowToTax,
  jsonStrings,
  refuseDeletedAccount,
  pendingUploads,
  ACCOUNT_DELETED_AT,
  PENDING_UPLOADS,
  str,
  taxToRow,
  type ItemRow,
  type MerchantRow,
  type QueueRow,
  type ReceiptRow,
  type Reservation,
} from './rows';
import type { Tax } from '../entities';

/** Receipts whose items are read from their own partition at once (see listItemsOfReceipts). */
const CONSISTENT_READS_AT_ONCE = 16;

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

/** SHA-256 of the bytes, in hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Web Crypto: a global in Node 20+ and in browsers; core imports no Node module.
  // digest takes no view of a SharedArrayBuffer; such bytes are copied first.
  const own =
    bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
  const digest = await crypto.subtle.digest('SHA-256', own);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Row key prefix, in the user's partition of the Users table, of the rows that say which upload of
 * the user holds an image (`~image~<SHA-256 of its bytes>`). User ids never contain `~`, so it is
 * never the user's own row.
 */
export const IMAGE_HASH_PREFIX = '~image~';

/** Which upload of a user holds an image: the row keyed by the SHA-256 of its bytes. */
export interface ImageHashRow {
  userId: string;
  sha256: string;
  fileName: string;
  uploaded_at: string;
}

/**
 * Row key prefix, in the user's partition of the Users table, of the rows that list the user's
 * receipts of one visit (`~visit~<SHA-256 of merchant, date, total and currency>`): how a scan finds
 * a receipt it may duplicate with one point read.
 */
export const VISIT_PREFIX = '~visit~';

/** The version of a user's report data, and the writes that led to it (see data-changes.ts). */
export interface DataState {
  readonly version: string;
  readonly changes: DataChange[];
  /** Writes that started and have not been taken by the read models yet (see addWriteIntent). */
  readonly intents: WriteIntent[];
  /** Uploads' reservations of pending scans, each also the upload's intent (see settle-uploads.ts). */
  readonly uploads?: Reservation[];
}

/** A user's row: the profile, the push tokens and the version of the user's report data. */
export interface UserRow extends User {
  fcm_tokens: string[];
  data_version: string | null;
}

/**
 * The table layout of the app over the TableStore port (see ./README.md). Every method that serves
 * one user reads only that user's partitions or key range.
 */
export class ReceiptRepository {
  constructor(private readonly store: TableStore) {}

  // ---- Users -------------------------------------------------------------------------------------

  /** The user's row, or null when the user never signed in and has no data. */
  async getUser(userId: string): Promise<UserRow | null> {
    const row = await this.store.getEntity(TABLES.users, userId, userId);
    return row ? toUserRow(row) : null;
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
  async registerFcmToken(userId: string, token: string): Promise<void> {
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
    if (previous && previous !== userId) await this.removeFcmTokens(previous, [token]);
    await this.addFcmToken(userId, token);
  }

  /**
   * Takes a device's push token from `userId` (sign-out): out of the user's list, and its owner row
   * removed when it is still this user's. Another user's registration of it is left alone.
   */
  async unregisterFcmToken(userId: string, token: string): Promise<void> {
    await this.removeFcmTokens(userId, [token]);
    const key = await pushTokenKey(token);
    await this.releasePushTokenOwner(userId, key);
    await this.store.deleteEntity(TABLES.users, userId, PUSH_TOKEN_PREFIX + key).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  }

  /**
   * Deletes the owner row of the push token with this key when it still names `userId` (by etag: a
   * registration by anyone meanwhile stands).
   * @returns whether a row was deleted
   */
  async releasePushTokenOwner(userId: string, key: string): Promise<boolean> {
    const owner = await this.store.getEntity(TABLES.users, PUSH_TOKEN_OWNERS_PARTITION, key);
    if (!owner || str(owner, 'user_id') !== userId) return false;
    try {
      await this.store.deleteEntity(TABLES.users, PUSH_TOKEN_OWNERS_PARTITION, key, { etag: owner.etag });
      return true;
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
      return false;
    }
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

  /**
   * The push tokens to notify `userId` on: the user's list without tokens that another user has
   * registered since (those are dropped from the list). A token with no owner row was registered
   * before owner rows existed and is kept.
   */
  async pushTokensOf(userId: string): Promise<string[]> {
    const user = await this.getUser(userId);
    const tokens = user?.fcm_tokens ?? [];
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
    await this.removeFcmTokens(userId, moved);
    return tokens.filter((token) => !moved.includes(token));
  }

  /** Adds a device token (idempotent); keeps the newest MAX_FCM_TOKENS. */
  async addFcmToken(userId: string, token: string): Promise<void> {
    await this.editTokens(userId, (tokens) => {
      const kept = [...tokens.filter((t) => t !== token), token].slice(-MAX_FCM_TOKENS);
      while (kept.length > 1 && JSON.stringify(kept).length > MAX_FCM_TOKENS_CHARS) kept.shift();
      return kept;
    });
  }

  /** Removes tokens the push service reported invalid. */
  async removeFcmTokens(userId: string, invalid: string[]): Promise<void> {
    if (invalid.length === 0) return;
    await this.editTokens(userId, (tokens) => tokens.filter((t) => !invalid.includes(t)));
  }

  private async editTokens(userId: string, edit: (tokens: string[]) => string[]): Promise<void> {
    // Optimistic concurrency: two devices registering at once must both end up in the list.
    await retryOnConflict(async () => {
      const row = await this.store.getEntity(TABLES.users, userId, userId);
      refuseDeletedAccount(row);
      const before = row ? toUserRow(row).fcm_tokens : [];
      const after = edit(before);
      const entity: TableEntity = { partitionKey: userId, rowKey: userId, fcm_tokens: JSON.stringify(after) };
      if (row) await this.store.updateEntity(TABLES.users, entity, 'Merge', { etag: row.etag });
      else await this.store.createEntity(TABLES.users, { ...entity, user_id: userId });
    });
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

  // ---- Image hashes ------------------------------------------------------------------------------

  /** The upload of the user that holds the image with this SHA-256, with the row's etag, or null. */
  async getImageHash(userId: string, sha256: string): Promise<{ row: ImageHashRow; etag: string } | null> {
    const row = await this.store.getEntity(TABLES.users, userId, IMAGE_HASH_PREFIX + sha256);
    if (!row) return null;
    return {
      row: {
        userId,
        sha256,
        fileName: str(row, 'file_name') ?? '',
        uploaded_at: str(row, 'uploaded_at') ?? '',
      },
      etag: row.etag,
    };
  }

  /**
   * Records that `row.fileName` holds the image: insert-only (ConflictError when one exists), or,
   * with `etag`, over the row read with it (ConflictError or NotFoundError when it changed).
   */
  async saveImageHash(row: ImageHashRow, etag?: string): Promise<string> {
    const entity: TableEntity = {
      partitionKey: row.userId,
      rowKey: IMAGE_HASH_PREFIX + row.sha256,
      file_name: row.fileName,
      uploaded_at: row.uploaded_at,
    };
    const written = etag
      ? await this.store.updateEntity(TABLES.users, entity, 'Replace', { etag })
      : await this.store.createEntity(TABLES.users, entity);
    return written.etag;
  }

  /**
   * Removes the image's row when it still names `fileName` (another upload that took it over since
   * keeps it); a missing row is fine.
   */
  async deleteImageHash(userId: string, sha256: string, fileName: string): Promise<void> {
    const found = await this.getImageHash(userId, sha256);
    if (!found || found.row.fileName !== fileName) return;
    try {
      await this.store.deleteEntity(TABLES.users, userId, IMAGE_HASH_PREFIX + sha256, { etag: found.etag });
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    }
  }

  // ---- Visits ------------------------------------------------------------------------------------

  /** The ids of the user's receipts recorded under this visit key (see VISIT_PREFIX). */
  async visitReceipts(userId: string, visitKey: string): Promise<string[]> {
    const row = await this.store.getEntity(TABLES.users, userId, VISIT_PREFIX + visitKey);
    return row ? jsonStrings(row, 'receipt_ids') : [];
  }

  /** Records a receipt under a visit key (idempotent). */
  async addToVisit(userId: string, visitKey: string, receiptId: string): Promise<void> {
    await this.editVisit(userId, visitKey, (ids) => (ids.includes(receiptId) ? ids : [...ids, receiptId]));
  }

  /** Takes a receipt out of a visit key's list; the row goes with its last receipt. */
  async removeFromVisit(userId: string, visitKey: string, receiptId: string): Promise<void> {
    await this.editVisit(userId, visitKey, (ids) => ids.filter((id) => id !== receiptId));
  }

  private async editVisit(
    userId: string,
    visitKey: string,
    edit: (ids: string[]) => string[],
  ): Promise<void> {
    const rowKey = VISIT_PREFIX + visitKey;
    // Optimistic concurrency: two scans of one visit at once must both end up in the list.
    await retryOnConflict(async () => {
      const row = await this.store.getEntity(TABLES.users, userId, rowKey);
      const before = row ? jsonStrings(row, 'receipt_ids') : [];
      const after = edit(before);
      if (after.length === before.length && after.every((id, i) => id === before[i])) return;
      const entity: TableEntity = { partitionKey: userId, rowKey, receipt_ids: JSON.stringify(after) };
      if (!row) await this.store.createEntity(TABLES.users, entity);
      else if (after.length === 0)
        await this.store.deleteEntity(TABLES.users, userId, rowKey, { etag: row.etag });
      else await this.store.updateEntity(TABLES.users, entity, 'Replace', { etag: row.etag });
    });
  }

  // ---- Scan queue --------------------------------------------------------------------------------

  async getQueueEntry(userId: string, fileName: string): Promise<{ entry: QueueRow; etag: string } | null> {
    const row = await this.store.getEntity(TABLES.scanQueue, userId, fileName);
    return row ? { entry: rowToQueue(row), etag: row.etag } : null;
  }

  /**
   * Writes the entry; with `etag`, only when it is unchanged since read (else ConflictError, or
   * NotFoundError when it is gone).
   * @returns the entry's new etag
   */
  async saveQueueEntry(entry: QueueRow, etag?: string): Promise<string> {
    const written = etag
      ? await this.store.updateEntity(TABLES.scanQueue, queueToRow(entry), 'Replace', { etag })
      : await this.store.upsertEntity(TABLES.scanQueue, queueToRow(entry), 'Replace');
    return written.etag;
  }

  /**
   * Writes a new entry, only when there is none for this file name (else ConflictError).
   * @returns the entry's etag
   */
  async createQueueEntry(entry: QueueRow): Promise<string> {
    return (await this.store.createEntity(TABLES.scanQueue, queueToRow(entry))).etag;
  }

  /**
   * Removes the entry; a missing one is fine. With `etag`, only when it is unchanged since read
   * (else ConflictError).
   */
  async deleteQueueEntry(userId: string, fileName: string, etag?: string): Promise<void> {
    await ignoreNotFound(
      this.store.deleteEntity(TABLES.scanQueue, userId, fileName, etag ? { etag } : undefined),
    );
  }

  /** The user's pending and failed scans, oldest upload first. */
  async listQueue(userId: string): Promise<QueueRow[]> {
    const rows = await listAllEntities(this.store, TABLES.scanQueue, { partitionKey: userId });
    return rows.map(rowToQueue).sort((a, b) => a.uploaded_at.localeCompare(b.uploaded_at));
  }

  /**
   * Scans of every user that are queued or were being analysed: what a restarted local worker must
   * pick up again. Reads the whole (small, transient) queue table; used at start-up only.
   */
  async listUnfinishedScans(): Promise<ScanJob[]> {
    return (await this.listUnfinishedScanEntries()).map(({ entry }) => ({
      userId: entry.userId,
      fileName: entry.fileName,
    }));
  }

  /** The entries of listUnfinishedScans, with their etags. */
  async listUnfinishedScanEntries(): Promise<{ entry: QueueRow; etag: string }[]> {
    const rows = await listAllEntities(this.store, TABLES.scanQueue, { filter: ne('status', 'Failed') });
    return rows
      .map((row) => ({ entry: rowToQueue(row), etag: row.etag }))
      .sort((a, b) => a.entry.uploaded_at.localeCompare(b.entry.uploaded_at));
  }

  // ---- Receipts ----------------------------------------------------------------------------------

  async getReceipt(userId: string, receiptId: string): Promise<ReceiptRow | null> {
    const row = await this.store.getEntity(TABLES.receipts, userId, receiptId);
    return row ? rowToReceipt(row) : null;
  }

  async listReceipts(userId: string): Promise<ReceiptRow[]> {
    return (await listAllEntities(this.store, TABLES.receipts, { partitionKey: userId })).map(rowToReceipt);
  }

  async saveReceipt(receipt: ReceiptRow): Promise<void> {
    await this.store.upsertEntity(TABLES.receipts, receiptToRow(receipt), 'Replace');
  }

  /**
   * Replaces the receipt row only when it is unchanged since it was read with `etag`.
   * @returns the row's new etag
   * @throws ConflictError when another write came first, NotFoundError when the row is gone
   */
  async updateReceipt(receipt: ReceiptRow, etag: string): Promise<string> {
    return (await this.store.updateEntity(TABLES.receipts, receiptToRow(receipt), 'Replace', { etag })).etag;
  }

  /** The user's receipts from this merchant. */
  async listReceiptsOfMerchant(userId: string, merchantId: string): Promise<ReceiptRow[]> {
    const rows = await listAllEntities(this.store, TABLES.receipts, {
      partitionKey: userId,
      filter: eq('merchant_id', merchantId),
    });
    return rows.map(rowToReceipt);
  }

  async deleteReceipt(userId: string, receiptId: string): Promise<void> {
    await ignoreNotFound(this.store.deleteEntity(TABLES.receipts, userId, receiptId));
  }

  /** Whether any receipt of the user other than `exceptReceiptId` is from this merchant. */
  async merchantHasReceipts(userId: string, merchantId: string, exceptReceiptId?: string): Promise<boolean> {
    return this.any(
      TABLES.receipts,
      { partitionKey: userId, filter: eq('merchant_id', merchantId) },
      (row) => row.rowKey !== exceptReceiptId,
    );
  }

  // ---- Merchants ---------------------------------------------------------------------------------

  async listMerchants(userId: string): Promise<MerchantRow[]> {
    return (await listAllEntities(this.store, TABLES.merchants, { partitionKey: userId })).map(rowToMerchant);
  }

  async getMerchant(userId: string, merchantId: string): Promise<MerchantRow | null> {
    const row = await this.store.getEntity(TABLES.merchants, userId, merchantId);
    return row ? rowToMerchant(row) : null;
  }

  /**
   * Writes the merchant, merging into the stored row: two scans of one shop at once each add what
   * they know, and neither erases the other's fields.
   */
  async saveMerchant(merchant: MerchantRow): Promise<void> {
    await this.store.upsertEntity(TABLES.merchants, withoutNulls(merchantToRow(merchant)), 'Merge');
  }

  /**
   * Replaces the merchant row only when it is unchanged since it was read with `etag`.
   * @throws ConflictError when another write came first, NotFoundError when the row is gone
   */
  async updateMerchant(merchant: MerchantRow, etag: string): Promise<string> {
    return (await this.store.updateEntity(TABLES.merchants, merchantToRow(merchant), 'Replace', { etag }))
      .etag;
  }

  /** Removes the merchant; with `etag`, only when it is unchanged since read (else ConflictError). */
  async deleteMerchant(userId: string, merchantId: string, etag?: string): Promise<void> {
    await ignoreNotFound(
      this.store.deleteEntity(TABLES.merchants, userId, merchantId, etag ? { etag } : undefined),
    );
  }

  // ---- Items and taxes ---------------------------------------------------------------------------

  /** Every item of every receipt of the user: one key-range query over the user's item partitions. */
  async listItemsOfUser(userId: string): Promise<ItemRow[]> {
    const rows = await listAllEntities(this.store, TABLES.items, {
      partitionKeyPrefix: userKeyPrefix(userId),
    });
    return rows.map(rowToItem);
  }

  /**
   * The items of these receipts of the user, as current as the receipts. The user-wide listing
   * (listItemsOfUser) may come from an index that lags behind the writes (DynamoDB's global
   * secondary index is eventually consistent); a receipt whose listed items are not as many as its
   * row says, or whose row does not say, has its own partition read instead, which is consistent
   * on every store.
   */
  async listItemsOfReceipts(userId: string, receipts: ReceiptRow[]): Promise<ItemRow[]> {
    const listed = new Map<string, ItemRow[]>();
    for (const item of await this.listItemsOfUser(userId)) {
      const group = listed.get(item.receipt_id);
      if (group) group.push(item);
      else listed.set(item.receipt_id, [item]);
    }
    const behind = receipts.filter(
      (r) => typeof r.item_count !== 'number' || (listed.get(r.receipt_id)?.length ?? 0) !== r.item_count,
    );
    const read = await inBatches(behind, CONSISTENT_READS_AT_ONCE, (r) =>
      this.listItemsOfReceipt(r.receipt_id),
    );
    behind.forEach((r, j) => listed.set(r.receipt_id, read[j]!));
    return receipts.flatMap((r) => listed.get(r.receipt_id) ?? []);
  }

  async listItemsOfReceipt(receiptId: string): Promise<ItemRow[]> {
    return (await listAllEntities(this.store, TABLES.items, { partitionKey: receiptId })).map(rowToItem);
  }

  /**
   * Makes the receipt's items exactly `items`: one transaction (Items are partitioned by receipt),
   * so a reader sees all of a receipt's items or none of the new ones. A receipt with more than
   * 100 lines takes several transactions.
   */
  async replaceItems(receiptId: string, items: ItemRow[]): Promise<void> {
    await this.replacePartition(TABLES.items, receiptId, items.map(itemToRow));
  }

  /** Writes one item of a receipt, replacing it when it exists. */
  async saveItem(item: ItemRow): Promise<void> {
    await this.store.upsertEntity(TABLES.items, itemToRow(item), 'Replace');
  }

  async deleteItem(receiptId: string, itemId: string): Promise<void> {
    await ignoreNotFound(this.store.deleteEntity(TABLES.items, receiptId, itemId));
  }

  async listTaxesOfReceipt(receiptId: string): Promise<Tax[]> {
    return (await listAllEntities(this.store, TABLES.taxes, { partitionKey: receiptId })).map(rowToTax);
  }

  async replaceTaxes(receiptId: string, taxes: Tax[]): Promise<void> {
    await this.replacePartition(
      TABLES.taxes,
      receiptId,
      taxes.map((tax, i) => taxToRow(tax, taxRowKey(i))),
    );
  }

  private async replacePartition(table: string, partitionKey: string, rows: TableEntity[]): Promise<void> {
    const existing = await listAllEntities(this.store, table, { partitionKey });
    const keep = new Set(rows.map((r) => r.rowKey));
    const actions: TransactionAction[] = [
      ...rows.map((row): TransactionAction => ['upsert', row, 'Replace']),
      ...existing
        .filter((row) => !keep.has(row.rowKey))
        .map((row): TransactionAction => ['delete', { partitionKey, rowKey: row.rowKey }]),
    ];
    for (let i = 0; i < actions.length; i += MAX_TRANSACTION_ACTIONS) {
      await this.store.submitTransaction(table, actions.slice(i, i + MAX_TRANSACTION_ACTIONS));
    }
  }

  // ---- Shared dictionaries -----------------------------------------------------------------------

  /** Records a brand and its owner in the shared dictionary (an unknown owner does not erase a known one). */
  async saveBrand(name: string, owningCorporation: string | null): Promise<void> {
    const entity: TableEntity = { partitionKey: BRAND_PARTITION, rowKey: dictionaryKey(name), name };
    if (owningCorporation) entity.owning_corporation = owningCorporation;
    await this.store.upsertEntity(TABLES.brands, entity, 'Merge');
  }

  async saveCorporation(name: string): Promise<void> {
    await this.store.upsertEntity(
      TABLES.corporations,
      { partitionKey: CORPORATION_PARTITION, rowKey: dictionaryKey(name), name },
      'Merge',
    );
  }

  async getBrand(name: string): Promise<{ name: string; owning_corporation: string | null } | null> {
    const row = await this.store.getEntity(TABLES.brands, BRAND_PARTITION, dictionaryKey(name));
    return row
      ? { name: str(row, 'name') ?? name, owning_corporation: str(row, 'owning_corporation') }
      : null;
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private async any(
    table: string,
    options: ListOptions,
    accept: (row: StoredEntity) => boolean,
  ): Promise<boolean> {
    // A filtered page may come back empty with a continuation token, so follow the pages.
    let continuationToken: string | undefined;
    do {
      const page = await this.store.listEntities(table, { ...options, continuationToken });
      if (page.items.some(accept)) return true;
      continuationToken = page.continuationToken;
    } while (continuationToken);
    return false;
  }
}

function toUserRow(row: StoredEntity): UserRow {
  let tokens: string[] = [];
  const raw = str(row, 'fcm_tokens');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) tokens = parsed.filter((t): t is string => typeof t === 'string');
    } catch {
      // A damaged token list is dropped: the devices register again on their next sign-in.
      tokens = [];
    }
  }
  return {
    user_id: row.partitionKey,
    user_email: str(row, 'user_email') ?? '',
    user_name: str(row, 'user_name') ?? '',
    fcm_tokens: tokens,
    data_version: str(row, 'data_version'),
  };
}

/** The entity without its null properties: merged, a null would erase what another writer stored. */
function withoutNulls(entity: TableEntity): TableEntity {
  return Object.fromEntries(Object.entries(entity).filter(([, value]) => value !== null)) as TableEntity;
}

async function ignoreNotFound(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
