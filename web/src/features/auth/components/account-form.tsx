import type { FormEvent, ReactNode } from 'react';
import { Button, Field, Input, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { signInErrorMessage } from '../utils/sign-in-errors';

const useStyles = makeStyles({
  form: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  error: { color: tokens.colorPaletteRedForeground1, margin: 0 },
});

/**
 * A failure in our words, or nothing: what the error line of a login form shows.
 * @param failure - a mutation's error (null when it has none)
 */
export function failureMessage(failure: unknown): string | null {
  return failure ? signInErrorMessage(failure) : null;
}

/** The red line under a form or button; always present, so `aria-describedby` points somewhere. */
export function ErrorText({ message, id }: { message: string | null; id: string }) {
  const styles = useStyles();
  return (
    <p id={id} role="alert" className={styles.error} hidden={!message}>
      {message}
    </p>
  );
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
  onSubmit: () => void;
  children: ReactNode;
}

/** Which login action spoke last: only its error shows, so the screen never holds two at once. */
export interface ErrorTurn {
  /** Whether this form's error is the one to show (default true). */
  showsError?: boolean;
  /** Called when the person starts this form's action. */
  onAttempt?: () => void;
}

/** The frame of the login forms: heading, fields, submit button (busy text while busy), error line. */
export function AccountForm(props: AccountFormProps) {
  const styles = useStyles();
  function submit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }
  return (
    <form
      className={styles.form}
      onSubmit={submit}
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

/** The Email and Password fields both email forms ask for. */
export function EmailPasswordFields(props: EmailPasswordFieldsProps) {
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
