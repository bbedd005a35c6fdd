import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { deletePushToken, signOutUser, type SignedInUser } from '../../../lib/firebase';
import { useAppActions, useAppState } from '../../../stores/app-state';
import { login } from '../api/login';
import { unregisterFcmToken } from '../api/unregister-fcm-token';

/**
 * What happens after Firebase accepts a person: the server records the user (POST /api/login), the
 * session is stored, and the app goes to /. If the server refuses, Firebase is signed out again so
 * the two never disagree, and the error goes to the caller to show.
 */
export function useCompleteSignIn() {
  const actions = useAppActions();
  const navigate = useNavigate();
  return useCallback(
    async (user: SignedInUser) => {
      try {
        await login({ user_id: user.uid, user_email: user.email, user_name: user.displayName ?? '' });
      } catch (error) {
        await signOutUser().catch(() => undefined);
        throw error;
      }
      actions.signIn({ userId: user.uid, userEmail: user.email, userName: user.displayName });
      navigate('/');
    },
    [actions, navigate],
  );
}

/**
 * Signs out of Firebase and the app, clears cached data and the stored keys, then goes to `to` (/ by
 * default). The device's push token is unregistered on the server and deleted in the browser first,
 * so the next person on this device gets none of this user's notifications.
 */
export function useSignOut(to = '/') {
  const actions = useAppActions();
  const { userId, fcmToken } = useAppState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    if (userId && fcmToken) {
      // While still signed in: the server call needs the ID token. Neither failure stops the sign-out.
      await unregisterFcmToken({ userId, fcmToken }).catch((error: unknown) =>
        console.warn('The push token could not be unregistered', error),
      );
      await deletePushToken().catch((error: unknown) =>
        console.warn('The push token could not be deleted', error),
      );
    }
    // The local sign-out happens even when Firebase cannot be reached.
    await signOutUser().catch((error: unknown) => console.warn('Firebase sign-out failed', error));
    actions.signOut();
    queryClient.clear();
    navigate(to);
  }, [actions, userId, fcmToken, navigate, queryClient, to]);
}
