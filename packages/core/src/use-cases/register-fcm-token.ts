import type { Identity } from '../ports';
import { ReceiptRepository } from '../repository/receipt-repository';
import { assertOwnUserId, type AppDeps } from './context';

/** Keeps a device's push token so the worker can notify the user (spec §7 POST /api/registerFCMToken). */
export async function registerFcmToken(
  deps: Pick<AppDeps, 'store'>,
  identity: Identity,
  input: { userId: string; fcmToken: string },
): Promise<{ registered: true }> {
  assertOwnUserId(identity, input.userId);
  await new ReceiptRepository(deps.store).addFcmToken(identity.uid, input.fcmToken);
  return { registered: true };
}
