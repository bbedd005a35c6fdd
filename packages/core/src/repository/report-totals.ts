import { roundMoney } from '../analysis';
import { TABLES } from '../entities';
import { NotFoundError } from '../errors';
import { RETRY_LIMITS, lostRace, retryOnConflict } from '../retry';
import type { BrandReportRow, CorporationReportRow, MerchantReportRow } from '../contract/reports';
import {
  listAllEntities,
  MAX_TRANSACTION_ACTIONS,
  type EntityKeys,
  type ListOptions,
  type StoredEntity,
  type TableEntity,
  type TableStore,
  type TransactionAction,
} from '../table-store';
import { dictionaryKey, receiptIdFor, shortHash } from './keys';
import { repositories } from './repositories';
import { rowToItem, type ItemRow, type ReceiptRow } from './rows';

/**
 * Per-user report totals kept incrementally (see ./README.md, "Report totals"). A receipt written,
 * edited, moved or deleted changes its user's totals by the difference between what it adds now and
 * what it added when last applied, so the work is proportional to that receipt, never to the user's
 * history. The aggregate rows, which the reports read, live in the Totals table:
 *
 * - `<user>~merchants` / merchant_id, `<user>~brands` / brand key, `<user>~corporations` /
 *   corporation key, `<user>~months` / `YYYY-MM` (or `undated`): one aggregate row each;
 * - `<user>~summary` / `receipts`, `items`: the user's totals over all receipts and items.
 *
 * The writers' bookkeeping, which grows with the user's receipts, lives in the TotalsApplied table, so
 * that a listing of an aggregate partition never passes over it (Azurite answers every query with a
 * pass over the whole table):
 *
 * - `<user>~markers` / `ready~3`: the totals were built for every receipt; `building` and
 *   `dirty~<fileName>`: a build under way and the writes made during it;
 * - `<user>~applied~<shard>` / fileName: the receipt's last applied contribution, and a change in
 *   progress; {@link APPLIED_SHARDS} partitions by a hash of the file name ({@link appliedPartition}).
 */

/**
 * Counts and sums of one aggregate row. The count maps leave out entries that are zero; `sums` has
 * an entry (possibly 0) exactly for the currencies of `priced`.
 */
export interface Figures {
  /** Receipts (merchants, months, summary `receipts`) or items (brands, corporations, `items`). */
  n: number;
  /** Rows per currency ('' for none). */
  counts: Record<string, number>;
  /** Rows with an amount per currency: a currency's sum exists while this is above zero. */
  priced: Record<string, number>;
  sums: Record<string, number>;
  /** Named count maps: `days_YYYY` (visits per MM-DD), `corporations`, `brands`, `review`, `quantity`. */
  tags: Record<string, Record<string, number>>;
  /** A display name (brands and corporations). */
  label?: string | null;
}

/** What one receipt adds to its user's totals: figures by `kind:rowKey`. */
export type Contribution = Record<string, Figures>;

export type TotalsKind = 'merchants' | 'brands' | 'corporations' | 'months' | 'summary';

/** The partition of one kind of the user's totals rows (a single partition per report table). */
export function totalsPartition(userId: string, kind: TotalsKind | 'applied'): string {
  return `${userId}~${kind}`;
}

/**
 * Partitions the contribution rows are spread over. A partition of one row per receipt grows with the
 * account, and Azurite (LokiJS) finds a row by scanning its partition: a point read or write of a
 * contribution row cost ~5 ms in a 10,000-row partition against ~1 ms in a 1,000-row one.
 */
export const APPLIED_SHARDS = 16;
/**
 * How the totals rows are laid out (layout 1: before the contribution rows were sharded; layout 2:
 * everything in the Totals table, markers in `<user>~summary`; layout 3: the contribution rows and
 * markers in TotalsApplied). Each layout
 * marks its totals complete with a row of its own ({@link READY_ROW}), so that code of another layout
 * never takes them for its own: while two versions run side by side (a deploy), each one finds no
 * totals of its layout after the other's write, and builds them again from all rows at its own next
 * write, rather than applying a receipt to rows laid out for the other.
 */
export const TOTALS_LAYOUT = 3;

/** The partition of the markers (ready, building, dirty) in TotalsApplied. */
export function markersPartition(userId: string): string {
  return `${userId}~markers`;
}

