import { TABLES, listAllEntities, type AppData, type TableStore } from '../../src';

const money = (n: number) => Math.round(n * 100) / 100;

/**
 * The figures the reports show, computed again from the user's raw rows with none of the app's
 * report code: what getAppData must agree with after any edit, move or merge.
 */
export async function recomputeFromRows(store: TableStore, userId: string) {
  const receipts = await listAllEntities(store, TABLES.receipts, { partitionKey: userId });
  const merchants = await listAllEntities(store, TABLES.merchants, { partitionKey: userId });
  const items = (await listAllEntities(store, TABLES.items, { partitionKeyPrefix: `${userId}~` })).filter(
    (i) => receipts.some((r) => r.rowKey === i.partitionKey),
  );
  const merchantFigures = merchants
    .map((m) => {
      const own = receipts.filter((r) => r.merchant_id === m.rowKey);
      const totals: Record<string, number> = {};
      for (const r of own) {
        if (typeof r.total_amount !== 'number') continue;
        const c = String(r.currency_code);
        totals[c] = money((totals[c] ?? 0) + r.total_amount);
      }
      const dates = own.map((r) => String(r.transaction_date)).sort();
      return {
        merchant_id: m.rowKey,
        name: String(m.name),
        receipts: own.length,
        totals,
        first: dates[0] ?? null,
        last: dates[dates.length - 1] ?? null,
      };
    })
    .filter((m) => m.receipts > 0)
    .sort((a, b) => a.merchant_id.localeCompare(b.merchant_id));
  const brands = new Map<
    string,
    { purchases: number; totals: Record<string, number>; owner: string | null }
  >();
  for (const i of items) {
    if (typeof i.brand !== 'string' || !i.brand) continue;
    const b = brands.get(i.brand) ?? { purchases: 0, totals: {}, owner: null };
    b.purchases += 1;
    if (typeof i.total_price === 'number') {
      const c = String(i.currency_code);
      b.totals[c] = money((b.totals[c] ?? 0) + i.total_price);
    }
    if (typeof i.owning_corporation === 'string' && i.owning_corporation) b.owner ??= i.owning_corporation;
    brands.set(i.brand, b);
  }
  const corporations = new Set<string>();
  for (const b of brands.values()) if (b.owner) corporations.add(b.owner);
  for (const m of merchants) {
    const used = merchantFigures.some((f) => f.merchant_id === m.rowKey);
    if (used && typeof m.owning_corporation === 'string' && m.owning_corporation)
      corporations.add(m.owning_corporation);
  }
  return {
    merchants: merchantFigures,
    brands: [...brands]
      .map(([name, b]) => ({ name, purchases: b.purchases, totals: b.totals, owner: b.owner }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    corporations: [...corporations].sort(),
    receipts: receipts
      .map((r) => ({
        receipt_id: r.rowKey,
        merchant_id: String(r.merchant_id),
        total_amount: r.total_amount ?? null,
      }))
      .sort((a, b) => a.receipt_id.localeCompare(b.receipt_id)),
    itemCount: items.length,
  };
}

/** The same figures, as getAppData answered them. */
export function figuresOf(data: AppData) {
  return {
    merchants: data.reportMerchants
      .map((m) => ({
        merchant_id: m.merchant_id,
        name: m.name,
        receipts: data.reportReceipts.filter((r) => r.merchant_id === m.merchant_id).length,
        totals: m.merchant_totals_by_currency ?? {},
        first: m.merchant_first_visit,
        last: m.merchant_last_visit,
      }))
      .sort((a, b) => a.merchant_id.localeCompare(b.merchant_id)),
    brands: data.brands
      .map((b) => ({
        name: b.name,
        purchases: b.purchases,
        totals: b.totals_by_currency ?? {},
        owner: b.owning_corporation,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    corporations: data.corporations.map((c) => c.name).sort(),
    receipts: data.reportReceipts
      .map((r) => ({ receipt_id: r.receipt_id, merchant_id: r.merchant_id, total_amount: r.total_amount }))
      .sort((a, b) => a.receipt_id.localeCompare(b.receipt_id)),
    itemCount: data.reportProductItems.length,
  };
}
