import { TABLES } from '../entities';
import { NotFoundError } from '../errors';
import { lostRace } from '../retry';
import {
  listAllEntities,
  type ListOptions,
  type TableEntity,
  type TableStore,
  type TransactionAction,
} from '../table-store';
import { repositories } from '../repository/repositories';
import type { ItemRow } from '../repository/rows';
import {
  totalsPartition,
  APPLIED_SHARDS,
  TOTALS_LAYOUT,
  markersPartition,
  appliedPartition,
  READY_ROW,
  EARLIER_READY_ROWS,
  LAYOUT_ROW,
  AGGREGATE_KINDS,
  figuresOf,
  contributionOf,
  addFigures,
  putJson,
  figuresToRow,
  type Contribution,
  TotalsOfAnotherLayout,
} from './totals-layout';
import { splitKey, updateReceiptTotals, type WrittenItems } from './totals-update';

export type TotalsTable = typeof TABLES.totals | typeof TABLES.totalsApplied;

/**
 * The user's totals partitions, of every layout: in Totals one per kind (the `<user>~summary` one
 * holds earlier layouts' markers too) and the contribution rows of earlier layouts (`<user>~applied`,
 * `<user>~applied~<0-f>`); in TotalsApplied the markers and the contribution rows. Each is listed by
 * its own key, not by a key range, so that on DynamoDB every listing is strongly consistent (a key
 * range is read from an index that lags behind the writes).
 */
const TOTALS_LISTINGS = (userId: string): [TotalsTable, ListOptions][] => {
  const applied = [
    totalsPartition(userId, 'applied'),
    ...Array.from({ length: APPLIED_SHARDS }, (_, shard) => `${userId}~applied~${shard.toString(16)}`),
  ];
  return [
    ...AGGREGATE_KINDS.map((kind): [TotalsTable, ListOptions] => [
      TABLES.totals,
      { partitionKey: totalsPartition(userId, kind) },
    ]),
    [TABLES.totalsApplied, { partitionKey: markersPartition(userId) }],
    ...applied.flatMap((partitionKey): [TotalsTable, ListOptions][] => [
      [TABLES.totals, { partitionKey }],
      [TABLES.totalsApplied, { partitionKey }],
    ]),
  ];
};

/**
 * Deletes every totals row of the user, of any layout, in both tables (a deleted account, or before
 * a rebuild), but `keep` (a row of TotalsApplied).
 */
export async function deleteReportTotals(
  store: TableStore,
  userId: string,
  keep: { partitionKey: string; rowKey: string } | null = null,
): Promise<void> {
  // The ready markers go first: the reports stop using the totals before any row goes.
  await deleteReadyMarkers(store, userId);
  const listings = TOTALS_LISTINGS(userId);
  // Listed at once: most of these partitions are empty, and each is one call.
  const listed = await Promise.all(
    listings.map(([table, listing]) => listAllEntities(store, table, listing)),
  );
  for (const [at, [table]] of listings.entries()) {
    const rows = listed[at]!.filter(
      (r) =>
        !(
          keep &&
          table === TABLES.totalsApplied &&
          r.partitionKey === keep.partitionKey &&
          r.rowKey === keep.rowKey
        ),
    );
    for (const batch of partitionBatches(rows)) {
      await store
        .submitTransaction(
          table,
          batch.map((r): TransactionAction => ['delete', { partitionKey: r.partitionKey, rowKey: r.rowKey }]),
        )
        .catch(async () => {
          // A row another writer removed meanwhile fails the batch; delete the rest one by one.
          for (const r of batch) await deleteIfThere(store, table, r.partitionKey, r.rowKey);
        });
    }
  }
}

async function deleteIfThere(
  store: TableStore,
  table: TotalsTable,
  partitionKey: string,
  rowKey: string,
  etag?: string,
) {
  await store.deleteEntity(table, partitionKey, rowKey, etag ? { etag } : {}).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
  });
}

export const BUILDING_ROW = 'building';
export const DIRTY_PREFIX = 'dirty~';
/** A build older than this is taken for abandoned (its process stopped) and may be taken over. */
export const TOTALS_BUILD_LEASE_MS = 5 * 60_000;