/** The partition of a receipt's contribution row (TotalsApplied): `<user>~applied~<0-f>`, by a hash of the file name. */
export function appliedPartition(userId: string, fileName: string): string {
  const shard = Number.parseInt(shortHash(fileName).slice(-4), 16) % APPLIED_SHARDS;
  return `${userId}~applied~${shard.toString(16)}`;
}

/** Row key of a brand or corporation: its dictionary key plus a hash of the exact name. */
export function nameRowKey(name: string): string {
  return `${dictionaryKey(name).slice(0, 100)}~${shortHash(name)}`;
}

/** The marker of totals complete in this layout (TotalsApplied, `<user>~markers`). */
const READY_ROW = `ready~${TOTALS_LAYOUT}`;
/**
 * The markers of earlier layouts, in Totals' `<user>~summary` (`ready`: layout 1's, `ready~2`: layout
 * 2's): removed with this layout's, so their code stops trusting the totals and builds its own.
 */
const EARLIER_READY_ROWS = ['ready', 'ready~2'];
/**
 * A row a build of this layout writes in each aggregate partition (Totals). Code of layout 2 keeps its
 * markers in Totals and its build lists and deletes these partitions whole, this row with them: the
 * aggregates are then its own, and this code, which keeps its marker in TotalsApplied, must not take
 * them for its own. Without this row in the summary partition a writer builds the totals again, and
 * without it in its partition a report page is served by the report index.
 */
const LAYOUT_ROW = `~layout~${TOTALS_LAYOUT}`;
const AGGREGATE_KINDS = ['merchants', 'brands', 'corporations', 'months', 'summary'] as const;

/** The aggregate rows were rebuilt by code of another layout since this layout's build. */
class TotalsOfAnotherLayout extends Error {}
/** Change ids an aggregate row remembers, so a change retried after a crash is applied once. */
const RECENT_CHANGES = 64;
/** Longest JSON text kept in one property (Azure Tables: 64 KiB, i.e. 32K UTF-16 characters). */
const CHUNK_CHARS = 30_000;

const empty = (): Figures => ({ n: 0, counts: {}, priced: {}, sums: {}, tags: {} });

function bump(map: Record<string, number>, key: string, by: number): void {
  const next = (map[key] ?? 0) + by;
  if (Math.abs(next) < 1e-9) delete map[key];
  else map[key] = Math.round(next * 1e6) / 1e6;
}

function figuresOf(contribution: Contribution, key: string, label?: string | null): Figures {
  let figures = contribution[key];
  if (!figures) {
    figures = empty();
    if (label !== undefined) figures.label = label;
    contribution[key] = figures;
  }
  return figures;
}

function count(figures: Figures, currency: string, amount: number | null): void {
  figures.n += 1;
  bump(figures.counts, currency, 1);
  if (amount !== null) {
    bump(figures.priced, currency, 1);
    figures.sums[currency] = Math.round(((figures.sums[currency] ?? 0) + amount) * 1e6) / 1e6;
  }
}

function tag(figures: Figures, name: string, key: string, by = 1): void {
  const map = (figures.tags[name] ??= {});
  bump(map, key, by);
  if (Object.keys(map).length === 0) delete figures.tags[name];
}

const DAY = /^(\d{4})-(\d{2}-\d{2})$/;

/**
 * What a receipt adds to its user's totals, from its row and its items (the same rules as
 * buildAppData and the report index: an item without a currency counts in the receipt's).
 */
