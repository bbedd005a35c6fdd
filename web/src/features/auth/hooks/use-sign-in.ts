import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { signOutUser, type SignedInUser } from '../../../lib/firebase';
import { useAppActions } from '../../../stores/app-state';
import { login } from '../api/login';

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

/** Signs out of Firebase and the app, clears cached data and the stored keys, then goes to /. */
export function useSignOut() {
  const actions = useAppActions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    // The local sign-out happens even when Firebase cannot be reached.
    await signOutUser().catch((error: unknown) => console.warn('Firebase sign-out failed', error));
    actions.signOut();
    queryClient.clear();
    navigate('/');
  }, [actions, navigate, queryClient]);
}
