import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Field, Input } from '@fluentui/react-components';
import { createAccount } from '../../../lib/firebase';
import { useCompleteSignIn } from '../hooks/use-sign-in';
import { AccountForm, EmailPasswordFields, failureMessage, type ErrorTurn } from './account-form';

interface NewAccount {
  name: string;
  email: string;
  password: string;
}

/** "Create account": name, email and password; the new account is signed in at once. */
export function CreateAccountForm({ showsError = true, onAttempt }: ErrorTurn = {}) {
  const completeSignIn = useCompleteSignIn();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const create = useMutation({
    mutationFn: async (account: NewAccount) =>
      completeSignIn(await createAccount(account.name, account.email, account.password)),
    onError: (failure) => console.warn('Account creation failed', failure),
  });

  return (
    <AccountForm
      title="Create account"
      label="Create account"
      errorId="create-error"
      error={showsError ? failureMessage(create.error) : null}
      busy={create.isPending}
      submitText="Create account"
      busyText="Creating account…"
      onSubmit={() => {
        onAttempt?.();
        create.mutate({ name: name.trim(), email, password });
      }}
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
