import { ConflictError, NotFoundError, TooManyRequestsError } from '../errors';
import { repositories } from '../repository/repositories';
import type { Reservation } from '../repository/rows';
import type { QuotaUsage } from '../repository/user-repository';
import type { TableStore } from '../table-store';

/** Per-user limits on uploads, kept on the server (see the README's Configuration). */
export interface UploadQuotas {
  /** Uploads accepted per user per UTC day. */
  uploadsPerDay: number;
  /** Scans a user may have queued or being analysed at once. */
  pendingScans: number;
  /** Bytes of receipt images a user may keep stored. */
  storedBytes: number;
  /**
   * Receipts a user may have analysed again per UTC day ("Analyse again"). Each also counts as one of
   * the day's uploads: it costs an analysis as an upload does.
   */
  reanalysesPerDay: number;
}

export const DEFAULT_UPLOAD_QUOTAS: UploadQuotas = {
  uploadsPerDay: 200,
  pendingScans: 25,
  storedBytes: 1024 * 1024 * 1024,
  reanalysesPerDay: 20,
};

const MB = 1024 * 1024;

/** Seconds from `now` to the next UTC midnight, when the daily count starts again. */
function secondsToNextDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * How long an upload's reservation of a pending scan counts without its queue entry: reserving and
 * inserting the entry are two calls in a row, so an entry not found after this never comes.
 */
export const PENDING_RESERVATION_MS = 60_000;

/**
 * Refuses an upload that would pass one of the user's quotas (TooManyRequestsError, HTTP 429, with
 * when to go on), else counts it: one more upload today, `bytes` more stored and a reservation of
 * one pending scan for `fileName`, in one conditional write of the user's row.
 * @throws AccountDeletedError when the account is being deleted
 */
export async function reserveUpload(
  store: TableStore,
  quotas: UploadQuotas,
  userId: string,
  bytes: number,
  now: Date,
  fileName: string,
  sha256?: string,
): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  // The reservation is also the upload's record of what it is about to write (see settle-uploads.ts).
  const intent = sha256 === undefined ? {} : { h: sha256, b: bytes };
  await editUsage(store, userId, now, { quotas, fileName, intent }, (stored) => {
    const usage = onDay(stored, today);
    if (usage.uploads >= quotas.uploadsPerDay) throw dailyUploadsReached(usage.uploads, now);
    if (usage.bytes + bytes > quotas.storedBytes) {
      throw new TooManyRequestsError(
        `Your receipt images take ${(usage.bytes / MB).toFixed(1)} MB of the ${(quotas.storedBytes / MB).toFixed(0)} MB you may store. Delete receipts you no longer need to upload more.`,
        { code: 'StorageQuota' },
      );
    }
    return { ...usage, uploads: usage.uploads + 1, bytes: usage.bytes + bytes };
  });
}

/**
 * Refuses an "Analyse again" past the user's quotas (TooManyRequestsError, HTTP 429, with when to go
 * on), else counts it: one more analysis again today and one more upload today (it costs an
 * analysis as an upload does), with a pending scan reserved for `fileName`, as reserveUpload does.
 * @throws AccountDeletedError when the account is being deleted
 */
export async function reserveReanalysis(
  store: TableStore,
  quotas: UploadQuotas,
  userId: string,
  now: Date,
  fileName: string,
): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  await editUsage(store, userId, now, { quotas, fileName }, (stored) => {
    const usage = onDay(stored, today);
    const { uploads: uploadsToday, reanalyses: reanalysesToday } = usage;
    if (reanalysesToday >= quotas.reanalysesPerDay) {
      const wait = secondsToNextDay(now);
      throw new TooManyRequestsError(
        `You have had ${reanalysesToday === 1 ? 'a receipt' : `${reanalysesToday} receipts`} analysed again today, the most per day. You can analyse again in ${formatWait(wait)} (at 00:00 UTC); meanwhile, correct the receipt by hand with the pencil button.`,
        { code: 'DailyReanalysisQuota', retryAfterSeconds: wait },
      );
    }
    if (uploadsToday >= quotas.uploadsPerDay)
      throw dailyUploadsReached(uploadsToday, now, ' (analysing a receipt again counts as one)');
    return { ...usage, uploads: uploadsToday + 1, reanalyses: reanalysesToday + 1 };
  });
}

/** The usage as of `today`: the day's counts start again at 0 on a new day. */
function onDay(usage: QuotaUsage, today: string): QuotaUsage {
  return usage.day === today ? usage : { ...usage, day: today, uploads: 0, reanalyses: 0 };
}

function tooManyPending(pending: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `You have ${pending} receipts waiting to be analysed, the most at once. Upload more when some have finished (in a minute or so).`,
    { code: 'TooManyPendingScans', retryAfterSeconds: 60 },
  );
}

