import { ValidationError } from '../errors';
import type { BlobStore, Logger } from '../ports';
import { invalidateReportTotals } from '../reports/totals-build';
import type { WrittenItems } from '../reports/totals-update';
import { repositories } from '../repository/repositories';
import type { DataState } from '../repository/user-repository';
import { ALL_FILES, type UploadRef, type WriteIntent } from '../repository/write-intents';
import type { TableStore } from '../table-store';
import { isWellFormedText, MALFORMED_TEXT_MESSAGE } from '../well-formed-text';
import { nowOf } from './context';
import { removeMerchantIfUnused } from '../repository/merchant-repository';
import { afterReceiptWrites } from '../reports/after-receipt-writes';
import { settleStaleUploads, settleUpload } from './settle-uploads';

/**
 * A write intent older than this belongs to a write that stopped (a crash, a timeout): a reader
 * finishes it. Far longer than any write takes, and shorter than a Lambda's longest run is fine too,
 * since finishing a write that is still going on is harmless (see finishPendingWrites).
 */
export const WRITE_INTENT_LEASE_MS = 60_000;

export interface CommitDeps {
  store: TableStore;
  logger: Logger;
  now?: () => Date;
  /**
   * With the blob store, finishing a write also settles what its uploads left (images, analysis,
   * index rows; see settle-uploads.ts), and readers settle uploads that stopped half-way.
   */
  blobs?: BlobStore;
}

/** What a write is about to change: receipts by file name, and merchants beyond the receipts' own. */
export interface WritePlan {
  files: string[];
  merchants?: string[];
  /** Uploads whose leftovers go if no receipt or queue entry holds them once the write is done. */
  uploads?: UploadRef[];
}

/** What a write's rows step answers: the use case's answer, and the item keys it wrote, if known. */
export interface Applied<T> {
  answer: T;
  written?: WrittenItems;
  /** Receipts it changed beyond the plan's (found only once it had claimed its rows). */
  files?: string[];
}

/**
 * The one commit step of every write of a user's receipts and merchants:
 *
 * 1. writes of this user that stopped half-way before (their intents on the user's row) are
 *    finished first, so a receipt they left behind its reports is editable again;
 * 2. `prepare` reads and checks everything (a bad input, a stale etag or a missing row fails here,
 *    before any write) and says which receipts and merchants the write changes;
 * 3. the intent to change them is recorded on the user's row (a conditional write) before any of
 *    their rows is written;
 * 4. `apply` writes the rows;
 * 5. the read models take the change whatever `apply` did: the report totals of those receipts are
 *    updated from their rows (idempotent), and the data version changes, logging them and removing
 *    the intent in the same conditional write.
 *
 * A crash between any two store calls leaves the intent on the user's row; the next write of the
 * user (step 1) or the next read (see finishStaleWrites) does step 5 for it.
 */
