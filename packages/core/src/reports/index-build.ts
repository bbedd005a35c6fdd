import type { AppData, ReportItem, ReportMerchant, ReportReceipt } from '../entities';
import { normaliseName, receiptIdOfItem } from '../repository/keys';
import { emptyFigures } from './figures';
import { byId, type IndexedItem, type IndexedReceipt, type ReportIndex } from './index-types';

export { byId, MAX_QUERY_RESULTS } from './index-types';
export type { IndexedItem, IndexedReceipt, Ordered, QueryResult, ReportIndex, Selected } from './index-types';

/**
 * The default order of the receipts and items tables, which the index keeps its rows in: newest
 * first (receipts by date and time, items by their receipt's date), ties by id ascending. It is the
 * `date` column's descending order (see ORDERS), so the unfiltered first page is a slice.
 */
export const byDefaultOrder = {
  receipts: (a: IndexedReceipt, b: IndexedReceipt) =>
    a.when > b.when ? -1 : a.when < b.when ? 1 : byId(a.receipt.receipt_id, b.receipt.receipt_id),
  items: (a: IndexedItem, b: IndexedItem) =>
    a.day > b.day ? -1 : a.day < b.day ? 1 : byId(a.item.item_id, b.item.item_id),
};

/**
 * Arranges a user's report data for queries. Linear in the user's receipts and items, apart from
 * sorting them into the default order (the report data comes nearly in that order).
 */
export function buildReportIndex(data: AppData): ReportIndex {
  // Names repeat (a shop visited weekly, a product bought again): each is normalised once.
  const normalised = new Map<string, string>();
  const normalise = (name: string | null | undefined): string => {
    const raw = name ?? '';
    let done = normalised.get(raw);
    if (done === undefined) {
      done = normaliseName(raw);
      normalised.set(raw, done);
    }
    return done;
  };
  // Dates repeat too: each is lowered once, and the receipt's items share it.
  const lowered = new Map<string, string>();
  const lower = (raw: string): string => {
    let done = lowered.get(raw);
    if (done === undefined) {
      done = raw.toLowerCase();
      lowered.set(raw, done);
    }
    return done;
  };
  // The search dictionary's texts, each once: merchants as `name|city`, items as
  // `description|brand|owning corporation`, all normalised.
  const texts: string[] = [];
  const textIds = new Map<string, number>();
  const textOf = (text: string): number => {
    let id = textIds.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      textIds.set(text, id);
    }
    return id;
  };
  const cityOf = new Map<string, string | null>();
  for (const merchant of data.reportMerchants) cityOf.set(merchant.merchant_id, merchant.city);
  const corporationOfBrand = new Map<string, string | null>();
  for (const brand of data.brands) corporationOfBrand.set(brand.name, brand.owning_corporation);
  const receiptById = new Map<string, IndexedReceipt>();
  const receipts = data.reportReceipts.map((receipt) => {
    const merchantText = `${normalise(receipt.merchant_name)}|${normalise(cityOf.get(receipt.merchant_id))}`;
    const indexed: IndexedReceipt = {
      receipt,
      items: [],
      text: merchantText,
      when: lower(`${receipt.transaction_date ?? ''} ${receipt.transaction_time ?? ''}`),
      day: lower(receipt.transaction_date ?? ''),
      rank: 0,
      merchantText: textOf(merchantText),
    };
    receiptById.set(receipt.receipt_id, indexed);
    return indexed;
  });
  const items: IndexedItem[] = [];
  for (const item of data.reportProductItems) {
    const receipt = receiptById.get(item.receipt_id);
    if (!receipt) continue;
    const corporation = item.brand ? (corporationOfBrand.get(item.brand) ?? null) : null;
    const ownText = textOf(
      `${normalise(item.description)}|${normalise(item.brand)}|${normalise(corporation)}`,
    );
    const day = item.receipt_transaction_date ?? '';
    const indexed: IndexedItem = {
      item,
      receipt,
      corporation,
      currency: item.currency_code ?? receipt.receipt.currency_code,
      text: `${texts[ownText]!}|${receipt.text}`,
      day: day === (receipt.receipt.transaction_date ?? '') ? receipt.day : lower(day),
      rank: 0,
      ownText,
    };
    receipt.items.push(indexed);
    items.push(indexed);
  }
  receipts.sort(byDefaultOrder.receipts);
  items.sort(byDefaultOrder.items);

  const all = { receipts: emptyFigures(), items: emptyFigures() };
  for (let rank = 0; rank < items.length; rank++) {
    const indexed = items[rank]!;
    indexed.rank = rank;
    all.items.count += 1;
    all.items.money.add(indexed.currency, indexed.item.total_price);
    all.items.quantity.add(indexed.item.quantity ?? 0);
  }
  for (let rank = 0; rank < receipts.length; rank++) {
    const indexed = receipts[rank]!;
    indexed.rank = rank;
    all.receipts.count += 1;
    all.receipts.money.add(indexed.receipt.currency_code, indexed.receipt.total_amount);
    if (indexed.items.length > 0)
      indexed.text = [indexed.text, ...indexed.items.map((i) => texts[i.ownText]!)].join('|');
  }
  const merchantCity = new Map<string, string | null>();
  const merchantCorporation = new Map<string, string | null>();
  const merchantById = new Map<string, ReportMerchant>();
  for (const merchant of data.reportMerchants) {
    merchantCity.set(merchant.merchant_id, merchant.city);
    merchantCorporation.set(merchant.merchant_id, merchant.owning_corporation ?? null);
    merchantById.set(merchant.merchant_id, merchant);
  }
  return {
    version: data.version,
    receipts,
    items,
    all,
    texts,
    merchantCity,
    merchantCorporation,
    receiptById,
    merchantById,
    results: new Map(),
  };
}

/** One receipt of the index with its items (in report order), or undefined when the user has none of that id. */
export function receiptInIndex(
  index: ReportIndex,
  receiptId: string,
): { receipt: ReportReceipt; items: ReportItem[] } | undefined {
  const found = index.receiptById.get(receiptId);
  return found && { receipt: found.receipt, items: found.items.map((i) => i.item) };
}

/** One item of the index with its receipt and its brand's owning corporation, or undefined. */
export function itemInIndex(
  index: ReportIndex,
  itemId: string,
): { item: ReportItem; receipt: ReportReceipt; corporation: string | null } | undefined {
  const receiptId = receiptIdOfItem(itemId);
  let found = receiptId
    ? index.receiptById.get(receiptId)?.items.find((i) => i.item.item_id === itemId)
    : undefined;
  if (!found) {
    index.itemById ??= new Map(index.items.map((i) => [i.item.item_id, i]));
    found = index.itemById.get(itemId);
  }
  return found && { item: found.item, receipt: found.receipt.receipt, corporation: found.corporation };
}
