import {
  repositories,
  TABLES,
  itemIdFor,
  itemToRow,
  merchantIdFor,
  normaliseName,
  receiptIdFor,
  type ItemRow,
  type TableStore,
  type TransactionAction,
} from '@receipts/core';

/** One receipt to seed: its merchant, day, currency, category and items. */
export interface SeedReceipt {
  fileName: string;
  merchant: string;
  city?: string;
  date: string;
  currency?: string;
  category?: string;
  /** Flagged by its analysis for a person to check (its items do not add up to the total). */
  needsReview?: boolean;
  items: { description: string; price: number; quantity?: number; brand?: string; owner?: string }[];
}

/**
 * Writes receipts as the scan worker would (items in one transaction per receipt, merchant, then the
 * receipt row) straight through the repository, without OCR, and changes the user's data version.
 * @returns the receipt ids, in the order given
 */
export async function seedReceipts(
  store: TableStore,
  userId: string,
  receipts: SeedReceipt[],
  concurrency = 4,
): Promise<string[]> {
  const repos = repositories(store);
  const merchants = new Map<string, string>();
  for (const r of receipts) {
    if (merchants.has(r.merchant)) continue;
    const postal = String(1000 + merchants.size);
    const id = merchantIdFor(r.merchant, postal);
    merchants.set(r.merchant, id);
    await repos.merchants.saveMerchant({
      merchant_id: id,
      name: r.merchant,
      phone_number: null,
      postal_code: postal,
      city: r.city ?? 'Brussels',
      street_address: null,
      user_id: userId,
      owning_corporation: null,
      name_key: normaliseName(r.merchant),
    });
  }
  let next = 0;
  const write = async (r: SeedReceipt) => {
    const receiptId = receiptIdFor(userId, r.fileName);
    const currency = r.currency ?? 'EUR';
    const items: ItemRow[] = r.items.map((item, i) => ({
      item_id: itemIdFor(receiptId, i),
      receipt_id: receiptId,
      description: item.description,
      unit_price: item.price,
      quantity: item.quantity ?? 1,
      total_price: Math.round(item.price * (item.quantity ?? 1) * 100) / 100,
      currency_code: currency,
      user_id: userId,
      brand: item.brand ?? null,
      product_type: null,
      product_identifier: null,
      vectors: null,
      owning_corporation: item.owner ?? null,
    }));
    // One transaction per 100 items (a store's limit), as the repository writes a long receipt.
    for (let i = 0; i < items.length; i += 100) {
      await store.submitTransaction(
        TABLES.items,
        items.slice(i, i + 100).map((item): TransactionAction => ['create', itemToRow(item)]),
      );
    }
    await repos.receipts.saveReceipt({
      receipt_id: receiptId,
      doc_type: 'receipt',
      receipt_type: r.category ?? 'grocery',
      country_region: 'BE',
      merchant_id: merchants.get(r.merchant)!,
      merchant_name: r.merchant,
      total_amount: Math.round(items.reduce((s, i) => s + (i.total_price ?? 0), 0) * 100) / 100,
      currency_code: currency,
      total_tax: null,
      transaction_date: r.date,
      transaction_time: '12:00:00',
      user_id: userId,
      document_url: `blob://${userId}/${r.fileName}`,
      total_checks_out: true,
      file_name: r.fileName,
      analyzed_at: new Date().toISOString(),
      item_count: items.length,
      ...(r.needsReview ? { needs_review: true, review_reasons: ['total_check_fails' as const] } : {}),
    });
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < receipts.length) await write(receipts[next++]!);
    }),
  );
  await repos.users.bumpDataVersion(userId, new Date(), { files: receipts.map((r) => r.fileName) });
  return receipts.map((r) => receiptIdFor(userId, r.fileName));
}

const BRANDS: [string, string][] = [
  ['Coca-Cola', 'The Coca-Cola Company'],
  ['Heinz', 'Kraft Heinz'],
  ['Dove', 'Unilever'],
  ['Nescafé', 'Nestlé'],
  ['Milo', 'Nestlé'],
  ['Colgate', 'Colgate-Palmolive'],
  ['Cadbury', 'Mondelez International'],
  ["Kellogg's", 'WK Kellogg Co'],
];

/** `count` generated receipts of `itemsPerReceipt` branded items each, over 40 merchants and 2024. */
export function generatedReceipts(tag: string, count: number, itemsPerReceipt: number): SeedReceipt[] {
  return Array.from({ length: count }, (_, r) => ({
    fileName: `${1700000000000 + r}-receipt.jpg`,
    merchant: `Shop ${r % 40} of ${tag}`,
    date: `2024-${String(1 + (r % 12)).padStart(2, '0')}-${String(1 + (r % 28)).padStart(2, '0')}`,
    currency: r % 10 === 0 ? 'GBP' : 'EUR',
    items: Array.from({ length: itemsPerReceipt }, (_, i) => {
      const [brand, owner] = BRANDS[(r + i) % BRANDS.length]!;
      return { description: `${brand.toUpperCase()} PRODUCT ${i}`, price: 1.25 + i, brand, owner };
    }),
  }));
}
