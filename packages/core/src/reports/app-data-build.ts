import { roundMoney } from '../analysis';
import type {
  AppData,
  Brand,
  Corporation,
  Receipt,
  ReportItem,
  ReportMerchant,
  ReportReceipt,
} from '../entities';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';

/** What the report takes from a receipt: its row, or the report's own copy of it. */
type ReceiptSource = ReportReceipt;

/** What the report takes from a merchant row. */
type MerchantSource = Pick<
  MerchantRow,
  | 'merchant_id'
  | 'name'
  | 'phone_number'
  | 'postal_code'
  | 'city'
  | 'street_address'
  | 'user_id'
  | 'owning_corporation'
  | 'etag'
>;

/**
 * What the report takes from an item row. An item without `owning_corporation` (the report's own
 * copy of an item) takes its brand's owner from `corporationOfBrand`.
 */
type ItemSource = Pick<
  ItemRow,
  | 'item_id'
  | 'receipt_id'
  | 'description'
  | 'unit_price'
  | 'quantity'
  | 'total_price'
  | 'currency_code'
  | 'user_id'
  | 'brand'
  | 'product_type'
  | 'product_identifier'
> &
  Partial<Pick<ItemRow, 'owning_corporation' | 'from_corrections'>>;

/** The rows that changed since a report was built: what {@link patchAppData} takes. */
export interface AppDataPatch {
  /** The data version the patched report is of. */
  version: string;
  /** Receipts written, edited, moved or deleted since, by id (their old copies are dropped). */
  receiptIds: string[];
  /** Those receipts' rows as they are now (a deleted one has none). */
  receipts: ReceiptRow[];
  /** Every item of those receipts as it is now. */
  items: ItemRow[];
  /** Merchants read again, by id: the row as it is now, or null when it is gone. */
  merchants: Map<string, MerchantRow | null>;
}

/**
 * The report of a newer data version from an older report and the rows that changed in between.
 * The unchanged receipts, items and merchants are taken from the report itself, so this reads no
 * other row; it gives what {@link buildAppData} gives on all of the user's rows at that version.
 */
export function patchAppData(data: AppData, patch: AppDataPatch): AppData {
  const changed = new Set(patch.receiptIds);
  const receipts: ReceiptSource[] = data.reportReceipts.filter((r) => !changed.has(r.receipt_id));
  receipts.push(...patch.receipts);
  const items: ItemSource[] = data.reportProductItems.filter((i) => !changed.has(i.receipt_id));
  items.push(...patch.items);
  const merchants: MerchantSource[] = data.reportMerchants.filter((m) => !patch.merchants.has(m.merchant_id));
  for (const merchant of patch.merchants.values()) if (merchant) merchants.push(merchant);
  const corporationOfBrand = new Map(data.brands.map((b) => [b.name, b.owning_corporation]));
  return buildAppData({ version: patch.version, receipts, merchants, items, corporationOfBrand });
}

/**
 * Builds a user's report data from their rows. Pure: the same rows give the same answer.
 *
 * Money is never added across currencies. The user's *main currency* is the one most of their
 * receipts are in (ties: alphabetical); amounts without a currency count as main. A brand's `total`
 * is its sum in the main currency, with every currency's sum in `totals_by_currency`. A merchant's
 * `merchant_total_amount` is its sum in the merchant's own most frequent currency
 * (`merchant_currency_code`), again with `merchant_totals_by_currency`.
 */
