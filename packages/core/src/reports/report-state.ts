import type { Identity } from '../ports';
import type { ChangedSince } from '../repository/data-changes';
import { changedSince } from '../repository/data-changes';
import { appDataCacheKey, reportPagesCacheKey, reportSharesCacheKey } from '../repository/keys';
import { repositories } from '../repository/repositories';
import type { DataState } from '../repository/user-repository';
import { withStaleWritesFinished } from '../use-cases/commit-write';
import { assertOwnUserId, type AppDeps } from '../use-cases/context';
import { buildAppData } from './app-data-build';
import { readJsonCache, writeJsonCache } from './cache-blobs';
import { answersFromFirstPages, firstPagesOf, type FirstPages } from './first-pages';
import { appDataAt, changedRows, writtenAppData } from './get-app-data';
import { buildReportIndex, type ReportIndex } from './index-build';
import type { PageQuery } from './order';
import { patchFirstPages, sharePartsOf, type PagesChange } from './patch-pages';
import { createReportCache, heldOf, type HeldReports } from './report-cache';
import { SHARE_PARTS, type SharesPart } from './share-parts';

export type ReportDeps = Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache'>;

/** The user's data version and change log, with writes that stopped half-way finished first. */
export async function currentState(deps: ReportDeps, userId: string): Promise<DataState> {
  return withStaleWritesFinished(deps, userId, await repositories(deps.store).users.getDataState(userId));
}

/**
 * The user's report index for their current data version. Costs one point read (the user's data
 * version) when this process has the index of that version. Otherwise the report data this process
 * holds, or else the cached one (one blob read), is brought up to date by reading the receipts and
 * merchants written since (see getAppData's appDataAt), and rebuilt from all of the user's rows only
 * when what changed is not known.
 */
export async function reportIndexOf(deps: ReportDeps, userId: string): Promise<ReportIndex> {
  return indexAt(deps, userId, await currentState(deps, userId));
}

/**
 * The caller's report index, once `userId` is checked to be theirs (the report and detail routes).
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function ownReportIndex(
  deps: ReportDeps,
  identity: Identity,
  userId: string,
): Promise<ReportIndex> {
  assertOwnUserId(identity, userId);
  return reportIndexOf(deps, identity.uid);
}

/**
 * The report index at `state` (just read): the one this process holds, or else built from the report
 * data at that version, by one caller for all those arriving together. A build also makes the
 * first pages of that version when the process holds none, and stores them for other processes.
 */
export function indexAt(deps: ReportDeps, userId: string, state: DataState): Promise<ReportIndex> {
  const held = deps.reportCache.get(userId)?.index;
  if (held?.version === state.version) return Promise.resolve(held);
  return deps.reportCache.shared(`${userId}\n${state.version}\nindex`, async () => {
    const data = await appDataAt(deps, userId, state);
    const index = buildReportIndex(data);
    const now = heldOf(deps.reportCache, userId);
    now.index = index;
    if (now.pages?.version !== index.version) {
      const names: Record<string, string> = {};
      for (const r of data.reportReceipts) names[r.merchant_id] = r.merchant_name;
      const { pages, parts } = firstPagesOf(index, names);
      now.pages = pages;
      now.parts = new Map(parts.map((part, p) => [p, part]));
      await writeFirstPages(deps, userId, pages, now.parts);
    }
    return index;
  });
}

/**
 * The first pages of the user's receipts and items tables at `state`, when `query` may be answered
 * from them: the ones this process holds, or else the stored ones (one small blob read), brought up
 * to date by reading only the receipts written since; null when they cannot be (none stored, the
 * change log does not reach back to them, a merchant renamed), and the report index answers.
 */
export async function firstPagesAt(
  deps: ReportDeps,
  userId: string,
  state: DataState,
  query: PageQuery,
): Promise<FirstPages | null> {
  if (!answersFromFirstPages(query)) return null;
  const held = deps.reportCache.get(userId)?.pages;
  if (held?.version === state.version) return held;
  return deps.reportCache.shared(`${userId}\n${state.version}\npages`, () => pagesAt(deps, userId, state));
}

