import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Mail24Regular } from '@fluentui/react-icons/svg/mail';
import { Page } from '../../../components/page';
import { createAccount, redirectResult, signInWithEmail, signInWithGoogle } from '../../../lib/firebase';
import { useAppState } from '../../../stores/app-state';
import { useCompleteSignIn, useSignOut } from '../hooks/use-sign-in';
import { SIGN_IN_MESSAGES, signInErrorMessage } from '../utils/sign-in-errors';

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
});

function ErrorText({ message, id }: { message: string | null; id: string }) {
  const styles = useStyles();
  return (
    <p id={id} role="alert" className={styles.error} hidden={!message}>
      {message}
    </p>
  );
}

function EmailLoginForm() {
  const styles = useStyles();
  const completeSignIn = useCompleteSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email || !password) {
      setError(SIGN_IN_MESSAGES.missingFields);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await completeSignIn(await signInWithEmail(email, password));
    } catch (failure) {
      setError(signInErrorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      noValidate
      aria-label="Sign in with email"
      aria-describedby="login-error"
    >
      <Subtitle1 as="h2">Sign in</Subtitle1>
      <Field label="Email">
        <Input type="email" autoComplete="email" value={email} onChange={(_, d) => setEmail(d.value)} />
      </Field>
      <Field label="Password">
        <Input
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(_, d) => setPassword(d.value)}
        />
      </Field>
      <Button type="submit" appearance="primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
      <ErrorText id="login-error" message={error} />
    </form>
  );
}

function CreateAccountForm() {
  const styles = useStyles();
  const completeSignIn = useCompleteSignIn();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await completeSignIn(await createAccount(name.trim(), email, password));
    } catch (failure) {
      console.warn('Account creation failed', failure);
      setError(signInErrorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      noValidate
      aria-label="Create account"
      aria-describedby="create-error"
    >
      <Subtitle1 as="h2">Create account</Subtitle1>
      <Field label="Name">
        <Input autoComplete="name" value={name} onChange={(_, d) => setName(d.value)} />
      </Field>
      <Field label="Email">
        <Input type="email" autoComplete="email" value={email} onChange={(_, d) => setEmail(d.value)} />
      </Field>
      <Field label="Password">
        <Input
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(_, d) => setPassword(d.value)}
        />
      </Field>
      <Button type="submit" disabled={busy}>
        {busy ? 'Creating account…' : 'Create account'}
      </Button>
      <ErrorText id="create-error" message={error} />
    </form>
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
