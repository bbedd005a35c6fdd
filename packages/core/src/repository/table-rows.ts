import { ConflictError, NotFoundError } from '../errors';
import { inBatches } from '../in-batches';
import {
  MAX_TRANSACTION_ACTIONS,
  listAllEntities,
  type ListOptions,
  type StoredEntity,
  type TableEntity,
  type TableStore,
  type TransactionAction,
} from '../table-store';

/** Deletes sent at once (rows outside a transaction). */
const DELETES_AT_ONCE = 8;

/** Waits for a delete; a row already gone is fine. */
export async function ignoreNotFound(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/** The entity without its null properties: merged, a null would erase what another writer stored. */
export function withoutNulls(entity: TableEntity): TableEntity {
  return Object.fromEntries(Object.entries(entity).filter(([, value]) => value !== null)) as TableEntity;
}

/** Whether any row the listing finds passes `accept`, reading no further than the first one that does. */
export async function anyRow(
  store: TableStore,
  table: string,
  options: ListOptions,
  accept: (row: StoredEntity) => boolean,
): Promise<boolean> {
  // A filtered page may come back empty with a continuation token, so follow the pages.
  let continuationToken: string | undefined;
  do {
    const page = await store.listEntities(table, { ...options, continuationToken });
    if (page.items.some(accept)) return true;
    continuationToken = page.continuationToken;
  } while (continuationToken);
  return false;
}

/**
 * Makes the partition hold exactly `rows`: one transaction per 100 actions, so a partition of up to
 * 100 rows changes for readers all at once.
 */
export async function replacePartition(
  store: TableStore,
  table: string,
  partitionKey: string,
  rows: TableEntity[],
): Promise<void> {
  const existing = await listAllEntities(store, table, { partitionKey });
  const keep = new Set(rows.map((r) => r.rowKey));
  const actions: TransactionAction[] = [
    ...rows.map((row): TransactionAction => ['upsert', row, 'Replace']),
    ...existing
      .filter((row) => !keep.has(row.rowKey))
      .map((row): TransactionAction => ['delete', { partitionKey, rowKey: row.rowKey }]),
  ];
  for (let i = 0; i < actions.length; i += MAX_TRANSACTION_ACTIONS) {
    await store.submitTransaction(table, actions.slice(i, i + MAX_TRANSACTION_ACTIONS));
  }
}

/**
 * Deletes the rows, a few at once; one already gone is fine.
 * @returns how many were deleted
 */
export async function deleteRows(
  store: TableStore,
  table: string,
  rows: readonly { partitionKey: string; rowKey: string }[],
): Promise<number> {
  let deleted = 0;
  await inBatches(rows, DELETES_AT_ONCE, async (row) => {
    try {
      await store.deleteEntity(table, row.partitionKey, row.rowKey);
      deleted++;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  });
  return deleted;
}

/**
 * Deletes a row read with `etag` while it is unchanged; one changed or gone since is left alone.
 * @returns whether it was deleted
 */
export async function deleteIfUnchanged(
  store: TableStore,
  table: string,
  partitionKey: string,
  rowKey: string,
  etag: string,
): Promise<boolean> {
  try {
    await store.deleteEntity(table, partitionKey, rowKey, { etag });
    return true;
  } catch (error) {
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    return false;
  }
}
