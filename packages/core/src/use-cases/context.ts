import { idSchema } from '../contract/ids';
import { ForbiddenError } from '../errors';
import type { BlobStore, Identity, Logger, ScanQueue } from '../ports';
import type { ReportsCache } from '../reports/report-cache';
import type { TableStore } from '../table-store';
import type { UploadQuotas } from './quotas';

/** The ports the request use cases work with. */
export interface AppDeps {
  store: TableStore;
  blobs: BlobStore;
  queue: ScanQueue;
  logger: Logger;
  /**
   * What this process keeps of its users' read models between requests (one per process or test:
   * see createReportCache).
   */
  reportCache: ReportsCache;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
  /** Per-user upload limits (default DEFAULT_UPLOAD_QUOTAS). */
  quotas?: UploadQuotas;
}

export const nowOf = (deps: { now?: () => Date }): Date => (deps.now ? deps.now() : new Date());

/** Who may use the admin routes (Storage Tester). Decided on the server from configuration. */
export interface AdminPolicy {
  /** Admin e-mail addresses, compared case-insensitively. */
  emails: readonly string[];
  /** Whether the token must say the e-mail is verified (true in the cloud). */
  requireVerifiedEmail: boolean;
}

/**
 * Checks that the verified identity may act for `userId` (a query or body field): it must be the
 * token's own uid. There is no fallback user.
 * @throws ForbiddenError when it is another user's id
 */
export function assertOwnUserId(identity: Identity, userId: string): void {
  if (userId !== identity.uid) {
    throw new ForbiddenError("userId is not the signed-in user's id; you can only reach your own data.", {
      code: 'WrongUser',
    });
  }
}

/**
 * Checks that the token's uid can key our tables (Firebase's own uids always can).
 * @throws ForbiddenError otherwise
 */
export function assertUsableUid(identity: Identity): void {
  if (!idSchema('uid').safeParse(identity.uid).success) {
    throw new ForbiddenError('This account id cannot be used with this app; sign in with another account.', {
      code: 'UnusableUid',
    });
  }
}

/** Whether the identity is an admin under the policy. */
export function isAdmin(identity: Identity, policy: AdminPolicy): boolean {
  const email = identity.email?.trim().toLowerCase();
  if (!email) return false;
  if (policy.requireVerifiedEmail && identity.emailVerified !== true) return false;
  return policy.emails.some((e) => e.trim().toLowerCase() === email);
}

/** @throws ForbiddenError unless the identity is an admin */
export function assertAdmin(identity: Identity, policy: AdminPolicy): void {
  if (!isAdmin(identity, policy)) {
    throw new ForbiddenError('Only an administrator may use the storage tester.', { code: 'NotAdmin' });
  }
}