export async function commitWrite<P extends WritePlan, T>(
  deps: CommitDeps,
  userId: string,
  steps: { prepare: () => Promise<P>; apply: (plan: P) => Promise<Applied<T>> },
): Promise<T> {
  const repos = repositories(deps.store);
  await finishPendingWrites(deps, userId, await repos.users.getDataState(userId));
  const plan = await steps.prepare();
  const intent: WriteIntent = {
    id: `${nowOf(deps).getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    files: [...new Set(plan.files)],
    merchants: [...new Set(plan.merchants ?? [])],
    at: nowOf(deps).toISOString(),
    ...(plan.uploads?.length ? { uploads: plan.uploads } : {}),
  };
  await repos.users.addWriteIntent(userId, intent);
  let applied: Applied<T> | undefined;
  let failure: { error: unknown } | undefined;
  try {
    applied = await steps.apply(plan);
  } catch (error) {
    failure = { error };
  }
  // Also after a failure: rows written before it must reach the reports (a retry of the same edit
  // would find its etag stale and answer 409 until they do).
  try {
    const more = (applied?.files ?? []).filter((f) => !intent.files.includes(f));
    const finished = more.length > 0 ? { ...intent, files: [...intent.files, ...more] } : intent;
    await finishIntents(deps, userId, [finished], { written: applied?.written, settle: !!failure });
  } catch (error) {
    if (!failure) throw error;
    deps.logger.warn('write not finished; the next write or read of the user finishes it', {
      userId,
      error: String(error),
    });
  }
  if (failure) throw failure.error;
  return applied!.answer;
}

/**
 * Finishes the user's writes that stopped half-way: the read models take the rows their intents
 * name as the rows are now. Intents older than `leaseMs` are removed; younger ones may belong to a
 * write still going on, which finishes them itself, so they stay (finishing them here as well only
 * updates the reports once more).
 * @returns whether there was anything to finish
 */
export async function finishPendingWrites(
  deps: CommitDeps,
  userId: string,
  state: DataState,
  leaseMs: number = WRITE_INTENT_LEASE_MS,
): Promise<boolean> {
  if (state.intents.length === 0) return false;
  const now = nowOf(deps).getTime();
  const stale = (intent: WriteIntent) => now - (Date.parse(intent.at) || 0) >= leaseMs;
  deps.logger.warn('finishing writes that stopped half-way', {
    userId,
    writes: state.intents.map((i) => ({ id: i.id, at: i.at, files: i.files.length })),
  });
  await finishIntents(deps, userId, state.intents, { settle: true, remove: state.intents.filter(stale) });
  return true;
}

/**
 * For readers: the user's data state with the writes that stopped half-way (older than the lease)
 * finished, so that a report never keeps a receipt's old row for good.
 */
export async function withStaleWritesFinished(
  deps: CommitDeps,
  userId: string,
  state: DataState,
): Promise<DataState> {
  const now = nowOf(deps).getTime();
  const stale = state.intents.filter((i) => now - (Date.parse(i.at) || 0) >= WRITE_INTENT_LEASE_MS);
  // Best effort: a reader that may not write (a read-only route in the cloud) leaves the
  // reservations to the user's next upload.
  const settled = deps.blobs
    ? await settleStaleUploads({ ...deps, blobs: deps.blobs }, userId, state.uploads ?? []).catch(
        (error: unknown) => {
          deps.logger.warn('stopped uploads not settled', { userId, error: String(error) });
          return 0;
        },
      )
    : 0;
  if (stale.length === 0 && settled === 0) return state;
  if (stale.length > 0) await finishPendingWrites(deps, userId, { ...state, intents: stale });
  return repositories(deps.store).users.getDataState(userId);
}

/**
 * Step 5 of commitWrite for these intents; `remove` (default: all of them) leave the user's row.
 * With `settle` (a write that failed, or one found unfinished), what their uploads left is settled.
 */
async function finishIntents(
  deps: CommitDeps,
  userId: string,
  intents: readonly WriteIntent[],
  options: { written?: WrittenItems; settle?: boolean; remove?: readonly WriteIntent[] } = {},
): Promise<void> {
  const { written, remove = intents } = options;
  if (options.settle && deps.blobs) {
    for (const upload of intents.flatMap((i) => i.uploads ?? [])) {
      await settleUpload({ ...deps, blobs: deps.blobs }, userId, upload.f, upload.h);
    }
  }
  const repos = repositories(deps.store);
  const files = [...new Set(intents.flatMap((i) => i.files))];
  const merchants = [...new Set(intents.flatMap((i) => i.merchants))];
  const ids = remove.map((i) => i.id);
  if (files.includes(ALL_FILES)) {
    // Too many receipts to name: the totals are built again and every copy of the report rebuilt.
    await invalidateReportTotals(deps.store, userId);
    await repos.users.bumpDataVersion(userId, nowOf(deps));
    await repos.users.removeWriteIntents(userId, ids);
    return;
  }
  // A merchant a finished write named and left without receipts (created, or emptied by a move or
  // a merge, before the write stopped) goes, as a merchant goes with its last receipt.
  const tidied = [...new Set(remove.flatMap((i) => i.merchants))];
  for (const merchantId of tidied) await removeMerchantIfUnused(repos, userId, merchantId);
  await afterReceiptWrites(deps, userId, files, written);
  await repos.users.bumpDataVersion(userId, nowOf(deps), { files, merchants }, ids);
}

/**
 * Checks text a person typed before anything is written: every store must be able to hold it.
 * @throws ValidationError naming the first field that holds a broken character
 */
export function assertStorableText(fields: Record<string, unknown>): void {
  for (const [label, value] of Object.entries(fields)) {
    if (typeof value === 'string' && !isWellFormedText(value)) {
      throw new ValidationError(MALFORMED_TEXT_MESSAGE(label), { code: 'MalformedText' });
    }
  }
}
