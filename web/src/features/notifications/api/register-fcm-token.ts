import { apiRequest } from '../../../lib/api-client';

/** POST /api/registerFCMToken: where the server sends this user's push notifications. */
export function registerFcmToken(input: { userId: string; fcmToken: string }): Promise<unknown> {
  return apiRequest('registerFCMToken', { body: input });
}
