import { inBatches } from '../in-batches';
import type { AppData } from '../entities';
import type { Identity } from '../ports';
import { buildAppData, patchAppData } from './app-data-build';
import { changedSince } from '../repository/data-changes';
import { appDataCacheKey, receiptIdFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import type { DataState } from '../repository/user-repository';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';
import type { ChangedSince } from '../repository/data-changes';
import { withStaleWritesFinished } from '../use-cases/commit-write';
import { assertOwnUserId, type AppDeps } from '../use-cases/context';
import { readCacheBlob, writeJsonCache } from './cache-blobs';
import { heldOf, type ReportsCache } from './report-cache';

type DataDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache'>;

/**
 * The user's report data as JSON text (spec §7 GET /api/getAppData). Cached in the blob store under
 * the user's data version, which every write of the user's data changes: a cached answer is served
 * only while it is current. A stale one is brought up to date by reading again only the receipts and
 * merchants written since (the data version's log), or rebuilt from all of the user's rows when the
 * log does not reach back to it.
 */
export async function getAppDataJson(
  deps: DataDeps,
  identity: Identity,
  input: { userId: string },
): Promise<string> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const [read, cached] = await Promise.all([
    repositories(deps.store).users.getDataState(uid),
    readCache(deps, uid),
  ]);
  const state = await withStaleWritesFinished(deps, uid, read);
  const current = cachedText(cached, state.version);
  if (current !== null) return current;
  const json = JSON.stringify(await upToDate(deps, uid, state, { cached, write: 'never' }));
  await writeCache(deps, uid, json);
  return json;
}

/**
 * The user's report data at their current data version (`state`, just read), as an object: the
 * copy this process holds, else the cached one, each brought up to date; or rebuilt. The report
 * queries and Home use it.
 */
export async function appDataAt(deps: DataDeps, userId: string, state: DataState): Promise<AppData> {
  const held = deps.reportCache.get(userId)?.data;
  if (held?.version === state.version) return held;
  return upToDate(deps, userId, state, { write: 'cold' });
}

/** The report data at `state`, written to the blob cache (see refreshAppDataCache). */
export function writtenAppData(deps: DataDeps, userId: string, state: DataState): Promise<AppData> {
  return upToDate(deps, userId, state, { write: 'always' });
}

/** The user's report data (see getAppDataJson). */
export async function getAppData(
  deps: DataDeps,
  identity: Identity,
  input: { userId: string },
): Promise<AppData> {
  return JSON.parse(await getAppDataJson(deps, identity, input)) as AppData;
}

/** Remembers the user's report data in the process's report cache. */
function remember(cache: ReportsCache, userId: string, data: AppData): AppData {
  heldOf(cache, userId).data = data;
  return data;
}

/**
 * The report data at `state.version`, from the freshest copy at hand, patched with what changed
 * since: this process's copy, else the cached one (read unless given); rebuilt when neither can be.
 * A copy that changed is written to the cache with `write: 'always'`, and with `'cold'` unless it was
 * this process's copy (patching that in memory is the fast path of the report queries).
 */
function upToDate(
  deps: DataDeps,
  userId: string,
  state: DataState,
  options: { cached?: { bytes: Uint8Array } | null; write: 'always' | 'cold' | 'never' },
): Promise<AppData> {
  const cache = deps.reportCache;
  return cache.shared(`${userId}\n${state.version}\n${options.write}`, async () => {
    const held = cache.get(userId)?.data;
    if (held?.version === state.version) {
      if (options.write === 'always') await writeCache(deps, userId, JSON.stringify(held));
      return remember(cache, userId, held);
    }
    let data = held ? await patched(deps, userId, held, state) : null;
    const cold = !data;
    if (!data) {
      const cached = parseCache(
        deps,
        userId,
        options.cached !== undefined ? options.cached : await readCache(deps, userId),
      );
      if (cached?.version === state.version) return remember(cache, userId, cached);
      data =
        (cached && (await patched(deps, userId, cached, state))) ??
        (await rebuilt(deps, userId, state.version));
    }
    if (options.write === 'always' || (options.write === 'cold' && cold)) {
      await writeCache(deps, userId, JSON.stringify(data));
    }
    return remember(cache, userId, data);
  });
}

/** Receipts or merchants read at once while patching. */
const READS_AT_ONCE = 16;

