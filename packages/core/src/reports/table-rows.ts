import type {
  BrandReportRow,
  CorporationReportRow,
  MerchantReportRow,
  ReportFilter,
  ReportRows,
  ReportTable,
} from '../contract/reports';
import { withShopOwners } from '../contract/reports';
import { ValidationError } from '../errors';
import { normaliseName } from '../repository/keys';
import { CurrencySums, ExactSum, Group } from './figures';
import type { IndexedItem, IndexedReceipt, ReportIndex, Summed } from './index-types';

export type { Summed } from './index-types';
import { comparatorOf, orderOf, text, type PageQuery } from './order';

/** The receipts under the filter's receipt conditions (date, currency, category, merchant). */
export function receiptMatches(r: IndexedReceipt, f: ReportFilter): boolean {
  const { receipt } = r;
  if (f.from && (receipt.transaction_date ?? '') < f.from) return false;
  if (f.to && (!receipt.transaction_date || receipt.transaction_date > f.to)) return false;
  if (f.currency && receipt.currency_code !== f.currency) return false;
  if (f.category && (receipt.receipt_type ?? '').toLowerCase() !== f.category.toLowerCase()) return false;
  if (f.merchant && receipt.merchant_id !== f.merchant) return false;
  if (f.review === 'needed' && receipt.needs_review !== true) return false;
  return true;
}

export function itemMatches(i: IndexedItem, f: ReportFilter): boolean {
  if (f.brand && i.item.brand !== f.brand) return false;
  if (f.corporation && i.corporation !== f.corporation) return false;
  if (f.currency && i.currency !== f.currency) return false;
  return true;
}

/** Normalised search words; every word must occur (in any field). */
export function searchWords(q: string | undefined): string[] {
  return q ? normaliseName(q).split(' ').filter(Boolean) : [];
}
export const hasAll = (haystack: string, words: string[]) => words.every((w) => haystack.includes(w));

export function filteredReceipts(index: ReportIndex, f: ReportFilter): IndexedReceipt[] {
  const words = searchWords(f.q);
  return index.receipts.filter((r) => {
    if (!receiptMatches(r, f)) return false;
    if ((f.brand || f.corporation) && !r.items.some((i) => itemMatches(i, f))) return false;
    return hasAll(r.text, words);
  });
}

/** Items under the filter; the search text must match the item itself or its merchant. */
export function filteredItems(index: ReportIndex, f: ReportFilter): IndexedItem[] {
  const words = searchWords(f.q);
  return index.items.filter(
    (i) => receiptMatches(i.receipt, f) && itemMatches(i, f) && hasAll(i.text, words),
  );
}

function merchantRows(index: ReportIndex, receipts: IndexedReceipt[]): MerchantReportRow[] {
  const groups = new Map<string, { group: Group; name: string; first: string | null; last: string | null }>();
  for (const { receipt } of receipts) {
    let entry = groups.get(receipt.merchant_id);
    if (!entry) {
      entry = { group: new Group(), name: receipt.merchant_name, first: null, last: null };
      groups.set(receipt.merchant_id, entry);
    }
    entry.group.add(receipt.currency_code, receipt.total_amount);
    const day = receipt.transaction_date;
    if (day) {
      if (!entry.first || day < entry.first) entry.first = day;
      if (!entry.last || day > entry.last) entry.last = day;
    }
  }
  return [...groups].map(([id, { group, name, first, last }]) => {
    const main = group.money.main(group.counts);
    return {
      merchant_id: id,
      name,
      city: index.merchantCity.get(id) ?? null,
      owning_corporation: index.merchantCorporation.get(id) ?? null,
      visits: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
      first_visit: first,
      last_visit: last,
    };
  });
}

function brandRows(items: IndexedItem[]): BrandReportRow[] {
  const groups = new Map<string, { group: Group; corporation: string | null }>();
  for (const i of items) {
    if (!i.item.brand) continue;
    let entry = groups.get(i.item.brand);
    if (!entry) {
      entry = { group: new Group(), corporation: i.corporation };
      groups.set(i.item.brand, entry);
    }
    entry.group.add(i.currency, i.item.total_price);
  }
  return [...groups].map(([name, { group, corporation }]) => {
    const main = group.money.main(group.counts);
    return {
      name,
      owning_corporation: corporation,
      purchases: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
    };
  });
}