export function contributionOf(receipt: ReceiptRow, items: ItemRow[]): Contribution {
  const out: Contribution = {};
  const currency = receipt.currency_code ?? '';
  const amount = receipt.total_amount;
  const day = receipt.transaction_date;

  const merchant = figuresOf(out, `merchants:${receipt.merchant_id}`);
  count(merchant, currency, amount);
  if (day) {
    const parts = DAY.exec(day);
    if (parts) tag(merchant, `days_${parts[1]}`, parts[2]!);
    else tag(merchant, 'days_other', day);
  }
  const month = day && /^\d{4}-\d{2}/.test(day) ? day.slice(0, 7) : 'undated';
  count(figuresOf(out, `months:${month}`), currency, amount);
  const receipts = figuresOf(out, 'summary:receipts');
  count(receipts, currency, amount);
  if (receipt.needs_review === true) tag(receipts, 'review', 'needed');

  for (const item of items) {
    if (item.receipt_id !== receipt.receipt_id) continue;
    const itemCurrency = item.currency_code ?? receipt.currency_code ?? '';
    const all = figuresOf(out, 'summary:items');
    count(all, itemCurrency, item.total_price);
    if (item.quantity) tag(all, 'quantity', 'sum', item.quantity);
    if (!item.brand) continue;
    const brand = figuresOf(out, `brands:${nameRowKey(item.brand)}`, item.brand);
    count(brand, itemCurrency, item.total_price);
    const corporation = item.owning_corporation;
    if (!corporation) continue;
    tag(brand, 'corporations', corporation);
    const owner = figuresOf(out, `corporations:${nameRowKey(corporation)}`, corporation);
    count(owner, itemCurrency, item.total_price);
    tag(owner, 'brands', item.brand);
  }
  return out;
}

/**
 * Adds (sign 1) or takes away (sign -1) figures. Figures of a row (`whole`) keep a sum for every
 * currency that has an amount, even a sum of 0, and none for the others; a difference keeps only
 * the sums that change.
 */
function addFigures(into: Figures, other: Figures, sign: 1 | -1, whole = true): void {
  into.n += sign * other.n;
  for (const [k, v] of Object.entries(other.counts)) bump(into.counts, k, sign * v);
  for (const [k, v] of Object.entries(other.priced)) bump(into.priced, k, sign * v);
  for (const [k, v] of Object.entries(other.sums)) {
    into.sums[k] = Math.round(((into.sums[k] ?? 0) + sign * v) * 1e6) / 1e6;
  }
  for (const k of Object.keys(into.sums)) {
    if (whole ? !into.priced[k] : Math.abs(into.sums[k]!) < 1e-9) delete into.sums[k];
  }
  if (whole) for (const k of Object.keys(into.priced)) into.sums[k] ??= 0;
  for (const [name, map] of Object.entries(other.tags)) {
    for (const [k, v] of Object.entries(map)) tag(into, name, k, sign * v);
  }
  if (other.label) into.label = other.label;
}

const isZero = (f: Figures) =>
  f.n === 0 &&
  Object.keys(f.counts).length === 0 &&
  Object.keys(f.sums).length === 0 &&
  Object.keys(f.tags).length === 0;

/** `to - from`, row by row; rows that do not change are left out. */
export function differenceOf(to: Contribution, from: Contribution): Contribution {
  const out: Contribution = {};
  for (const key of new Set([...Object.keys(to), ...Object.keys(from)])) {
    const delta = empty();
    if (to[key]) addFigures(delta, to[key], 1, false);
    if (from[key]) addFigures(delta, from[key], -1, false);
    delete delta.label;
    if (!isZero(delta)) {
      if (to[key]?.label) delta.label = to[key].label;
      out[key] = delta;
    }
  }
  return out;
}

// ---- Rows ------------------------------------------------------------------------------------------

function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Puts JSON text into `name_0`, `name_1`, … (a property holds at most {@link CHUNK_CHARS}). */
function putJson(entity: TableEntity, name: string, value: unknown): void {
  const text = JSON.stringify(value);
  let part = 0;
  for (let at = 0; at === 0 || at < text.length; at += CHUNK_CHARS) {
    entity[`${name}_${part++}`] = text.slice(at, at + CHUNK_CHARS);
  }
  entity[`${name}_parts`] = part;
}

function getJson<T>(row: Record<string, unknown>, name: string, fallback: T): T {
  const parts = row[`${name}_parts`];
  if (typeof parts !== 'number') return fallback;
  let text = '';
  for (let part = 0; part < parts; part++) text += String(row[`${name}_${part}`] ?? '');
  return parseJson(text, fallback);
}

function rowToFigures(row: Record<string, unknown>): { figures: Figures; changes: string[] } {
  const tags: Figures['tags'] = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith('t_')) tags[name.slice(2)] = parseJson(value, {});
  }
  return {
    figures: {
      n: typeof row.n === 'number' ? row.n : 0,
      counts: parseJson(row.counts, {}),
      priced: parseJson(row.priced, {}),
      sums: parseJson(row.sums, {}),
      tags,
      label: typeof row.label === 'string' ? row.label : null,
    },
    changes: parseJson(row.changes, []),
  };
}

