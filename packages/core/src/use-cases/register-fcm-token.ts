import type { Identity } from '../ports';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, type AppDeps } from './context';

/**
 * Keeps a device's push token so the worker can notify the user (spec §7 POST /api/registerFCMToken).
 * A token belongs to one user: registering one that another user had moves it to this user.
 */
export async function registerFcmToken(
  deps: Pick<AppDeps, 'store'>,
  identity: Identity,
  input: { userId: string; fcmToken: string },
): Promise<{ registered: true }> {
  assertOwnUserId(identity, input.userId);
  await repositories(deps.store).users.registerFcmToken(identity.uid, input.fcmToken);
  return { registered: true };
}

/**
 * Forgets a device's push token for the signed-in user (POST /api/unregisterFCMToken, on sign-out), so
 * the device gets no more of this user's notifications. Idempotent; a token now registered by another
 * user stays theirs.
 */
export async function unregisterFcmToken(
  deps: Pick<AppDeps, 'store'>,
  identity: Identity,
  input: { userId: string; fcmToken: string },
): Promise<{ unregistered: true }> {
  assertOwnUserId(identity, input.userId);
  await repositories(deps.store).users.unregisterFcmToken(identity.uid, input.fcmToken);
  return { unregistered: true };
}