/**
 * `base` brought to `state.version` by reading again the receipts (with their items) and merchants
 * written since, or null when the data version's log does not reach back to `base`.
 */
async function patched(
  deps: DataDeps,
  userId: string,
  base: AppData,
  state: DataState,
): Promise<AppData | null> {
  const since = changedSince(state.changes, base.version, state.version);
  if (!since) return null;
  return patchAppData(base, { version: state.version, ...(await changedRows(deps, userId, since)) });
}

/** The receipts (with their items) and merchants written since, read again (strongly consistent). */
export async function changedRows(
  deps: Pick<AppDeps, 'store'>,
  userId: string,
  since: ChangedSince,
): Promise<{
  receiptIds: string[];
  receipts: ReceiptRow[];
  items: ItemRow[];
  merchants: Map<string, MerchantRow | null>;
}> {
  const repos = repositories(deps.store);
  const receiptIds = since.files.map((fileName) => receiptIdFor(userId, fileName));
  const receipts = (
    await inBatches(receiptIds, READS_AT_ONCE, (id) => repos.receipts.getReceipt(userId, id))
  ).filter((r) => r !== null);
  const merchantIds = [...new Set([...since.merchants, ...receipts.map((r) => r.merchant_id)])];
  // The items after their receipts (see rebuilt); the merchants at the same time as the items.
  const [itemLists, merchantRows] = await Promise.all([
    inBatches(receipts, READS_AT_ONCE, (r) => repos.receipts.listItemsOfReceipt(r.receipt_id)),
    inBatches(merchantIds, READS_AT_ONCE, (id) => repos.merchants.getMerchant(userId, id)),
  ]);
  const items = itemLists.flat();
  const merchants = new Map<string, MerchantRow | null>(
    merchantIds.map((id, i) => [id, merchantRows[i] ?? null]),
  );
  return { receiptIds, receipts, items, merchants };
}

/**
 * The user's receipts and merchants, listed once for the callers that need them at `version` at the
 * same time: the report built from all rows, and the receipts' first pages made without the items
 * (receipt-heads.ts), both asked for by the first visit after a bulk import.
 */
export function receiptsAndMerchants(
  deps: Pick<AppDeps, 'store' | 'reportCache'>,
  uid: string,
  version: string,
): Promise<{ receipts: ReceiptRow[]; merchants: MerchantRow[] }> {
  return deps.reportCache.shared(`${uid}\n${version}\nreceipts and merchants`, async () => {
    const repos = repositories(deps.store);
    const [receipts, merchants] = await Promise.all([
      repos.receipts.listReceipts(uid),
      repos.merchants.listMerchants(uid),
    ]);
    return { receipts, merchants };
  });
}

/** The report data from all of the user's rows. */
async function rebuilt(deps: DataDeps, uid: string, version: string): Promise<AppData> {
  const repos = repositories(deps.store);
  const { receipts, merchants } = await receiptsAndMerchants(deps, uid, version);
  // Read after the receipts, and checked against them: a report must never miss the items of a
  // receipt it shows.
  const items = await repos.receipts.listItemsOfReceipts(uid, receipts);
  return buildAppData({ version, receipts, merchants, items });
}

function readCache(deps: Pick<AppDeps, 'blobs' | 'logger'>, uid: string) {
  return readCacheBlob(deps, appDataCacheKey(uid));
}

/** The cached JSON text when it is of `version`, else null. */
function cachedText(cached: { bytes: Uint8Array } | null, version: string): string | null {
  if (!cached) return null;
  // `version` is the first property of the cached JSON, so a stale copy is told without parsing it.
  const text = new TextDecoder().decode(cached.bytes);
  return text.startsWith(`{"version":${JSON.stringify(version)},`) ? text : null;
}

function parseCache(
  deps: Pick<AppDeps, 'logger'>,
  uid: string,
  cached: { bytes: Uint8Array } | null,
): AppData | null {
  if (!cached) return null;
  try {
    const data = JSON.parse(new TextDecoder().decode(cached.bytes)) as AppData;
    return typeof data.version === 'string' && Array.isArray(data.reportReceipts) ? data : null;
  } catch (error) {
    deps.logger.warn('app data cache unreadable', { userId: uid, error: String(error) });
    return null;
  }
}

function writeCache(deps: Pick<AppDeps, 'blobs' | 'logger'>, uid: string, json: string): Promise<void> {
  return writeJsonCache(deps, appDataCacheKey(uid), json);
}