function figuresToRow(
  partitionKey: string,
  rowKey: string,
  figures: Figures,
  changes: string[],
): TableEntity {
  const entity: TableEntity = {
    partitionKey,
    rowKey,
    n: figures.n,
    label: figures.label ?? null,
    counts: JSON.stringify(figures.counts),
    priced: JSON.stringify(figures.priced),
    sums: JSON.stringify(figures.sums),
    changes: JSON.stringify(changes),
  };
  for (const [name, map] of Object.entries(figures.tags)) entity[`t_${name}`] = JSON.stringify(map);
  return entity;
}

/**
 * Whether a write lost a race: another writer changed, created or removed the row first, alone or
 * within a transaction (which then applied nothing). Reading again and retrying may succeed.
 */

interface RowChange {
  /** `kind:rowKey`, as in a {@link Contribution}. */
  key: string;
  address: EntityKeys;
  delta: Figures;
}

function splitKey(userId: string, key: string): EntityKeys {
  const at = key.indexOf(':');
  return {
    partitionKey: totalsPartition(userId, key.slice(0, at) as TotalsKind),
    rowKey: key.slice(at + 1),
  };
}

type RowWrite = ['create', TableEntity] | ['update', TableEntity, 'Replace', { etag: string }];

/** The write of one aggregate row plus its delta, by etag (or a create), or null when it has the change. */
function rowWrite(change: RowChange, row: StoredEntity | null, changeId: string): RowWrite | null {
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
async function applyGroup(
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
function groupsOf(userId: string, delta: Contribution): RowChange[][] {
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
async function readRows(
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
async function applyChange(
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

const newChangeId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

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
async function currentContribution(
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
async function writeApplied(
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

type TotalsTable = typeof TABLES.totals | typeof TABLES.totalsApplied;

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

const BUILDING_ROW = 'building';
const DIRTY_PREFIX = 'dirty~';
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

// ---- Reading -----------------------------------------------------------------------------------------

/**
 * The aggregate rows of one kind of the user, without rows whose figures are all zero; null when the
 * partition was not built in this layout (it lacks the {@link LAYOUT_ROW}).
 */
export async function listTotals(
  store: TableStore,
  userId: string,
  kind: TotalsKind,
): Promise<{ rowKey: string; figures: Figures }[] | null> {
  const rows: StoredEntity[] = await listAllEntities(store, TABLES.totals, {
    partitionKey: totalsPartition(userId, kind),
  });
  if (!rows.some((row) => row.rowKey === LAYOUT_ROW)) return null;
  return rows
    .filter((row) => row.rowKey !== LAYOUT_ROW)
    .filter((row) => kind !== 'summary' || row.rowKey === 'receipts' || row.rowKey === 'items')
    .map((row) => ({ rowKey: row.rowKey, figures: rowToFigures(row).figures }))
    .filter(({ figures }) => figures.n > 0);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sums per currency, rounded, in code order (as the report index answers them). */
function totalsRecord(figures: Figures): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [c, sum] of Object.entries(figures.sums).sort(([a], [b]) => byText(a, b)))
    out[c] = roundMoney(sum);
  return out;
}

/** The most frequent currency (ties: alphabetical) and its sum. */
function mainOf(figures: Figures): { currency_code: string | null; total: number } {
  let best: string | null = null;
  let bestCount = -1;
  for (const [c, n] of Object.entries(figures.counts).sort(([a], [b]) => byText(a, b))) {
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return { currency_code: best || null, total: roundMoney(figures.sums[best ?? ''] ?? 0) };
}

/** The most frequent key of a count map (ties: alphabetical), or null. */
function mostFrequent(map: Record<string, number> | undefined): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [k, n] of Object.entries(map ?? {}).sort(([a], [b]) => byText(a, b))) {
    if (n > bestCount) {
      best = k;
      bestCount = n;
    }
  }
  return best;
}

/** First and last visit day from the `days_*` maps. */
function visitSpan(figures: Figures): { first: string | null; last: string | null } {
  const days: string[] = [];
  for (const [name, map] of Object.entries(figures.tags)) {
    if (!name.startsWith('days_')) continue;
    const year = name.slice(5);
    for (const [key, n] of Object.entries(map)) {
      if (n > 0) days.push(year === 'other' ? key : `${year}-${key}`);
    }
  }
  days.sort(byText);
  return { first: days[0] ?? null, last: days.at(-1) ?? null };
}

/**
 * The merchants table's rows from the user's merchant totals and merchant rows (name, city); null
 * when the totals are not of this layout (so are the brands' and corporations' below).
 */
export async function merchantRowsFromTotals(
  store: TableStore,
  userId: string,
): Promise<MerchantReportRow[] | null> {
  const [totals, merchants] = await Promise.all([
    listTotals(store, userId, 'merchants'),
    repositories(store).merchants.listMerchants(userId),
  ]);
  if (!totals) return null;
  const byId = new Map(merchants.map((m) => [m.merchant_id, m]));
  return totals.map(({ rowKey, figures }) => {
    const merchant = byId.get(rowKey);
    const { first, last } = visitSpan(figures);
    return {
      merchant_id: rowKey,
      name: merchant?.name ?? rowKey,
      city: merchant?.city ?? null,
      owning_corporation: merchant?.owning_corporation ?? null,
      visits: figures.n,
      ...mainOf(figures),
      totals_by_currency: totalsRecord(figures),
      first_visit: first,
      last_visit: last,
    };
  });
}

/**
 * The rows of a brands or corporations table: its name, purchases and totals, with what `more`
 * adds; null when the totals are not of this layout.
 */
async function namedRowsFromTotals<T>(
  store: TableStore,
  userId: string,
  kind: 'brands' | 'corporations',
  more: (figures: Figures) => T,
) {
  const totals = await listTotals(store, userId, kind);
  return (
    totals?.map(({ rowKey, figures }) => ({
      name: figures.label ?? rowKey,
      ...more(figures),
      purchases: figures.n,
      ...mainOf(figures),
      totals_by_currency: totalsRecord(figures),
    })) ?? null
  );
}

/** The brands table's rows; a brand's corporation is the one most of its items name. */
export function brandRowsFromTotals(store: TableStore, userId: string): Promise<BrandReportRow[] | null> {
  return namedRowsFromTotals(store, userId, 'brands', (figures) => ({
    owning_corporation: mostFrequent(figures.tags.corporations),
  }));
}

/** The corporations table's rows, with the brands of theirs the user bought. */
export function corporationRowsFromTotals(
  store: TableStore,
  userId: string,
): Promise<CorporationReportRow[] | null> {
  return namedRowsFromTotals(store, userId, 'corporations', (figures) => ({
    brands: Object.keys(figures.tags.brands ?? {}).sort((a, b) => byText(a.toLowerCase(), b.toLowerCase())),
  }));
}

/** Per-currency totals of one month or of all receipts / items, as a report's total rows show them. */
export interface TotalsSummary {
  receipts: number;
  items: number;
  needsReview: number;
  quantity: number;
  receiptTotals: Record<string, number>;
  itemTotals: Record<string, number>;
  months: { month: string; receipts: number; totals: Record<string, number> }[];
}

/** The user's totals over all receipts and items, and per month; null when not of this layout. */
export async function summaryFromTotals(store: TableStore, userId: string): Promise<TotalsSummary | null> {
  const [summary, months] = await Promise.all([
    listTotals(store, userId, 'summary'),
    listTotals(store, userId, 'months'),
  ]);
  if (!summary || !months) return null;
  const receipts = summary.find((r) => r.rowKey === 'receipts')?.figures ?? empty();
  const items = summary.find((r) => r.rowKey === 'items')?.figures ?? empty();
  return {
    receipts: receipts.n,
    items: items.n,
    needsReview: receipts.tags.review?.needed ?? 0,
    quantity: items.tags.quantity?.sum ?? 0,
    receiptTotals: totalsRecord(receipts),
    itemTotals: totalsRecord(items),
    months: months.map(({ rowKey, figures }) => ({
      month: rowKey,
      receipts: figures.n,
      totals: totalsRecord(figures),
    })),
  };
}
