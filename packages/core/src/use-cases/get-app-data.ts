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
  const repo = new ReceiptRepository(deps.store);
  const cacheKey = appDataCacheKey(uid);
  const [version, cached] = await Promise.all([
    repo.getDataVersion(uid),
    deps.blobs.get(cacheKey).catch((error: unknown) => {
      deps.logger.warn('app data cache unreadable', { userId: uid, error: String(error) });
      return null;
    }),
  ]);
  // `version` is the first property of the cached JSON, so a stale copy is told without parsing it.
  if (cached) {
    const text = new TextDecoder().decode(cached.bytes);
    if (text.startsWith(`{"version":${JSON.stringify(version)},`)) return text;
  }
  const [receipts, merchants, items] = await Promise.all([
    repo.listReceipts(uid),
    repo.listMerchants(uid),
    repo.listItemsOfUser(uid),
  ]);
  const json = JSON.stringify(buildAppData({ version, receipts, merchants, items }));
  try {
    await deps.blobs.put(cacheKey, new TextEncoder().encode(json), 'application/json');
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
