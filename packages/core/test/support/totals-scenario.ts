import {
  ConflictError,
  TABLES,
  TransactionError,
  repositories,
  brandRowsFromTotals,
  buildAppData,
  buildReportIndex,
  corporationRowsFromTotals,
  deleteItem,
  deleteReceiptData,
  listAllEntities,
  merchantRowsFromTotals,
  mergeMerchants,
  moveReceipt,
  processScan,
  queryReportIndex,
  reportTotalsReady,
  saveItem,
  silentLogger,
  createReportCache,
  summaryFromTotals,
  updateReceipt,
  updateReceiptTotals,
  uploadReceipt,
  type AppData,
  type BlobStore,
  type ScanWorkerDeps,
  type EntityKeys,
  type TableEntity,
  type TableStore,
} from '../../src';
import type { ReportTable } from '../../src/contract/reports';
import {
  FakeAnalyzer,
  RecordingNotifier,
  RecordingQueue,
  dataUrlOf,
  fakeReceiptImage,
  identity,
  type FakeReceipt,
} from './fakes';
import type { SeedReceipt } from '../../../../test/support/report-seed';

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence of writes. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Brands with a fixed owner (null: a brand of no known corporation), as the brand dataset has them. */
export const SCENARIO_CATALOG = [
  { name: 'Coca-Cola', owning_corporation: 'The Coca-Cola Company' },
  { name: 'Fanta', owning_corporation: 'The Coca-Cola Company' },
  { name: 'Heinz', owning_corporation: 'Kraft Heinz' },
  { name: 'Nescafé', owning_corporation: 'Nestlé' },
  { name: 'Milo', owning_corporation: 'Nestlé' },
  { name: 'Dove', owning_corporation: 'Unilever' },
];
const LOCAL_BRAND = 'Boulangerie Maison';
const SHOPS = [
  { merchant: 'Delhaize Ixelles', postal: '1050', city: 'Brussels' },
  { merchant: 'Carrefour Market', postal: '1000', city: 'Brussels' },
  { merchant: 'Tesco Extra', postal: 'LS1 4DT', city: 'Leeds' },
  { merchant: 'Café Nero', postal: null, city: 'London' },
  { merchant: 'Aldi', postal: '2000', city: 'Antwerp' },
];
const CURRENCIES = ['EUR', 'EUR', 'GBP', 'USD'];

/** The operations a run applies, counted. */
export type ScenarioCounts = Record<string, number>;

/**
 * Applies `steps` random writes for `userId` through the app's own use cases and scan worker: scans,
 * receipt edits (total, date, currency, merchant name), item edits, additions and deletions, moves,
 * merges, deletes, and retried totals updates of a receipt (as a redelivered scan does). Every choice
 * comes from `seed`.
 */
