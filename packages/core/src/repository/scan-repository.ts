import { TABLES } from '../entities';
import type { ScanJob } from '../ports';
import { listAllEntities, ne, type TableEntity, type TableStore } from '../table-store';
import { queueToRow, rowToQueue, str, type QueueRow } from './rows';
import { deleteIfUnchanged, ignoreNotFound } from './table-rows';

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
 * The scans aggregate: the ScanQueue entries (an upload waiting for, being given, or having failed
 * its analysis) and the user's image index (which upload holds an image), by which an upload finds
 * the same image uploaded before.
 */
export class ScanRepository {
  constructor(private readonly store: TableStore) {}

  // The scan queue.

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
    const rows = await this.listQueueEntries(userId);
    return rows.map(({ entry }) => entry).sort((a, b) => a.uploaded_at.localeCompare(b.uploaded_at));
  }

  /** The user's queue entries with their etags, in no particular order. */
  async listQueueEntries(userId: string): Promise<{ entry: QueueRow; etag: string }[]> {
    const rows = await listAllEntities(this.store, TABLES.scanQueue, { partitionKey: userId });
    return rows.map((row) => ({ entry: rowToQueue(row), etag: row.etag }));
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

  // The image index.

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
    await deleteIfUnchanged(this.store, TABLES.users, userId, IMAGE_HASH_PREFIX + sha256, found.etag);
  }
}