/**
 * Brings the user's totals up to date after writes of these receipts (their rows written, edited,
 * moved or deleted). With totals ready in the current {@link TOTALS_LAYOUT}, each receipt is
 * applied incrementally ({@link updateReceiptTotals}). Without (the user's first write since totals exist, or after an
 * update failed), the totals are built from all the user's rows ({@link rebuildReportTotals}) by
 * one writer, which holds the `building` row; a writer that finds a build going on leaves a `dirty`
 * note per receipt, which the build applies when it has finished. The writer then looks at the
 * `building` row once more and applies the receipts itself if the build has finished meanwhile, so
 * that one of the two always does.
 * @param written - the item keys the caller just wrote per receipt, when it knows them (read by key)
 */
export async function recordReceiptWrites(
  store: TableStore,
  userId: string,
  fileNames: string[],
  now: Date = new Date(),
  written: WrittenItems = new Map(),
): Promise<'updated' | 'rebuilt' | 'noted'> {
  const markers = markersPartition(userId);
  // The markers and the first receipt's contribution row, in one read of TotalsApplied.
  const firstName = fileNames[0];
  const [ready, building, first] = await store.getEntities(TABLES.totalsApplied, [
    { partitionKey: markers, rowKey: READY_ROW },
    { partitionKey: markers, rowKey: BUILDING_ROW },
    ...(firstName === undefined
      ? []
      : [{ partitionKey: appliedPartition(userId, firstName), rowKey: firstName }]),
  ]);
  if (ready && !building) {
    try {
      for (const [i, fileName] of fileNames.entries()) {
        await updateReceiptTotals(
          store,
          userId,
          fileName,
          i === 0 ? first : undefined,
          written.get(fileName),
        );
      }
    } catch (error) {
      if (!(error instanceof TotalsOfAnotherLayout)) throw error;
      // Rebuilt by code of layout 2 running beside this one: this layout builds its own again.
      await deleteReadyMarkers(store, userId);
      return recordReceiptWrites(store, userId, fileNames, now, written);
    }
    return 'updated';
  }
  // A lease without a readable start is taken for abandoned too.
  const abandoned =
    building && !(now.getTime() - Date.parse(String(building.started_at ?? '')) <= TOTALS_BUILD_LEASE_MS);
  if (!building || abandoned) {
    const lease: TableEntity = { partitionKey: markers, rowKey: BUILDING_ROW, started_at: now.toISOString() };
    let etag: string | null = null;
    try {
      ({ etag } = building
        ? await store.updateEntity(TABLES.totalsApplied, lease, 'Replace', { etag: building.etag })
        : await store.createEntity(TABLES.totalsApplied, lease));
    } catch (error) {
      if (!lostRace(error)) throw error; // another writer took the lease first
    }
    if (etag !== null) {
      try {
        await rebuildReportTotals(store, userId, etag);
      } catch (error) {
        // Give the lease back, so the next write builds again at once.
        await deleteIfThere(store, TABLES.totalsApplied, markers, BUILDING_ROW, etag).catch(() => undefined);
        throw error;
      }
      return 'rebuilt';
    }
  }
  for (const fileName of fileNames) {
    await store.upsertEntity(TABLES.totalsApplied, {
      partitionKey: markers,
      rowKey: `${DIRTY_PREFIX}${fileName}`,
    });
  }
  const [readyNow, buildingNow] = await store.getEntities(TABLES.totalsApplied, [
    { partitionKey: markers, rowKey: READY_ROW },
    { partitionKey: markers, rowKey: BUILDING_ROW },
  ]);
  if (readyNow && !buildingNow) {
    for (const fileName of fileNames) {
      await updateReceiptTotals(store, userId, fileName, undefined, written.get(fileName));
    }
    return 'updated';
  }
  return 'noted';
}

/** Marks the user's totals as not to be trusted: the reports fall back, and the next write rebuilds them. */
export async function invalidateReportTotals(store: TableStore, userId: string): Promise<void> {
  await deleteReadyMarkers(store, userId);
}

/** Removes the marker of totals complete, of this layout and of earlier ones. */
async function deleteReadyMarkers(store: TableStore, userId: string): Promise<void> {
  const summary = totalsPartition(userId, 'summary');
  await Promise.all([
    deleteIfThere(store, TABLES.totalsApplied, markersPartition(userId), READY_ROW),
    ...EARLIER_READY_ROWS.map((rowKey) => deleteIfThere(store, TABLES.totals, summary, rowKey)),
  ]);
}

