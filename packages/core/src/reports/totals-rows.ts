import { roundMoney } from '../analysis';
import { TABLES } from '../entities';
import type { BrandReportRow, CorporationReportRow, MerchantReportRow } from '../contract/reports';
import { listAllEntities, type StoredEntity, type TableStore } from '../table-store';
import { repositories } from '../repository/repositories';
import {
  totalsPartition,
  LAYOUT_ROW,
  empty,
  rowToFigures,
  type Figures,
  type TotalsKind,
} from './totals-layout';

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
