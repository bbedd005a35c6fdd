import { useCallback } from 'react';
import { AccountPage } from '../../features/account/components/account-page';
import { useSignOut } from '../../features/auth/hooks/use-sign-in';
import { useAppActions } from '../../stores/app-state';

/** The Account page; after the account is deleted, signs out and lands on Login with a message. */
export function AccountRoute() {
  const signOut = useSignOut('/Login');
  const actions = useAppActions();
  const onDeleted = useCallback(async () => {
    await signOut();
    actions.showMessage({
      intent: 'success',
      title: 'Your account and all its data were deleted.',
    });
  }, [signOut, actions]);
  return <AccountPage onDeleted={onDeleted} />;
}