export function buildAppData(input: {
  version: string;
  receipts: ReceiptSource[];
  merchants: MerchantSource[];
  items: ItemSource[];
  /** Owners of brands, for items that carry none (see ItemSource). */
  corporationOfBrand?: Map<string, string | null>;
}): AppData {
  const { version, merchants } = input;
  // A receipt shows its merchant's current name: renaming a merchant renames all its receipts.
  const nameOf = new Map(merchants.map((m) => [m.merchant_id, m.name]));
  const receipts = newestFirst(
    input.receipts.map((r) => ({ ...r, merchant_name: nameOf.get(r.merchant_id) || r.merchant_name })),
  );
  const receiptById = new Map(receipts.map((r) => [r.receipt_id, r]));
  const mainCurrency = mostFrequent(receipts.map((r) => r.currency_code));

  // Items of a receipt row that is not (yet, or any more) there are left out: the receipt row is
  // written last and deleted last, so this hides half-written or half-deleted receipts.
  const itemsOf = new Map<string, ItemSource[]>();
  for (const item of input.items) {
    if (!receiptById.has(item.receipt_id)) continue;
    const group = itemsOf.get(item.receipt_id);
    if (group) group.push(item);
    else itemsOf.set(item.receipt_id, [item]);
  }
  // In report order: receipts newest first, a receipt's items by id.
  const reportProductItems: ReportItem[] = [];
  for (const receipt of receipts) {
    const group = itemsOf.get(receipt.receipt_id);
    if (!group) continue;
    if (group.length > 1) group.sort((a, b) => collator.compare(a.item_id, b.item_id));
    for (const item of group)
      reportProductItems.push({
        item_id: item.item_id,
        receipt_id: item.receipt_id,
        description: item.description,
        unit_price: item.unit_price,
        quantity: item.quantity,
        total_price: item.total_price,
        currency_code: item.currency_code,
        user_id: item.user_id,
        brand: item.brand,
        ...(item.from_corrections ? { from_corrections: true } : {}),
        product_type: item.product_type ?? null,
        product_identifier: item.product_identifier ?? null,
        merchant_name: receipt.merchant_name,
        receipt_transaction_date: receipt.transaction_date,
      });
  }

  const brands = brandTotals(input.items, receiptById, mainCurrency, input.corporationOfBrand);
  const reportMerchants = merchantSummaries(merchants, receipts);

  const corporationNames = new Set<string>();
  for (const brand of brands) if (brand.owning_corporation) corporationNames.add(brand.owning_corporation);
  for (const merchant of reportMerchants)
    if (merchant.owning_corporation) corporationNames.add(merchant.owning_corporation);
  const corporations: Corporation[] = [...corporationNames].sort(byText).map((name) => ({ name }));

  return {
    version,
    reportMerchants,
    corporations,
    brands,
    reportReceipts: receipts.map((r) => toReportReceipt(r, receiptById)),
    reportProductItems,
  };
}

function toReportReceipt(row: ReceiptSource, receiptById: Map<string, ReceiptSource>): ReportReceipt {
  return {
    receipt_id: row.receipt_id,
    doc_type: row.doc_type,
    receipt_type: row.receipt_type,
    country_region: row.country_region,
    merchant_id: row.merchant_id,
    merchant_name: row.merchant_name,
    total_amount: row.total_amount,
    currency_code: row.currency_code,
    total_tax: row.total_tax,
    transaction_date: row.transaction_date,
    transaction_time: row.transaction_time,
    user_id: row.user_id,
    document_url: row.document_url,
    total_checks_out: row.total_checks_out,
    etag: row.etag ?? '',
    needs_review: row.needs_review ?? false,
    review_reasons: row.review_reasons ?? [],
    edited: row.edited ?? [],
    reanalysis_changes: row.reanalysis_changes ?? [],
    analyzed_at: row.analyzed_at,
    // A warning about a receipt that was deleted since is no longer one.
    possible_duplicate_of:
      row.possible_duplicate_of && receiptById.has(row.possible_duplicate_of)
        ? row.possible_duplicate_of
        : null,
    ...(row.merchant_from_corrections ? { merchant_from_corrections: true } : {}),
  };
}

