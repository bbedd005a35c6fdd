import { TABLES } from '../entities';
import { RETRY_LIMITS, retryOnConflict } from '../retry';
import {
  MAX_TRANSACTION_ACTIONS,
  type EntityKeys,
  type StoredEntity,
  type TableEntity,
  type TableStore,
} from '../table-store';
import { receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { rowToItem } from '../repository/rows';
import {
  totalsPartition,
  markersPartition,
  appliedPartition,
  READY_ROW,
  LAYOUT_ROW,
  RECENT_CHANGES,
  empty,
  contributionOf,
  addFigures,
  differenceOf,
  putJson,
  getJson,
  rowToFigures,
  figuresToRow,
  type Figures,
  type Contribution,
  type TotalsKind,
  TotalsOfAnotherLayout,
} from './totals-layout';

export interface RowChange {
  /** `kind:rowKey`, as in a {@link Contribution}. */
  key: string;
  address: EntityKeys;
  delta: Figures;
}

export function splitKey(userId: string, key: string): EntityKeys {
  const at = key.indexOf(':');
  return {
    partitionKey: totalsPartition(userId, key.slice(0, at) as TotalsKind),
    rowKey: key.slice(at + 1),
  };
}

export type RowWrite = ['create', TableEntity] | ['update', TableEntity, 'Replace', { etag: string }];

/** The write of one aggregate row plus its delta, by etag (or a create), or null when it has the change. */
export function rowWrite(change: RowChange, row: StoredEntity | null, changeId: string): RowWrite | null {
  const { figures, changes } = row ? rowToFigures(row) : { figures: empty(), changes: [] };
  if (changes.includes(changeId)) return null; // a retried change this row already took
  addFigures(figures, change.delta, 1);
  const entity = figuresToRow(
    change.address.partitionKey,
    change.address.rowKey,
    figures,
    [...changes, changeId].slice(-RECENT_CHANGES),
  );
  return row ? ['update', entity, 'Replace', { etag: row.etag }] : ['create', entity];
}

/**
 * Adds the deltas to aggregate rows of one partition (at most {@link MAX_TRANSACTION_ACTIONS}),
 * each row by etag, in one transaction (one row: one conditional write). When another writer changed,
 * created or removed any of them first, the transaction applies nothing, and the rows are read again
 * and the whole group retried. A row that already lists `changeId` among its recent changes has it
 * and is left alone (a retried change). A row whose figures reach zero stays (with n = 0, hidden from
 * the reports), so that it still remembers the change.
 * @param read - the rows as read already (same order as `changes`), for the first attempt
 */
export async function applyGroup(
  store: TableStore,
  changes: RowChange[],
  changeId: string,
  read?: (StoredEntity | null)[],
): Promise<void> {
  await retryOnConflict(
    async (attempt) => {
      const rows =
        attempt === 0 && read
          ? read
          : await store.getEntities(
              TABLES.totals,
              changes.map((c) => c.address),
            );
      const writes = changes
        .map((change, at) => rowWrite(change, rows[at] ?? null, changeId))
        .filter((write): write is RowWrite => write !== null);
      const only = writes.length === 1 ? writes[0]! : null;
      if (only?.[0] === 'create') await store.createEntity(TABLES.totals, only[1]);
      else if (only?.[0] === 'update') await store.updateEntity(TABLES.totals, only[1], 'Replace', only[3]);
      else if (writes.length > 1) await store.submitTransaction(TABLES.totals, writes);
    },
    { tries: RETRY_LIMITS.busyRowTries },
  );
}

/** The rows a delta changes, grouped by partition in groups a transaction takes. */
export function groupsOf(userId: string, delta: Contribution): RowChange[][] {
  const byPartition = new Map<string, RowChange[]>();
  for (const [key, figures] of Object.entries(delta)) {
    const address = splitKey(userId, key);
    const list = byPartition.get(address.partitionKey);
    const change = { key, address, delta: figures };
    if (list) list.push(change);
    else byPartition.set(address.partitionKey, [change]);
  }
  const groups: RowChange[][] = [];
  for (const list of byPartition.values()) {
    for (let i = 0; i < list.length; i += MAX_TRANSACTION_ACTIONS) {
      groups.push(list.slice(i, i + MAX_TRANSACTION_ACTIONS));
    }
  }
  return groups;
}

/**
 * Reads every aggregate row the delta changes, in one call: what {@link applyChange} starts from;
 * with them the summary partition's {@link LAYOUT_ROW}, without which the rows are not this layout's.
 */
export async function readRows(
  store: TableStore,
  userId: string,
  delta: Contribution,
): Promise<Map<string, StoredEntity | null>> {
  const keys = Object.keys(delta);
  const rows = await store.getEntities(TABLES.totals, [
    ...keys.map((key) => splitKey(userId, key)),
    { partitionKey: totalsPartition(userId, 'summary'), rowKey: LAYOUT_ROW },
  ]);
  if (!rows[keys.length])
    throw new TotalsOfAnotherLayout('the totals were rebuilt by code of another layout');
  return new Map(keys.map((key, i) => [key, rows[i] ?? null]));
}

/**
 * Applies a change to the user's aggregate rows: one transaction per partition (merchants, months,
 * summary, brands, corporations), all at once. `read` holds the rows as read before (by
 * {@link readRows}); without it each group reads its rows first.
 */
export async function applyChange(
  store: TableStore,
  userId: string,
  changeId: string,
  delta: Contribution,
  read?: Map<string, StoredEntity | null>,
): Promise<void> {
  await Promise.all(
    groupsOf(userId, delta).map((group) =>
      applyGroup(store, group, changeId, read && group.map((change) => read.get(change.key) ?? null)),
    ),
  );
}

export const newChangeId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/**
 * The item row keys a writer has just written, by receipt file name: the update then reads those
 * rows by key (with the receipt row, in one round trip) instead of listing the receipt's partition.
 * A listing is a query; point reads are what every store does best (Azurite answers a query by
 * scanning the whole Items table, all users' items, see README "Reports").
 */
export type WrittenItems = ReadonlyMap<string, readonly string[]>;

/**
 * The receipt's contribution now: nothing when its row is gone. With `itemIds` (the keys its writer
 * just wrote) the items are read by key, and used only when they are exactly the receipt's items as
 * its row counts them (`item_count`) and every one is there; else (another writer changed the
 * items meanwhile, or a row written before item counts) the receipt's partition is listed.
 */
export async function currentContribution(
  store: TableStore,
  userId: string,
  fileName: string,
  itemIds?: readonly string[],
): Promise<Contribution> {
  const repos = repositories(store);
  const receiptId = receiptIdFor(userId, fileName);
  // Both after the contribution row was read (see updateReceiptTotals); a receipt row that is gone
  // contributes nothing, whatever items are left.
  if (itemIds && new Set(itemIds).size === itemIds.length) {
    const [receipt, rows] = await Promise.all([
      repos.receipts.getReceipt(userId, receiptId),
      itemIds.length === 0
        ? Promise.resolve([])
        : store.getEntities(
            TABLES.items,
            itemIds.map((rowKey) => ({ partitionKey: receiptId, rowKey })),
          ),
    ]);
    if (!receipt) return {};
    const found = rows.filter((row): row is StoredEntity => row !== null);
    if (receipt.item_count === itemIds.length && found.length === itemIds.length) {
      return contributionOf(receipt, found.map(rowToItem));
    }
    return contributionOf(receipt, await repos.receipts.listItemsOfReceipt(receiptId));
  }
  const [receipt, items] = await Promise.all([
    repos.receipts.getReceipt(userId, receiptId),
    repos.receipts.listItemsOfReceipt(receiptId),
  ]);
  return receipt ? contributionOf(receipt, items) : {};
}

/**
 * Brings the user's totals up to date with one receipt (after it was written, edited, moved or
 * deleted): reads its row and items, and applies the difference from its last applied contribution.
 * The contribution row is read first and written by etag, so of two updates of one receipt the one
 * that read older data starts over. A change is first recorded on the contribution row (`pending`)
 * and cleared once every aggregate row has it: an update interrupted in between is finished by the
 * next update of that receipt, and each aggregate row takes a change once. The aggregate rows are
 * read in one call while the change is recorded, and written by etag in one transaction per
 * partition; a group another writer changed first is read again and retried.
 * @param first - the contribution row, when the caller has read it already (null: there is none)
 * @param itemIds - the keys of the receipt's items as its writer just wrote them ({@link WrittenItems})
 * @returns the number of aggregate rows changed
 */
export async function updateReceiptTotals(
  store: TableStore,
  userId: string,
  fileName: string,
  first?: StoredEntity | null,
  itemIds?: readonly string[],
): Promise<number> {
  const partitionKey = appliedPartition(userId, fileName);
  return retryOnConflict(
    async (attempt) => {
      const row =
        attempt === 0 && first !== undefined
          ? first
          : await store.getEntity(TABLES.totalsApplied, partitionKey, fileName);
      let applied: Contribution = row ? getJson(row, 'applied', {}) : {};
      let etag = row?.etag;
      const pending = row && typeof row.pending_id === 'string' ? row.pending_id : null;
      if (row && pending) {
        const to: Contribution = getJson(row, 'pending', {});
        await applyChange(store, userId, pending, differenceOf(to, applied));
        applied = to;
        etag = await writeApplied(store, partitionKey, fileName, applied, null, etag!);
      }
      const target = await currentContribution(store, userId, fileName, itemIds);
      const delta = differenceOf(target, applied);
      const changed = Object.keys(delta).length;
      if (changed === 0) {
        if (etag && Object.keys(target).length === 0)
          await store.deleteEntity(TABLES.totalsApplied, partitionKey, fileName, { etag });
        return 0;
      }
      const changeId = newChangeId();
      // The aggregate rows may be read before the change is recorded: their etags guard the writes.
      const [recorded, rows] = await Promise.all([
        writeApplied(store, partitionKey, fileName, applied, { id: changeId, to: target }, etag),
        readRows(store, userId, delta),
      ]);
      etag = recorded;
      await applyChange(store, userId, changeId, delta, rows);
      if (Object.keys(target).length === 0)
        await store.deleteEntity(TABLES.totalsApplied, partitionKey, fileName, { etag });
      else await writeApplied(store, partitionKey, fileName, target, null, etag);
      return changed;
    },
    { tries: RETRY_LIMITS.busyRowTries },
  );
}

/** Writes a contribution row by etag (or inserts it); returns the new etag. */
export async function writeApplied(
  store: TableStore,
  partitionKey: string,
  rowKey: string,
  applied: Contribution,
  pending: { id: string; to: Contribution } | null,
  etag: string | undefined,
): Promise<string> {
  const entity: TableEntity = { partitionKey, rowKey, pending_id: pending?.id ?? null };
  putJson(entity, 'applied', applied);
  if (pending) putJson(entity, 'pending', pending.to);
  if (etag) return (await store.updateEntity(TABLES.totalsApplied, entity, 'Replace', { etag })).etag;
  return (await store.createEntity(TABLES.totalsApplied, entity)).etag;
}

/**
 * Whether the user's totals were built in this layout for all their receipts (else the report index
 * serves). Totals of another layout do not count: the user's next write builds them in this one.
 */
export async function reportTotalsReady(store: TableStore, userId: string): Promise<boolean> {
  return (await store.getEntity(TABLES.totalsApplied, markersPartition(userId), READY_ROW)) !== null;
}