/**
 * Builds the user's totals from all their rows, while holding the `building` row (see
 * {@link recordReceiptWrites}): removes the user's other totals rows (of any layout), writes one
 * aggregate row per merchant, brand, corporation and month (Totals) and one contribution row per
 * receipt (TotalsApplied), then the `ready` marker, and gives up the `building` row. Receipts written meanwhile left a `dirty` note each,
 * applied last with {@link updateReceiptTotals}, which is idempotent. Costs as much as a full report
 * rebuild plus one write per aggregate row and per 100 receipts.
 */
export async function rebuildReportTotals(
  store: TableStore,
  userId: string,
  buildingEtag: string,
): Promise<void> {
  const markers = markersPartition(userId);
  const repos = repositories(store);
  await deleteReportTotals(store, userId, { partitionKey: markers, rowKey: BUILDING_ROW });
  const receipts = await repos.receipts.listReceipts(userId);
  const items = await repos.receipts.listItemsOfReceipts(userId, receipts);
  const itemsOf = new Map<string, ItemRow[]>();
  for (const item of items) {
    const list = itemsOf.get(item.receipt_id);
    if (list) list.push(item);
    else itemsOf.set(item.receipt_id, [item]);
  }
  const whole: Contribution = {};
  const appliedRows: TableEntity[] = [];
  for (const receipt of receipts) {
    const contribution = contributionOf(receipt, itemsOf.get(receipt.receipt_id) ?? []);
    for (const [key, figures] of Object.entries(contribution)) addFigures(figuresOf(whole, key), figures, 1);
    const entity: TableEntity = {
      partitionKey: appliedPartition(userId, receipt.file_name),
      rowKey: receipt.file_name,
      pending_id: null,
    };
    putJson(entity, 'applied', contribution);
    appliedRows.push(entity);
  }
  const aggregateRows = Object.entries(whole).map(([key, figures]) => {
    const { partitionKey, rowKey } = splitKey(userId, key);
    return figuresToRow(partitionKey, rowKey, figures, []);
  });
  for (const kind of AGGREGATE_KINDS) {
    aggregateRows.push({
      partitionKey: totalsPartition(userId, kind),
      rowKey: LAYOUT_ROW,
      layout: TOTALS_LAYOUT,
    });
  }
  await Promise.all([
    inBatches(store, TABLES.totals, aggregateRows),
    inBatches(store, TABLES.totalsApplied, appliedRows),
  ]);
  await store.upsertEntity(TABLES.totalsApplied, {
    partitionKey: markers,
    rowKey: READY_ROW,
    built_at: new Date().toISOString(),
    receipts: receipts.length,
    layout: TOTALS_LAYOUT,
  });
  await deleteIfThere(store, TABLES.totalsApplied, markers, BUILDING_ROW, buildingEtag);
  const notes = await listAllEntities(store, TABLES.totalsApplied, { partitionKey: markers });
  for (const note of notes.filter((r) => r.rowKey.startsWith(DIRTY_PREFIX))) {
    await updateReceiptTotals(store, userId, note.rowKey.slice(DIRTY_PREFIX.length));
    await deleteIfThere(store, TABLES.totalsApplied, markers, note.rowKey);
  }
}

/** Rows grouped by partition, in batches of up to 100: what one transaction may hold. */
function partitionBatches<T extends { partitionKey: string }>(rows: T[]): T[][] {
  const byPartition = new Map<string, T[]>();
  for (const row of rows) {
    const list = byPartition.get(row.partitionKey);
    if (list) list.push(row);
    else byPartition.set(row.partitionKey, [row]);
  }
  const batches: T[][] = [];
  for (const list of byPartition.values()) {
    for (let i = 0; i < list.length; i += 100) batches.push(list.slice(i, i + 100));
  }
  return batches;
}

/** Upserts rows in transactions of up to 100 rows of one partition, four at a time. */
async function inBatches(store: TableStore, table: TotalsTable, rows: TableEntity[]): Promise<void> {
  const batches = partitionBatches(rows);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        await store.submitTransaction(
          table,
          batch.map((r): TransactionAction => ['upsert', r, 'Replace']),
        );
      }
    }),
  );
}