function brandTotals(
  items: ItemSource[],
  receiptById: Map<string, ReceiptSource>,
  mainCurrency: string | null,
  corporationOfBrand?: Map<string, string | null>,
): Brand[] {
  const byName = new Map<string, { brand: Brand; totals: Map<string, number> }>();
  for (const item of items) {
    if (!item.brand || !receiptById.has(item.receipt_id)) continue;
    const owner =
      item.owning_corporation === undefined
        ? (corporationOfBrand?.get(item.brand) ?? null)
        : item.owning_corporation;
    let entry = byName.get(item.brand);
    if (!entry) {
      entry = {
        brand: { name: item.brand, owning_corporation: owner, purchases: 0, total: 0 },
        totals: new Map(),
      };
      byName.set(item.brand, entry);
    }
    entry.brand.purchases += 1;
    if (!entry.brand.owning_corporation && owner) entry.brand.owning_corporation = owner;
    if (item.total_price !== null) {
      const currency = item.currency_code ?? mainCurrency ?? '';
      entry.totals.set(currency, (entry.totals.get(currency) ?? 0) + item.total_price);
    }
  }
  const brands = [...byName.values()].map(({ brand, totals }) => {
    const totals_by_currency: Record<string, number> = {};
    for (const [currency, sum] of [...totals].sort(([a], [b]) => byText(a, b))) {
      if (currency) totals_by_currency[currency] = roundMoney(sum);
    }
    const main = totals.get(mainCurrency ?? '') ?? 0;
    return { ...brand, total: roundMoney(main), totals_by_currency };
  });
  return brands.sort((a, b) => b.total - a.total || b.purchases - a.purchases || byText(a.name, b.name));
}

function merchantSummaries(merchants: MerchantSource[], receipts: ReceiptSource[]): ReportMerchant[] {
  const receiptsOf = new Map<string, ReceiptSource[]>();
  for (const receipt of receipts) {
    const list = receiptsOf.get(receipt.merchant_id) ?? [];
    list.push(receipt);
    receiptsOf.set(receipt.merchant_id, list);
  }
  const out: ReportMerchant[] = [];
  for (const merchant of merchants) {
    const own = receiptsOf.get(merchant.merchant_id) ?? [];
    // A merchant whose last receipt was deleted is removed with it; skip one mid-way.
    if (own.length === 0) continue;
    const currency = mostFrequent(own.map((r) => r.currency_code));
    const totals = new Map<string, number>();
    for (const r of own) {
      if (r.total_amount === null) continue;
      const c = r.currency_code ?? currency ?? '';
      totals.set(c, (totals.get(c) ?? 0) + r.total_amount);
    }
    const dates = own
      .map((r) => r.transaction_date)
      .filter((d): d is string => !!d)
      .sort();
    const latest = own[0]; // receipts are sorted newest first
    const totals_by_currency: Record<string, number> = {};
    for (const [c, sum] of totals) if (c) totals_by_currency[c] = roundMoney(sum);
    out.push({
      merchant_id: merchant.merchant_id,
      name: merchant.name,
      phone_number: merchant.phone_number,
      postal_code: merchant.postal_code,
      city: merchant.city,
      street_address: merchant.street_address,
      user_id: merchant.user_id,
      owning_corporation: merchant.owning_corporation ?? null,
      merchant_region: latest?.country_region ?? null,
      merchant_total_amount: roundMoney(totals.get(currency ?? '') ?? 0),
      merchant_currency_code: currency,
      merchant_totals_by_currency: totals_by_currency,
      merchant_first_visit: dates[0] ?? null,
      merchant_last_visit: dates[dates.length - 1] ?? null,
      etag: merchant.etag ?? '',
    });
  }
  return out.sort((a, b) => byText(a.name, b.name) || byText(a.merchant_id, b.merchant_id));
}

/** The most frequent non-null value (ties: alphabetical), or null. */
function mostFrequent(values: (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [v, n] of [...counts].sort(([a], [b]) => byText(a, b))) {
    if (n > bestCount) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

/** The default locale's order, as `localeCompare` gives it, without building a collator per call. */
const collator = new Intl.Collator();

/** Receipts newest first (date, then time), ties by id. */
function newestFirst<T extends Receipt>(receipts: T[]): T[] {
  const keyed = receipts.map((receipt) => ({
    receipt,
    when: `${receipt.transaction_date ?? ''} ${receipt.transaction_time ?? ''}`,
  }));
  keyed.sort(
    (a, b) =>
      collator.compare(b.when, a.when) || collator.compare(a.receipt.receipt_id, b.receipt.receipt_id),
  );
  return keyed.map((k) => k.receipt);
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