function corporationRows(items: IndexedItem[]): CorporationReportRow[] {
  const groups = new Map<string, { group: Group; brands: Set<string> }>();
  for (const i of items) {
    if (!i.corporation) continue;
    let entry = groups.get(i.corporation);
    if (!entry) {
      entry = { group: new Group(), brands: new Set() };
      groups.set(i.corporation, entry);
    }
    entry.group.add(i.currency, i.item.total_price);
    if (i.item.brand) entry.brands.add(i.item.brand);
  }
  return [...groups].map(([name, { group, brands }]) => {
    const main = group.money.main(group.counts);
    return {
      name,
      brands: [...brands].sort(text),
      purchases: group.n,
      total: main.total,
      currency_code: main.currency,
      totals_by_currency: group.money.record(),
    };
  });
}

/** The tables whose rows are sums over receipts or items (one row per merchant, brand, corporation). */
export type SummaryTable = 'merchants' | 'brands' | 'corporations';

/**
 * The rows of a merchants, brands or corporations table that match the search words (merchants:
 * name or city; brands: name or corporation; corporations: name or a brand), with the money totals
 * per currency and the count sums of the table's total row.
 */
export function summed<T extends SummaryTable>(table: T, all: ReportRows[T][], words: string[]): Summed<T> {
  const money = new CurrencySums();
  const add = (totals: Record<string, number>) => {
    for (const [c, amount] of Object.entries(totals)) money.add(c || null, amount);
  };
  switch (table) {
    case 'merchants': {
      const rows = (all as MerchantReportRow[]).filter((m) =>
        hasAll(`${normaliseName(m.name)}|${normaliseName(m.city ?? '')}`, words),
      );
      let visits = 0;
      for (const m of rows) {
        visits += m.visits;
        add(m.totals_by_currency);
      }
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: { visits } };
    }
    case 'brands': {
      const rows = (all as BrandReportRow[]).filter((b) =>
        hasAll(`${normaliseName(b.name)}|${normaliseName(b.owning_corporation ?? '')}`, words),
      );
      let purchases = 0;
      for (const b of rows) {
        purchases += b.purchases;
        add(b.totals_by_currency);
      }
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: { purchases } };
    }
    default: {
      const rows = (all as CorporationReportRow[]).filter((c) =>
        hasAll([normaliseName(c.name), ...c.brands.map(normaliseName)].join('|'), words),
      );
      let purchases = 0;
      const brands = new Set<string>();
      for (const c of rows) {
        purchases += c.purchases;
        for (const b of c.brands) brands.add(b);
        add(c.totals_by_currency);
      }
      return {
        rows: rows as ReportRows[T][],
        totals: money.record(),
        sums: { purchases, brands: brands.size },
      };
    }
  }
}

/** All rows of a table under the query's filter, with the money and count sums over them. */
export function rowsOf<T extends ReportTable>(index: ReportIndex, query: PageQuery<T>): Summed<T> {
  const money = new CurrencySums();
  switch (query.table) {
    case 'receipts': {
      const rows = filteredReceipts(index, query).map((r) => r.receipt);
      for (const r of rows) money.add(r.currency_code, r.total_amount);
      return { rows: rows as ReportRows[T][], totals: money.record(), sums: {} };
    }
    case 'items': {
      const found = filteredItems(index, query);
      const quantity = new ExactSum();
      for (const i of found) {
        money.add(i.currency, i.item.total_price);
        quantity.add(i.item.quantity ?? 0);
      }
      return {
        rows: found.map((i) => i.item) as ReportRows[T][],
        totals: money.record(),
        sums: { quantity: quantity.value },
      };
    }
    // One meaning of the search text in every table (see `q` in report-api): the
    // merchants of the receipts it finds, the brands and corporations of the items it finds, each
    // summed over those receipts or items only.
    case 'merchants':
      return summed('merchants', merchantRows(index, filteredReceipts(index, query)), []) as Summed<T>;
    case 'brands':
      return summed('brands', brandRows(filteredItems(index, query)), []) as Summed<T>;
    case 'corporations': {
      // Through the brands (the items it finds) and, apart, through the shops it owns (the
      // merchants of the receipts it finds).
      const shops = merchantRows(index, filteredReceipts(index, query));
      const rows = withShopOwners(corporationRows(filteredItems(index, query)), shops);
      return summed('corporations', rows, []) as Summed<T>;
    }
  }
  throw new ValidationError(`Unknown report table: ${String(query.table)}`, { code: 'InvalidRequest' });
}

/** Every row of a table under the filter, in the query's order (for the export). */
export function sortedRows<T extends ReportTable>(
  index: ReportIndex,
  query: Omit<PageQuery<T>, 'pageSize' | 'pageToken'>,
): ReportRows[T][] {
  const { rows } = rowsOf(index, { ...query, pageSize: 1 });
  return [...rows].sort(comparatorOf(query.table, orderOf(query)));
}
