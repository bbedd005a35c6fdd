import { retryOnConflict } from '../retry';
import { TABLES } from '../entities';
import type { Tax } from '../entities';
import { inBatches } from '../in-batches';
import { eq, listAllEntities, type TableEntity, type TableStore } from '../table-store';
import { taxRowKey, userKeyPrefix } from './keys';
import {
  itemToRow,
  jsonStrings,
  receiptToRow,
  rowToItem,
  rowToReceipt,
  rowToTax,
  taxToRow,
  type ItemRow,
  type ReceiptRow,
} from './rows';
import { anyRow, deleteRows, ignoreNotFound, replacePartition } from './table-rows';

/** Receipts whose items are read from their own partition at once (see listItemsOfReceipts). */
const CONSISTENT_READS_AT_ONCE = 16;

/**
 * Row key prefix, in the user's partition of the Users table, of the rows that list the user's
 * receipts of one visit (`~visit~<SHA-256 of merchant, date, total and currency>`): how a scan finds
 * a receipt it may duplicate with one point read.
 */
export const VISIT_PREFIX = '~visit~';

/**
 * The receipts aggregate: a receipt's row in Receipts with its items (Items, partitioned by receipt)
 * and taxes (Taxes, likewise), and the visit index (the `~visit~` rows of the user's partition of
 * Users) that lists the user's receipts of one merchant, date and total. Every method that serves
 * one user reads only that user's partitions or key range.
 */
export class ReceiptRepository {
  constructor(private readonly store: TableStore) {}

  // Receipts.

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
    return anyRow(
      this.store,
      TABLES.receipts,
      { partitionKey: userId, filter: eq('merchant_id', merchantId) },
      (row) => row.rowKey !== exceptReceiptId,
    );
  }

  /**
   * Deletes the receipt's items and taxes, the two partitions of one receipt id (whether or not its
   * receipt row exists).
   * @returns how many rows there were
   */
  async deleteItemsAndTaxes(receiptId: string): Promise<number> {
    const [items, taxes] = await Promise.all([
      listAllEntities(this.store, TABLES.items, { partitionKey: receiptId }),
      listAllEntities(this.store, TABLES.taxes, { partitionKey: receiptId }),
    ]);
    if (items.length > 0) await this.replaceItems(receiptId, []);
    if (taxes.length > 0) await this.replaceTaxes(receiptId, []);
    return items.length + taxes.length;
  }

  /**
   * Deletes these receipt rows of the user (a few at once); one already gone is fine.
   * @returns how many were deleted
   */
  async deleteReceipts(userId: string, receiptIds: readonly string[]): Promise<number> {
    return deleteRows(
      this.store,
      TABLES.receipts,
      receiptIds.map((rowKey) => ({ partitionKey: userId, rowKey })),
    );
  }

  // Items and taxes.

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
    await replacePartition(this.store, TABLES.items, receiptId, items.map(itemToRow));
  }

  /** Writes one item of a receipt, replacing it when it exists. */
  async saveItem(item: ItemRow): Promise<void> {
    await this.store.upsertEntity(TABLES.items, itemToRow(item), 'Replace');
  }

  async deleteItem(receiptId: string, itemId: string): Promise<void> {
    await ignoreNotFound(this.store.deleteEntity(TABLES.items, receiptId, itemId));
  }

  /** Every tax line of every receipt of the user: one key-range query over the user's tax partitions. */
  async listTaxesOfUser(userId: string): Promise<Tax[]> {
    const rows = await listAllEntities(this.store, TABLES.taxes, {
      partitionKeyPrefix: userKeyPrefix(userId),
    });
    return rows.map(rowToTax);
  }

  async listTaxesOfReceipt(receiptId: string): Promise<Tax[]> {
    return (await listAllEntities(this.store, TABLES.taxes, { partitionKey: receiptId })).map(rowToTax);
  }

  async replaceTaxes(receiptId: string, taxes: Tax[]): Promise<void> {
    await replacePartition(
      this.store,
      TABLES.taxes,
      receiptId,
      taxes.map((tax, i) => taxToRow(tax, taxRowKey(i))),
    );
  }

  // Visits.

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
}
