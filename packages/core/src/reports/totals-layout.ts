import type { TableEntity } from '../table-store';
import { dictionaryKey, shortHash } from '../repository/keys';
import type { ItemRow, ReceiptRow } from '../repository/rows';

/**
 * Per-user report totals kept incrementally (see ../repository/README.md, "Report totals"). A receipt written,
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
export const READY_ROW = `ready~${TOTALS_LAYOUT}`;
/**
 * The markers of earlier layouts, in Totals' `<user>~summary` (`ready`: layout 1's, `ready~2`: layout
 * 2's): removed with this layout's, so their code stops trusting the totals and builds its own.
 */
export const EARLIER_READY_ROWS = ['ready', 'ready~2'];
/**
 * A row a build of this layout writes in each aggregate partition (Totals). Code of layout 2 keeps its
 * markers in Totals and its build lists and deletes these partitions whole, this row with them: the
 * aggregates are then its own, and this code, which keeps its marker in TotalsApplied, must not take
 * them for its own. Without this row in the summary partition a writer builds the totals again, and
 * without it in its partition a report page is served by the report index.
 */
export const LAYOUT_ROW = `~layout~${TOTALS_LAYOUT}`;
export const AGGREGATE_KINDS = ['merchants', 'brands', 'corporations', 'months', 'summary'] as const;

/** The aggregate rows were rebuilt by code of another layout since this layout's build. */
export class TotalsOfAnotherLayout extends Error {}
/** Change ids an aggregate row remembers, so a change retried after a crash is applied once. */
export const RECENT_CHANGES = 64;
/** Longest JSON text kept in one property (Azure Tables: 64 KiB, i.e. 32K UTF-16 characters). */
export const CHUNK_CHARS = 30_000;

export const empty = (): Figures => ({ n: 0, counts: {}, priced: {}, sums: {}, tags: {} });

export function bump(map: Record<string, number>, key: string, by: number): void {
  const next = (map[key] ?? 0) + by;
  if (Math.abs(next) < 1e-9) delete map[key];
  else map[key] = Math.round(next * 1e6) / 1e6;
}

export function figuresOf(contribution: Contribution, key: string, label?: string | null): Figures {
  let figures = contribution[key];
  if (!figures) {
    figures = empty();
    if (label !== undefined) figures.label = label;
    contribution[key] = figures;
  }
  return figures;
}

export function count(figures: Figures, currency: string, amount: number | null): void {
  figures.n += 1;
  bump(figures.counts, currency, 1);
  if (amount !== null) {
    bump(figures.priced, currency, 1);
    figures.sums[currency] = Math.round(((figures.sums[currency] ?? 0) + amount) * 1e6) / 1e6;
  }
}

export function tag(figures: Figures, name: string, key: string, by = 1): void {
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
export function addFigures(into: Figures, other: Figures, sign: 1 | -1, whole = true): void {
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

export const isZero = (f: Figures) =>
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

export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Puts JSON text into `name_0`, `name_1`, … (a property holds at most {@link CHUNK_CHARS}). */
export function putJson(entity: TableEntity, name: string, value: unknown): void {
  const text = JSON.stringify(value);
  let part = 0;
  for (let at = 0; at === 0 || at < text.length; at += CHUNK_CHARS) {
    entity[`${name}_${part++}`] = text.slice(at, at + CHUNK_CHARS);
  }
  entity[`${name}_parts`] = part;
}

export function getJson<T>(row: Record<string, unknown>, name: string, fallback: T): T {
  const parts = row[`${name}_parts`];
  if (typeof parts !== 'number') return fallback;
  let text = '';
  for (let part = 0; part < parts; part++) text += String(row[`${name}_${part}`] ?? '');
  return parseJson(text, fallback);
}

export function rowToFigures(row: Record<string, unknown>): { figures: Figures; changes: string[] } {
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

export function figuresToRow(
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
