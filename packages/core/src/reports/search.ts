import type { ReportItem, ReportReceipt } from '../entities';
import { REPORT_DEFAULT_SORT, ROW_FILTERS, type ReportRows, type ReportTable } from '../contract/reports';
import { addFigures, emptyFigures, type Figures } from './figures';
import {
  TextGroup,
  type IndexedItem,
  type IndexedReceipt,
  type Ordered,
  type ReportIndex,
  type SearchDictionary,
} from './index-types';

export { TextGroup, type SearchDictionary } from './index-types';
import { orderOf, type PageQuery } from './order';
import { searchWords } from './table-rows';

/** The index's search dictionary, made at its first search. Linear in the receipts and items. */
export function searchDictionaryOf(index: ReportIndex): SearchDictionary {
  if (index.search) return index.search;
  const { items, receipts } = index;
  // Items grouped by their own text, and by it and their merchant's, in the default order.
  const itemsByOwn: (TextGroup<IndexedItem> | undefined)[] = [];
  const itemsByMerchant: (TextGroup<IndexedItem>[] | undefined)[] = [];
  const pairs: (Map<number, TextGroup<IndexedItem>> | undefined)[] = [];
  for (const indexed of items) {
    const { ownText } = indexed;
    const merchantText = indexed.receipt.merchantText;
    let own = itemsByOwn[ownText];
    if (!own) {
      own = new TextGroup([ownText]);
      itemsByOwn[ownText] = own;
      pairs[ownText] = new Map();
    }
    own.rows.push(indexed);
    let pair = pairs[ownText]!.get(merchantText);
    if (!pair) {
      pair = new TextGroup([ownText, merchantText]);
      pairs[ownText]!.set(merchantText, pair);
      (itemsByMerchant[merchantText] ??= []).push(pair);
    }
    pair.rows.push(indexed);
    pair.count += 1;
    pair.money.add(indexed.currency, indexed.item.total_price);
    pair.quantity.add(indexed.item.quantity ?? 0);
  }
  for (const byOwn of itemsByMerchant) {
    for (const pair of byOwn ?? []) addFigures(itemsByOwn[pair.texts[0]!]!, pair);
  }
  // Receipts grouped by their whole search text (merchant and every item's own text).
  const receiptGroups = new Map<string, TextGroup<IndexedReceipt>>();
  for (const indexed of receipts) {
    let group = receiptGroups.get(indexed.text);
    if (!group) {
      group = new TextGroup([...new Set([indexed.merchantText, ...indexed.items.map((i) => i.ownText)])]);
      receiptGroups.set(indexed.text, group);
    }
    group.rows.push(indexed);
    group.count += 1;
    group.money.add(indexed.receipt.currency_code, indexed.receipt.total_amount);
  }
  index.search = { receipts: [...receiptGroups.values()], itemsByOwn, itemsByMerchant };
  return index.search;
}

/** Most search words a search through the dictionary takes (one bit each); more are rare, and scanned. */
const MAX_DICTIONARY_WORDS = 30;

/**
 * The receipts or items table in its default order, unfiltered or under a search text only, from
 * the figures the index keeps: the unfiltered table's totals, or the search dictionary's groups.
 * Work in proportion to the page and to the distinct texts, not to the rows. Undefined for any
 * other query.
 */
export function orderedOf<T extends ReportTable>(
  index: ReportIndex,
  query: PageQuery<T>,
): Ordered<T> | undefined {
  const table: ReportTable = query.table;
  if (table !== 'receipts' && table !== 'items') return undefined;
  const order = orderOf(query);
  const fallback = REPORT_DEFAULT_SORT[table];
  if (order.sort !== fallback.sort || order.dir !== fallback.dir) return undefined;
  if (ROW_FILTERS.some((name) => query[name] !== undefined)) return undefined;
  const words = searchWords(query.q);
  if (words.length > MAX_DICTIONARY_WORDS) return undefined;
  let figures: Figures;
  let lists: (IndexedReceipt | IndexedItem)[][];
  if (words.length === 0) {
    figures = index.all[table];
    lists = [table === 'receipts' ? index.receipts : index.items];
  } else {
    // Which words each distinct text holds, one bit per word; a group matches when its texts hold all.
    const { texts } = index;
    const search = searchDictionaryOf(index);
    const holds = new Int32Array(texts.length);
    for (let t = 0; t < texts.length; t++) {
      let bits = 0;
      for (let w = 0; w < words.length; w++) if (texts[t]!.includes(words[w]!)) bits |= 1 << w;
      holds[t] = bits;
    }
    const every = (1 << words.length) - 1;
    const found = emptyFigures();
    const matched: (IndexedReceipt | IndexedItem)[][] = [];
    const take = (group: TextGroup<IndexedReceipt | IndexedItem>) => {
      addFigures(found, group);
      matched.push(group.rows);
    };
    if (table === 'receipts') {
      for (const group of search.receipts) {
        const t = group.texts;
        let bits = 0;
        for (let i = 0; i < t.length; i++) bits |= holds[t[i]!]!;
        if (bits === every) take(group);
      }
    } else {
      // Items whose own text holds every word, then those whose merchant's name holds the rest.
      for (const group of search.itemsByOwn) if (group && holds[group.texts[0]!] === every) take(group);
      const { itemsByMerchant } = search;
      for (let m = 0; m < itemsByMerchant.length; m++) {
        const byOwn = itemsByMerchant[m];
        const merchant = holds[m]!;
        if (!byOwn || merchant === 0) continue;
        for (const pair of byOwn) {
          const own = holds[pair.texts[0]!]!;
          if (own !== every && (own | merchant) === every) take(pair);
        }
      }
    }
    figures = found;
    lists = matched;
  }
  const rowOf = (r: IndexedReceipt | IndexedItem): ReportReceipt | ReportItem =>
    'item' in r ? r.item : r.receipt;
  return {
    count: figures.count,
    totals: figures.money.record(),
    sums: table === 'items' ? { quantity: figures.quantity.value } : {},
    first: (end) => mergedByRank(lists, end).map(rowOf) as ReportRows[T][],
  };
}

/**
 * The first `end` rows of lists each in the default order, in that order: a k-way merge on the
 * rows' positions with a binary heap of the lists' next rows.
 */
function mergedByRank<R extends { rank: number }>(lists: R[][], end: number): R[] {
  if (lists.length === 1) return lists[0]!.slice(0, end);
  // heap: list numbers, ordered by the rank of each list's next row (key).
  const heads = new Int32Array(lists.length);
  const key = new Float64Array(lists.length);
  const heap = new Int32Array(lists.length);
  let size = 0;
  const down = (from: number) => {
    let at = from;
    const l = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && key[heap[child + 1]!]! < key[heap[child]!]!) child += 1;
      if (key[heap[child]!]! >= key[l]!) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = l;
  };
  for (let l = 0; l < lists.length; l++) {
    if (lists[l]!.length === 0) continue;
    key[l] = lists[l]![0]!.rank;
    heap[size++] = l;
  }
  for (let at = (size >> 1) - 1; at >= 0; at--) down(at);
  const out: R[] = [];
  while (out.length < end && size > 0) {
    const l = heap[0]!;
    const list = lists[l]!;
    out.push(list[heads[l]!]!);
    heads[l] += 1;
    if (heads[l]! < list.length) key[l] = list[heads[l]!]!.rank;
    else heap[0] = heap[--size]!;
    down(0);
  }
  return out;
}
