import { useEffect } from 'react';
import { currentUser } from '../../../lib/firebase';
import { useAppActions, useAppState } from '../../../stores/app-state';

/**
 * Reconciles the session restored from local storage with Firebase's own: the name comes from
 * Firebase, and a stored session Firebase no longer knows (expired, account deleted) is signed out
 * rather than left to fail every call.
 */
export function SessionSync() {
  const { signedIn, userId } = useAppState();
  const actions = useAppActions();
  useEffect(() => {
    if (!signedIn || !userId) return;
    let active = true;
    currentUser()
      .then((user) => {
        if (!active) return;
        if (!user || user.uid !== userId) actions.signOut();
        else actions.setUserName(user.displayName);
      })
      .catch((error: unknown) => console.warn('Could not restore the Firebase session', error));
    return () => {
      active = false;
    };
  }, [signedIn, userId, actions]);
  return null;
}
