import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, Text, makeStyles } from '@fluentui/react-components';
import { sendPasswordReset, signInWithEmail } from '../../../lib/firebase';
import { useCompleteSignIn } from '../hooks/use-sign-in';
import { ACCOUNT_MESSAGES, SIGN_IN_MESSAGES } from '../utils/sign-in-errors';
import { AccountForm, EmailPasswordFields, failureMessage, type ErrorTurn } from './account-form';

const useStyles = makeStyles({
  forgot: { justifySelf: 'start' },
});

interface Credentials {
  email: string;
  password: string;
}

/**
 * "Sign in with email": email and password, and "Forgot password?", which has the identity provider
 * email a reset link to the address typed in (it works against the Auth emulator too).
 */
export function SignInForm({ showsError = true, onAttempt }: ErrorTurn = {}) {
  const styles = useStyles();
  const completeSignIn = useCompleteSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: async ({ email, password }: Credentials) => {
      if (!email || !password) throw new Error(SIGN_IN_MESSAGES.missingFields);
      await completeSignIn(await signInWithEmail(email, password));
    },
  });
  const reset = useMutation({
    mutationFn: async (address: string) => {
      if (!address) throw new Error(ACCOUNT_MESSAGES.resetNeedsEmail);
      await sendPasswordReset(address);
    },
  });

  // One error line for both: each action clears what the other said.
  function submit() {
    onAttempt?.();
    reset.reset();
    signIn.mutate({ email, password });
  }

  function forgotPassword() {
    onAttempt?.();
    signIn.reset();
    reset.mutate(email.trim());
  }

  return (
    <AccountForm
      title="Sign in"
      label="Sign in with email"
      errorId="login-error"
      error={showsError ? failureMessage(signIn.error ?? reset.error) : null}
      busy={signIn.isPending}
      submitText="Sign in"
      busyText="Signing in…"
      primary
      onSubmit={submit}
    >
      <EmailPasswordFields
        email={email}
        password={password}
        passwordAutoComplete="current-password"
        onEmail={setEmail}
        onPassword={setPassword}
      />
      <Link
        as="button"
        type="button"
        className={styles.forgot}
        disabled={reset.isPending}
        onClick={forgotPassword}
      >
        Forgot password?
      </Link>
      {reset.isSuccess && <Text role="status">{ACCOUNT_MESSAGES.resetSent(reset.variables)}</Text>}
    </AccountForm>
  );
}
