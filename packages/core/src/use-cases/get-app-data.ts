import type { AppData } from '../entities';
import type { Identity } from '../ports';
import { buildAppData } from '../repository/app-data';
import { appDataCacheKey } from '../repository/keys';
import { ReceiptRepository } from '../repository/receipt-repository';
import { assertOwnUserId, type AppDeps } from './context';

/**
 * The user's report data as JSON text (spec §7 GET /api/getAppData). Built from the user's
 * receipts, merchants and items, and cached in the blob store under the user's data version, which
 * every write of the user's data changes: a cached answer is served only while it is current.
 */
export async function getAppDataJson(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  identity: Identity,
  input: { userId: string },
): Promise<string> {
  assertOwnUserId(identity, input.userId);
  const uid = identity.uid;
  const [version, cached] = await Promise.all([
    new ReceiptRepository(deps.store).getDataVersion(uid),
    readCache(deps, uid),
  ]);
  return cachedOrBuilt(deps, uid, version, cached);
}

/**
 * The user's report data as JSON text for a data version the caller has just read: the cached copy
 * when it is of that version, else rebuilt (and cached). The report queries use it on a miss of
 * their in-memory index.
 */
export async function appDataJsonAt(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  userId: string,
  version: string,
): Promise<string> {
  return cachedOrBuilt(deps, userId, version, await readCache(deps, userId));
}

function readCache(deps: Pick<AppDeps, 'blobs' | 'logger'>, uid: string) {
  return deps.blobs.get(appDataCacheKey(uid)).catch((error: unknown) => {
    deps.logger.warn('app data cache unreadable', { userId: uid, error: String(error) });
    return null;
  });
}

function cachedOrBuilt(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  uid: string,
  version: string,
  cached: { bytes: Uint8Array } | null,
): Promise<string> | string {
  // `version` is the first property of the cached JSON, so a stale copy is told without parsing it.
  if (cached) {
    const text = new TextDecoder().decode(cached.bytes);
    if (text.startsWith(`{"version":${JSON.stringify(version)},`)) return text;
  }
  return buildAndCache(deps, uid, version);
}

/**
 * Rebuilds the user's cached report data for the current data version, so the next getAppData is
 * served from the cache. The scan worker calls it after writing a receipt and before removing the
 * queue entry: a client that reloads when its queue shrinks gets the new receipt at once.
 * @returns the report data as JSON text
 */
export async function refreshAppDataCache(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  userId: string,
): Promise<string> {
  const version = await new ReceiptRepository(deps.store).getDataVersion(userId);
  return buildAndCache(deps, userId, version);
}

async function buildAndCache(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  uid: string,
  version: string,
): Promise<string> {
  const repo = new ReceiptRepository(deps.store);
  const [receipts, merchants] = await Promise.all([repo.listReceipts(uid), repo.listMerchants(uid)]);
  // Read after the receipts, and checked against them: a cached report must never miss the items
  // of a receipt it shows.
  const items = await repo.listItemsOfReceipts(uid, receipts);
  const json = JSON.stringify(buildAppData({ version, receipts, merchants, items }));
  try {
    await deps.blobs.put(appDataCacheKey(uid), new TextEncoder().encode(json), 'application/json');
  } catch (error) {
    // A cache that cannot be written only costs speed.
    deps.logger.warn('app data cache not written', { userId: uid, error: String(error) });
  }
  return json;
}

/** The user's report data (see getAppDataJson). */
export async function getAppData(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'>,
  identity: Identity,
  input: { userId: string },
): Promise<AppData> {
  return JSON.parse(await getAppDataJson(deps, identity, input)) as AppData;
}
