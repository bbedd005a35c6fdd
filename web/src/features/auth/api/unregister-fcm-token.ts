import { apiRequest } from '../../../lib/api-client';

/** POST /api/unregisterFCMToken: the server stops sending this user's notifications to the device. */
export function unregisterFcmToken(input: { userId: string; fcmToken: string }): Promise<unknown> {
  return apiRequest('unregisterFCMToken', { body: input });
}
