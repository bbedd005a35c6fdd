import { useState } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Mail24Regular } from '@fluentui/react-icons/svg/mail';
import { Page } from '../../../components/page';
import { useAppState } from '../../../stores/app-state';
import { useSignOut } from '../hooks/use-sign-in';
import { CreateAccountForm } from './create-account-form';
import { GoogleSignIn } from './google-sign-in';
import { SignInForm } from './sign-in-form';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '420px', width: '100%' },
});

/** Google first; "Login with email" reveals the email sign-in and create-account forms. */
function SignedOut() {
  const styles = useStyles();
  const [showEmail, setShowEmail] = useState(false);
  // The action tried last owns the one error line shown (a Google redirect coming back speaks first).
  const [last, setLast] = useState<'google' | 'signIn' | 'create'>('google');
  return (
    <div className={styles.column}>
      <GoogleSignIn showsError={last === 'google'} onAttempt={() => setLast('google')} />
      <Button
        size="large"
        icon={<Mail24Regular />}
        aria-expanded={showEmail}
        onClick={() => setShowEmail((v) => !v)}
      >
        Login with email
      </Button>
      {showEmail && (
        <>
          <SignInForm showsError={last === 'signIn'} onAttempt={() => setLast('signIn')} />
          <CreateAccountForm showsError={last === 'create'} onAttempt={() => setLast('create')} />
        </>
      )}
    </div>
  );
}

function SignedIn() {
  const styles = useStyles();
  const { userName, userEmail } = useAppState();
  const signOut = useSignOut();
  return (
    <div className={styles.column}>
      <Text size={500}>Welcome, {userName || userEmail || 'friend'}</Text>
      <Button appearance="primary" onClick={signOut}>
        Sign Out
      </Button>
    </div>
  );
}

/** The login screen of spec §2: Google, email and password, create account; welcome and Sign Out. */
export function LoginPage() {
  const { signedIn } = useAppState();
  return <Page title="Login">{signedIn ? <SignedIn /> : <SignedOut />}</Page>;
}
