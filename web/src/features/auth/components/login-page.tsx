import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, Field, Input, Link, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Mail24Regular } from '@fluentui/react-icons/svg/mail';
import { Page } from '../../../components/page';
import {
  createAccount,
  redirectResult,
  sendPasswordReset,
  signInWithEmail,
  signInWithGoogle,
  type SignedInUser,
} from '../../../lib/firebase';
import { useAppState } from '../../../stores/app-state';
import { useCompleteSignIn, useSignOut } from '../hooks/use-sign-in';
import { ACCOUNT_MESSAGES, SIGN_IN_MESSAGES, signInErrorMessage } from '../utils/sign-in-errors';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '420px', width: '100%' },
  form: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  error: { color: tokens.colorPaletteRedForeground1, margin: 0 },
  google: { justifySelf: 'stretch' },
  forgot: { justifySelf: 'start' },
});

function ErrorText({ message, id }: { message: string | null; id: string }) {
  const styles = useStyles();
  return (
    <p id={id} role="alert" className={styles.error} hidden={!message}>
      {message}
    </p>
  );
}

/** Busy and error state of a form that signs in with `signIn` and then completes the sign-in. */
function useSignInSubmit() {
  const completeSignIn = useCompleteSignIn();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(signIn: () => Promise<SignedInUser>, onFailure?: (failure: unknown) => void) {
    setError(null);
    setBusy(true);
    try {
      await completeSignIn(await signIn());
    } catch (failure) {
      onFailure?.(failure);
      setError(signInErrorMessage(failure));
      setBusy(false);
    }
  }

  return { error, setError, busy, run };
}

interface AccountFormProps {
  title: string;
  label: string;
  errorId: string;
  error: string | null;
  busy: boolean;
  submitText: string;
  busyText: string;
  primary?: boolean;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}

function AccountForm(props: AccountFormProps) {
  const styles = useStyles();
  return (
    <form
      className={styles.form}
      onSubmit={props.onSubmit}
      noValidate
      aria-label={props.label}
      aria-describedby={props.errorId}
    >
      <Subtitle1 as="h2">{props.title}</Subtitle1>
      {props.children}
      <Button type="submit" appearance={props.primary ? 'primary' : undefined} disabled={props.busy}>
        {props.busy ? props.busyText : props.submitText}
      </Button>
      <ErrorText id={props.errorId} message={props.error} />
    </form>
  );
}

interface EmailPasswordFieldsProps {
  email: string;
  password: string;
  passwordAutoComplete: 'current-password' | 'new-password';
  onEmail: (value: string) => void;
  onPassword: (value: string) => void;
}

function EmailPasswordFields(props: EmailPasswordFieldsProps) {
  return (
    <>
      <Field label="Email">
        <Input
          type="email"
          autoComplete="email"
          value={props.email}
          onChange={(_, d) => props.onEmail(d.value)}
        />
      </Field>
      <Field label="Password">
        <Input
          type="password"
          autoComplete={props.passwordAutoComplete}
          value={props.password}
          onChange={(_, d) => props.onPassword(d.value)}
        />
      </Field>
    </>
  );
}

function EmailLoginForm() {
  const styles = useStyles();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, setError, busy, run } = useSignInSubmit();
  // The identity provider emails the reset link; it works against the Auth emulator too.
  const reset = useMutation({ mutationFn: (address: string) => sendPasswordReset(address) });

  function forgotPassword() {
    setError(null);
    reset.reset();
    if (!email.trim()) {
      setError(ACCOUNT_MESSAGES.resetNeedsEmail);
      return;
    }
    reset.mutate(email.trim(), { onError: (failure) => setError(signInErrorMessage(failure)) });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email || !password) {
      setError(SIGN_IN_MESSAGES.missingFields);
      return;
    }
    await run(() => signInWithEmail(email, password));
  }

  return (
    <AccountForm
      title="Sign in"
      label="Sign in with email"
      errorId="login-error"
      error={error}
      busy={busy}
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

function CreateAccountForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useSignInSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(
      () => createAccount(name.trim(), email, password),
      (failure) => console.warn('Account creation failed', failure),
    );
  }

  return (
    <AccountForm
      title="Create account"
      label="Create account"
      errorId="create-error"
      error={error}
      busy={busy}
      submitText="Create account"
      busyText="Creating account…"
      onSubmit={submit}
    >
      <Field label="Name">
        <Input autoComplete="name" value={name} onChange={(_, d) => setName(d.value)} />
      </Field>
      <EmailPasswordFields
        email={email}
        password={password}
        passwordAutoComplete="new-password"
        onEmail={setEmail}
        onPassword={setPassword}
      />
    </AccountForm>
  );
}

function SignedOut() {
  const styles = useStyles();
  const completeSignIn = useCompleteSignIn();
  const [showEmail, setShowEmail] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Coming back from Google's page: finish the sign-in it started. The result can be read only once,
  // so it is read once per visit, with whatever completeSignIn is current when it arrives.
  const complete = useRef(completeSignIn);
  useEffect(() => {
    complete.current = completeSignIn;
  }, [completeSignIn]);
  useEffect(() => {
    let mounted = true;
    redirectResult()
      .then((user) => (user ? complete.current(user) : undefined))
      .catch((failure: unknown) => {
        if (mounted) setError(signInErrorMessage(failure));
      });
    return () => {
      mounted = false;
    };
  }, []);

  async function google() {
    setError(null);
    try {
      await signInWithGoogle();
    } catch (failure) {
      setError(signInErrorMessage(failure));
    }
  }

  return (
    <div className={styles.column}>
      <Button appearance="primary" size="large" className={styles.google} onClick={google}>
        Login with Google
      </Button>
      <ErrorText id="google-error" message={error} />
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
          <EmailLoginForm />
          <CreateAccountForm />
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