function dailyUploadsReached(uploadsToday: number, now: Date, note = ''): TooManyRequestsError {
  const wait = secondsToNextDay(now);
  return new TooManyRequestsError(
    `You have uploaded ${uploadsToday} receipts today${note}, the most per day. You can upload again in ${formatWait(wait)} (at 00:00 UTC).`,
    { code: 'DailyUploadQuota', retryAfterSeconds: wait },
  );
}

/**
 * Gives back `bytes` of the user's stored quota (an image deleted, or an upload not kept), and the
 * pending scan reserved for `fileName` by an upload that was not kept.
 */
export async function releaseStoredBytes(
  store: TableStore,
  userId: string,
  bytes: number,
  reservedFor?: string,
): Promise<void> {
  if (!(bytes > 0) && reservedFor === undefined) return;
  await editUsage(store, userId, new Date(0), {}, (usage) => ({
    ...usage,
    bytes: Math.max(0, usage.bytes - Math.max(0, bytes)),
    pending: usage.pending.filter((r) => r.f !== reservedFor),
  }));
}

/**
 * Takes reservations off the user's row once what their uploads left has been settled (see
 * settle-uploads.ts), giving back the bytes of those whose image is not kept, in one write.
 * @param settled - the reservations as read, each with the bytes to give back (0 when kept)
 */
export async function dropReservations(
  store: TableStore,
  userId: string,
  settled: ReadonlyArray<{ reservation: Reservation; bytes: number }>,
): Promise<void> {
  if (settled.length === 0) return;
  const given = settled.reduce((sum, s) => sum + Math.max(0, s.bytes), 0);
  // A reservation made since for the same file name (a new upload) is not one of these.
  const gone = (r: Reservation) => settled.some((s) => s.reservation.f === r.f && s.reservation.at === r.at);
  await editUsage(store, userId, new Date(0), {}, (usage) => ({
    ...usage,
    bytes: Math.max(0, usage.bytes - given),
    pending: usage.pending.filter((r) => !gone(r)),
  }));
}

/**
 * Edits the quota counts on the user's row, by etag: uploads of one user at once all write this row,
 * so the counts never go past a limit. With `quotas`, the scans pending are counted in the same
 * write: the user's queue entries not failed (read once, before the row), with the reservations on
 * the row (an upload's file name and time, written in the same write as its counts). A reservation
 * leaves the row only when its upload is past pending (its scan written or failed, see
 * bumpDataVersion; or the upload not kept) or after PENDING_RESERVATION_MS, so an upload whose write
 * goes through has counted every upload that is pending, accepted before it, whether or not its
 * entry was there when the queue was read: the pending limit holds however many arrive at once.
 */
async function editUsage(
  store: TableStore,
  userId: string,
  now: Date,
  pendingCheck: { quotas?: UploadQuotas; fileName?: string; intent?: Partial<Reservation> },
  edit: (usage: QuotaUsage) => QuotaUsage,
): Promise<void> {
  const { quotas, fileName } = pendingCheck;
  const { users, scans } = repositories(store);
  const queued = quotas && fileName !== undefined ? await scans.listQueue(userId) : [];
  const waiting = queued.filter((e) => e.status !== 'Failed').map((e) => e.fileName);
  // An entry that failed after the reservation was made: that upload is past pending.
  const failedSince = (r: Reservation) =>
    queued.some((e) => e.fileName === r.f && e.status === 'Failed' && Date.parse(e.updated_at) >= r.at);
  try {
    await users.editQuotaUsage(userId, (stored) => {
      let pending = stored.pending;
      if (quotas && fileName !== undefined) {
        // An upload's reservation past its time stays until what it left is settled; it no longer
        // counts as pending.
        const live = (r: Reservation) => r.at > now.getTime() - PENDING_RESERVATION_MS;
        pending = pending.filter((r) => (live(r) || r.h !== undefined) && r.f !== fileName);
        const reserved = pending.filter((r) => live(r) && !failedSince(r)).map((r) => r.f);
        const count = new Set([...waiting, ...reserved]).size;
        if (count >= quotas.pendingScans) throw tooManyPending(count);
        pending.push({ f: fileName, at: now.getTime(), ...pendingCheck.intent });
      }
      return edit({ ...stored, pending });
    });
  } catch (error) {
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    // The store's conflict names the table and keys; the person gets when to go on instead.
    throw new TooManyRequestsError(
      'Too many uploads from your account at the same moment. Try again in a second.',
      { code: 'QuotaCounterBusy', retryAfterSeconds: 1, cause: error },
    );
  }
}

function formatWait(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}