export async function runRandomWrites(
  env: { store: TableStore; blobs: BlobStore },
  userId: string,
  seed: number,
  steps: number,
  afterStep?: (step: number, op: string) => Promise<void>,
): Promise<ScenarioCounts> {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const money = () => Math.round(random() * 5000) / 100;
  const day = () =>
    `${pick(['2023', '2024'])}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(
      1 + Math.floor(random() * 28),
    ).padStart(2, '0')}`;
  const who = identity(userId);
  const queue = new RecordingQueue();
  const clock = Date.parse('2024-06-01T12:00:00Z');
  const deps = {
    store: env.store,
    blobs: env.blobs,
    queue,
    logger: silentLogger,
    reportCache: createReportCache(),
    now: () => new Date(clock),
  };
  const worker: ScanWorkerDeps = {
    ...deps,
    analyzer: new FakeAnalyzer(),
    notifier: new RecordingNotifier(),
    maxAttempts: 3,
    retryDelaySeconds: () => 1,
  };
  const edits = { ...deps, brandCatalog: SCENARIO_CATALOG };
  const repos = repositories(env.store);
  const counts: ScenarioCounts = {};
  let uploads = 0;

  const receipts = async () =>
    (await repos.receipts.listReceipts(userId)).sort((a, b) => a.file_name.localeCompare(b.file_name));
  const etagOf = async (table: string, partitionKey: string, rowKey: string) =>
    (await env.store.getEntity(table, partitionKey, rowKey))?.etag ?? '';
  const item = () => {
    const branded = random() < 0.75;
    const brand = branded ? (random() < 0.85 ? pick(SCENARIO_CATALOG) : null) : undefined;
    return {
      description: `Product ${Math.floor(random() * 40)}`,
      price: money(),
      ...(brand ? { brand: brand.name, owner: brand.owning_corporation } : {}),
      ...(branded && !brand ? { brand: LOCAL_BRAND } : {}),
    };
  };

  for (let step = 0; step < steps; step++) {
    const existing = await receipts();
    const roll = random();
    let op: string;
    if (existing.length < 3 || roll < 0.3) {
      op = 'scan';
      const shop = pick(SHOPS);
      const lines = Array.from({ length: Math.floor(random() * 5) }, item);
      const receipt: FakeReceipt = {
        ...shop,
        date: day(),
        currency: pick(CURRENCIES),
        total: Math.round(lines.reduce((s, i) => s + i.price, 0) * 100) / 100,
        items: lines,
        photo: `${seed}-${uploads}`,
      };
      const fileName = `${1714560000000 + uploads++}-scan.jpg`;
      await uploadReceipt(deps, who, { userId, fileName, imgSrc: dataUrlOf(fakeReceiptImage(receipt)) });
      while (queue.jobs.length > 0) await processScan(worker, queue.jobs.shift()!.job);
    } else {
      const target = pick(existing);
      const input = {
        userId,
        receiptId: target.receipt_id,
        etag: await etagOf(TABLES.receipts, userId, target.receipt_id),
      };
      if (roll < 0.45) {
        op = 'edit receipt';
        const which = pick(['total', 'date', 'currency', 'merchant', 'undated', 'no total'] as const);
        const changes =
          which === 'total'
            ? { total_amount: money() }
            : which === 'date'
              ? { transaction_date: day() }
              : which === 'currency'
                ? { currency_code: pick(CURRENCIES) }
                : which === 'merchant'
                  ? { merchant_name: pick([...SHOPS.map((s) => s.merchant), 'Corner Shop']) }
                  : which === 'undated'
                    ? { transaction_date: null }
                    : { total_amount: null };
        await updateReceipt(edits, who, { ...input, changes });
      } else if (roll < 0.6) {
        const items = await repos.receipts.listItemsOfReceipt(target.receipt_id);
        const line = item();
        const existingItem = items.length > 0 && random() < 0.5 ? pick(items) : undefined;
        op = existingItem ? 'edit item' : 'add item';
        await saveItem(edits, who, {
          ...input,
          ...(existingItem ? { itemId: existingItem.item_id } : {}),
          item: {
            description: line.description,
            quantity: random() < 0.3 ? 2 : 1,
            unit_price: line.price,
            total_price: random() < 0.1 ? null : line.price,
            brand: line.brand ?? null,
          },
        });
      } else if (roll < 0.7) {
        const items = await repos.receipts.listItemsOfReceipt(target.receipt_id);
        if (items.length === 0) continue;
        op = 'delete item';
        await deleteItem(edits, who, { ...input, itemId: pick(items).item_id });
      } else if (roll < 0.78) {
        const merchants = (await repos.merchants.listMerchants(userId)).filter(
          (m) => m.merchant_id !== target.merchant_id,
        );
        if (merchants.length === 0) continue;
        op = 'move';
        await moveReceipt(edits, who, { ...input, merchantId: pick(merchants).merchant_id });
      } else if (roll < 0.83) {
        const merchants = await repos.merchants.listMerchants(userId);
        if (merchants.length < 2) continue;
        op = 'merge';
        const kept = pick(merchants);
        const duplicate = pick(merchants.filter((m) => m.merchant_id !== kept.merchant_id));
        await mergeMerchants(edits, who, {
          userId,
          merchantId: kept.merchant_id,
          etag: await etagOf(TABLES.merchants, userId, kept.merchant_id),
          duplicateId: duplicate.merchant_id,
          duplicateEtag: await etagOf(TABLES.merchants, userId, duplicate.merchant_id),
        });
      } else if (roll < 0.93) {
        op = 'delete';
        await deleteReceiptData(deps, who, { userId, receiptId: target.receipt_id });
      } else {
        // A redelivered scan applies the receipt's totals once more: nothing may change.
        op = 'retried update';
        await updateReceiptTotals(env.store, userId, target.file_name);
      }
    }
    counts[op] = (counts[op] ?? 0) + 1;
    await afterStep?.(step, op);
  }
  return counts;
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The user's report data as built from all of their rows at their current data version. */
export async function appDataFromAllRows(store: TableStore, userId: string): Promise<AppData> {
  const repos = repositories(store);
  const { version } = await repos.users.getDataState(userId);
  const [receipts, merchants] = await Promise.all([
    repos.receipts.listReceipts(userId),
    repos.merchants.listMerchants(userId),
  ]);
  const items = await repos.receipts.listItemsOfReceipts(userId, receipts);
  return buildAppData({ version, receipts, merchants, items });
}

/**
 * The figures as a full recomputation gives them: the report data built from all the user's rows
 * (buildAppData) and queried unfiltered through the report index, plus the per-currency and
 * per-month totals of its receipts and items.
 */
export async function recomputedTotals(store: TableStore, userId: string) {
  const repos = repositories(store);
  const [receipts, merchants] = await Promise.all([
    repos.receipts.listReceipts(userId),
    repos.merchants.listMerchants(userId),
  ]);
  const items = await repos.receipts.listItemsOfReceipts(userId, receipts);
  const data = buildAppData({ version: 'recomputed', receipts, merchants, items });
  const index = buildReportIndex(data);
  const rows = <T extends ReportTable>(table: T) =>
    queryReportIndex(index, { table, pageSize: 1_000_000 }).rows;
  const sum = (into: Record<string, number>, currency: string | null, amount: number | null) => {
    if (amount === null) return;
    into[currency ?? ''] = Math.round(((into[currency ?? ''] ?? 0) + amount) * 100) / 100;
  };
  const receiptTotals: Record<string, number> = {};
  const itemTotals: Record<string, number> = {};
  const months = new Map<string, { month: string; receipts: number; totals: Record<string, number> }>();
  let quantity = 0;
  for (const r of data.reportReceipts) {
    sum(receiptTotals, r.currency_code, r.total_amount);
    const month = r.transaction_date ? r.transaction_date.slice(0, 7) : 'undated';
    const entry = months.get(month) ?? { month, receipts: 0, totals: {} };
    entry.receipts += 1;
    sum(entry.totals, r.currency_code, r.total_amount);
    months.set(month, entry);
  }
  const currencyOf = new Map(data.reportReceipts.map((r) => [r.receipt_id, r.currency_code]));
  for (const i of data.reportProductItems) {
    sum(itemTotals, i.currency_code ?? currencyOf.get(i.receipt_id) ?? null, i.total_price);
    quantity += i.quantity ?? 0;
  }
  return {
    merchants: rows('merchants').sort(byKey((m) => m.merchant_id)),
    brands: rows('brands').sort(byKey((b) => b.name)),
    corporations: rows('corporations').sort(byKey((c) => c.name)),
    summary: {
      receipts: data.reportReceipts.length,
      items: data.reportProductItems.length,
      needsReview: data.reportReceipts.filter((r) => r.needs_review).length,
      quantity: Math.round(quantity * 1e6) / 1e6,
      receiptTotals,
      itemTotals,
      months: [...months.values()].sort(byKey((m) => m.month)),
    },
  };
}

/** The same figures as the incremental totals hold them (which must be of this layout). */
export async function incrementalTotals(store: TableStore, userId: string) {
  const [merchants, brands, corporations, summary] = await Promise.all([
    merchantRowsFromTotals(store, userId),
    brandRowsFromTotals(store, userId),
    corporationRowsFromTotals(store, userId),
    summaryFromTotals(store, userId),
  ]);
  if (!merchants || !brands || !corporations || !summary) {
    throw new Error(`The totals of ${userId} are not of this layout (a partition lacks its layout row).`);
  }
  return {
    merchants: merchants.sort(byKey((m) => m.merchant_id)),
    brands: brands.sort(byKey((b) => b.name)),
    corporations: corporations.sort(byKey((c) => c.name)),
    summary: { ...summary, months: summary.months.sort(byKey((m) => m.month)) },
  };
}

/** Every contribution row left with a change in progress (there must be none after the writes). */
export async function pendingChanges(store: TableStore, userId: string): Promise<string[]> {
  const rows = await listAllEntities(store, TABLES.totalsApplied, {
    partitionKeyPrefix: `${userId}~applied~`,
  });
  return rows.filter((r) => typeof r.pending_id === 'string').map((r) => r.rowKey);
}

export { reportTotalsReady };

/**
 * The store, with every write to a user's aggregate totals rows held until `readers` reads of brand
 * rows were made (or 5 s passed): writers started at once all read the same rows before any of them
 * writes, so all but one lose the race on each shared partition, whatever the timing. `races` counts
 * the writes refused for that (a stale etag, a row created meanwhile), each then retried.
 */
export function heldUntilAllRead(
  store: TableStore,
  readers: number,
): { store: TableStore; races: () => number } {
  let reads = 0;
  let races = 0;
  let release: () => void = () => undefined;
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 5000).unref();
  });
  const aggregate = (table: unknown, partitionKey: unknown) =>
    table === TABLES.totals && typeof partitionKey === 'string';
  const held: TableStore = Object.create(store) as TableStore;
  held.getEntities = async <T extends TableEntity = TableEntity>(
    table: string,
    keys: readonly EntityKeys[],
  ) => {
    const rows = await store.getEntities<T>(table, keys);
    if (keys.some((k) => k.partitionKey.endsWith('~brands')) && ++reads >= readers) release();
    return rows;
  };
  const write =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>, partitionOf: (...args: A) => unknown) =>
    async (...args: A): Promise<R> => {
      const table = args[0];
      if (aggregate(table, partitionOf(...args))) await allRead;
      try {
        return await call(...args);
      } catch (error) {
        if (error instanceof ConflictError || (error instanceof TransactionError && error.lostRace)) races++;
        throw error;
      }
    };
  held.createEntity = write(store.createEntity.bind(store), (_t, entity) => entity.partitionKey);
  held.updateEntity = write(store.updateEntity.bind(store), (_t, entity) => entity.partitionKey);
  held.submitTransaction = write(
    store.submitTransaction.bind(store),
    (_t, actions) => actions[0]?.[1].partitionKey,
  );
  return { store: held, races: () => races };
}

/** Two new receipts of the same merchant, day and brands (Nescafé of Nestlé, Heinz of Kraft Heinz). */
export function twinReceipts(tag: string): SeedReceipt[] {
  return [1, 2].map((n) => ({
    fileName: `17100000000${n}0-${tag}-twin.jpg`,
    merchant: `Twin Market ${tag}`,
    date: '2024-06-01',
    currency: 'EUR',
    items: [
      { description: 'Coffee', price: 4.5 * n, brand: 'Nescafé', owner: 'Nestlé' },
      { description: 'Ketchup', price: 2.25 * n, brand: 'Heinz', owner: 'Kraft Heinz' },
    ],
  }));
}