async function pagesAt(deps: ReportDeps, userId: string, state: DataState): Promise<FirstPages | null> {
  const held = heldOf(deps.reportCache, userId);
  const pages = held.pages ?? (await readJsonCache<FirstPages>(deps, reportPagesCacheKey(userId)));
  // None at all (nor report data: a first import), or stored by a version of this code that kept
  // them otherwise.
  if (!pages) return (await reportDataStored(deps, userId)) ? null : noPages(held, state);
  if (pages.shares?.parts?.length !== SHARE_PARTS || !pages.review) return null;
  if (pages.version === state.version) return (held.pages = pages);
  const since = changedSince(state.changes, pages.version, state.version);
  // More writes since than the log keeps (a bulk import): the report data is likely as old.
  if (!since) return noPages(held, state);
  const change = await pagesChange(deps, userId, state.version, since);
  const parts = await sharesParts(deps, userId, held, pages, sharePartsOf(change));
  const next = patchFirstPages(pages, parts, change);
  if (!next) return null;
  held.pages = next.pages;
  held.parts = new Map([...(held.parts ?? []), ...next.parts]);
  await writeFirstPages(deps, userId, next.pages, next.parts);
  return next.pages;
}

/** Whether the user's report data is stored (a failed listing counts as stored). */
async function reportDataStored(deps: ReportDeps, userId: string): Promise<boolean> {
  const key = appDataCacheKey(userId);
  const keys = await deps.blobs.list(key).catch(() => [key]);
  return keys.includes(key);
}

/** No first pages the log reaches back to at `state`: remembered (see rebuildLikely). */
function noPages(held: HeldReports, state: DataState): null {
  held.noPagesAt = state.version;
  return null;
}

/**
 * Whether the report at `state` will be built from all the user's rows as far as this process can
 * tell: the change log does not reach back to the stored first pages (a bulk import, or more writes
 * than the log keeps), which are written with each report data, or neither is stored; and it holds
 * no report data the log reaches back to.
 */
export function rebuildLikely(held: HeldReports | undefined, state: DataState): boolean {
  if (held?.noPagesAt !== state.version) return false;
  const data = held.data?.version;
  return data === undefined || (data !== state.version && !changedSince(state.changes, data, state.version));
}

/** The parts of the shares named, as `pages` names them: held by this process, or else read. */
async function sharesParts(
  deps: ReportDeps,
  userId: string,
  held: HeldReports,
  pages: FirstPages,
  wanted: number[],
): Promise<Map<number, SharesPart>> {
  const found = await Promise.all(
    wanted.map(async (p) => {
      const own = held.parts?.get(p);
      if (own?.version === pages.shares.parts[p]) return own;
      return readJsonCache<SharesPart>(deps, reportSharesCacheKey(userId, p));
    }),
  );
  const parts = new Map<number, SharesPart>();
  wanted.forEach((p, i) => {
    const part = found[i];
    if (part) parts.set(p, part);
  });
  return parts;
}

/** The receipts written since, as the report rows show them now (see patchFirstPages). */
async function pagesChange(
  deps: ReportDeps,
  userId: string,
  version: string,
  since: ChangedSince,
): Promise<PagesChange> {
  const rows = await changedRows(deps, userId, since);
  const merchants = [...rows.merchants.values()].filter((m) => m !== null);
  const report = buildAppData({ version, receipts: rows.receipts, merchants, items: rows.items });
  return {
    version,
    receiptIds: rows.receiptIds,
    receipts: report.reportReceipts,
    items: report.reportProductItems,
    duplicateOf: new Map(rows.receipts.map((r) => [r.receipt_id, r.possible_duplicate_of ?? null])),
    merchants: rows.merchants,
  };
}

/**
 * Stores the first pages and the parts of the shares given for other processes (a cache: a failed
 * write only costs speed; a part written without its first pages, or the reverse, is of another
 * version than they name, and is not used).
 */
async function writeFirstPages(
  deps: ReportDeps,
  userId: string,
  pages: FirstPages,
  parts: ReadonlyMap<number, SharesPart>,
): Promise<void> {
  await Promise.all([
    writeJsonCache(deps, reportPagesCacheKey(userId), pages),
    ...[...parts].map(([p, part]) => writeJsonCache(deps, reportSharesCacheKey(userId, p), part)),
  ]);
}

/**
 * Brings the user's cached report data up to the current data version, so the next read is served
 * from the cache, with the first pages of the receipts and items tables. The scan worker calls it after writing a receipt and before removing the queue
 * entry: a client that reloads when its queue shrinks gets the new receipt at once, and the work is
 * proportional to what changed since the cache was written (a rebuild only when that is not known).
 */
export async function refreshAppDataCache(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger'> & Partial<Pick<AppDeps, 'reportCache'>>,
  userId: string,
): Promise<void> {
  const state = await repositories(deps.store).users.getDataState(userId);
  // The worker holds no reports between scans: a cache of its own for this one.
  const own = { ...deps, reportCache: deps.reportCache ?? createReportCache({ maxUsers: 1 }) };
  await writtenAppData(own, userId, state);
  await pagesAt(own, userId, state);
}
