import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../../testing/fake-api';
import { fakeAuth, fakeFirebaseModule } from '../../../testing/fake-firebase';
import { renderApp, signedInState } from '../../../testing/render';

function firebaseError(code: string, message = `Firebase: Error (${code}).`) {
  return Object.assign(new Error(message), { code });
}

async function openEmailForms() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Login with email' }));
  const form = screen.getByRole('form', { name: 'Sign in with email' });
  return { user, form };
}

async function submitLogin(email: string, password: string) {
  const { user, form } = await openEmailForms();
  if (email) await user.type(within(form).getByLabelText('Email'), email);
  if (password) await user.type(within(form).getByLabelText('Password'), password);
  await user.click(within(form).getByRole('button', { name: 'Sign in' }));
  return form;
}

describe('Login', () => {
  beforeEach(() => {
    fakeApi({
      'POST /api/login': (c) => ({ user_id: (c.body as { user_id: string }).user_id, user_email: 'x' }),
    });
  });

  it('shows Google and email buttons; the email button reveals the login and create-account forms', async () => {
    renderApp('/Login');
    expect(await screen.findByRole('button', { name: 'Login with Google' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Sign in with email' })).not.toBeInTheDocument();
    const { form } = await openEmailForms();
    expect(within(form).getByLabelText('Email')).toHaveAttribute('type', 'email');
    const create = screen.getByRole('form', { name: 'Create account' });
    expect(within(create).getByLabelText('Name')).toBeInTheDocument();
    expect(within(create).getByLabelText('Email')).toBeInTheDocument();
    expect(within(create).getByLabelText('Password')).toBeInTheDocument();
  });

  it("asks for both fields: 'Please enter both email and password', in red under the form", async () => {
    renderApp('/Login');
    const form = await submitLogin('ann@example.com', '');
    const message = within(form).getByRole('alert');
    expect(message).toHaveTextContent('Please enter both email and password');
    expect(message.compareDocumentPosition(within(form).getByRole('button', { name: 'Sign in' }))).toBe(
      Node.DOCUMENT_POSITION_PRECEDING,
    );
    expect(getComputedStyle(message).color).not.toBe('');
    expect(fakeFirebaseModule.signInWithEmail).not.toHaveBeenCalledWith('ann@example.com', '');
  });

  it.each([
    ['auth/invalid-email', 'Invalid email address format.'],
    ['auth/user-not-found', 'Invalid email or password.'],
    ['auth/wrong-password', 'Invalid email or password.'],
    ['auth/invalid-credential', 'Invalid email or password.'],
    ['auth/invalid-login-credentials', 'Invalid email or password.'],
    ['auth/too-many-requests', 'Too many failed login attempts. Please try again later.'],
    [
      'auth/network-request-failed',
      'Could not reach the sign-in service. Check your connection and try again.',
    ],
    ['auth/internal-error', 'An unknown error occurred during sign-in.'],
  ])('shows the message for %s', async (code, expected) => {
    fakeFirebaseModule.signInWithEmail.mockRejectedValueOnce(firebaseError(code));
    renderApp('/Login');
    const form = await submitLogin('ann@example.com', 'secret1');
    expect(await within(form).findByRole('alert')).toHaveTextContent(expected);
    expect(window.localStorage.getItem('signed_in')).toBeNull();
  });

  it('shows one error at a time: the one of the action tried last', async () => {
    fakeFirebaseModule.createAccount.mockRejectedValueOnce(firebaseError('auth/weak-password'));
    renderApp('/Login');
    const form = await submitLogin('ann@example.com', '');
    expect(within(form).getByRole('alert')).toHaveTextContent('Please enter both email and password');

    const create = screen.getByRole('form', { name: 'Create account' });
    const user = userEvent.setup();
    await user.type(within(create).getByLabelText('Email'), 'bob@example.com');
    await user.type(within(create).getByLabelText('Password'), 'abc');
    await user.click(within(create).getByRole('button', { name: 'Create account' }));
    expect(await within(create).findByRole('alert')).toHaveTextContent('Choose a longer password');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('shows the unknown-error message when the failure has no words', async () => {
    fakeFirebaseModule.signInWithEmail.mockRejectedValueOnce({});
    renderApp('/Login');
    const form = await submitLogin('ann@example.com', 'secret1');
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'An unknown error occurred during sign-in.',
    );
  });

  it('on success posts the user to /api/login, stores the session keys and goes to /', async () => {
    const api = fakeApi({ 'POST /api/login': { user_id: 'user-1', user_email: 'ann@example.com' } });
    const { router } = renderApp('/Login');
    await submitLogin('ann@example.com', 'secret1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST', '/api/login')[0]).toMatchObject({
      body: { user_id: 'user-1', user_email: 'ann@example.com', user_name: 'Test Person' },
      authorization: 'Bearer test-token',
    });
    expect(window.localStorage.getItem('signed_in')).toBe('true');
    expect(window.localStorage.getItem('signed_in_id')).toBe('user-1');
    expect(window.localStorage.getItem('signed_in_email')).toBe('ann@example.com');
    expect(screen.getByRole('link', { name: 'Account (signed in)' })).toBeInTheDocument();
  });

  it("shows the server's message when /api/login refuses, and stays signed out", async () => {
    fakeApi({
      'POST /api/login': { status: 503, body: { error: 'StoreError', message: 'The table store is down.' } },
    });
    renderApp('/Login');
    const form = await submitLogin('ann@example.com', 'secret1');
    expect(await within(form).findByRole('alert')).toHaveTextContent('The table store is down.');
    expect(fakeFirebaseModule.signOutUser).toHaveBeenCalled();
    expect(window.localStorage.getItem('signed_in')).toBeNull();
  });

  it('creates an account with a name and signs it in', async () => {
    const api = fakeApi({ 'POST /api/login': { user_id: 'user-2', user_email: 'bob@example.com' } });
    const { router } = renderApp('/Login');
    const { user } = await openEmailForms();
    const create = screen.getByRole('form', { name: 'Create account' });
    await user.type(within(create).getByLabelText('Name'), 'Bob Builder');
    await user.type(within(create).getByLabelText('Email'), 'bob@example.com');
    await user.type(within(create).getByLabelText('Password'), 'secret12');
    await user.click(within(create).getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fakeFirebaseModule.createAccount).toHaveBeenCalledWith(
      'Bob Builder',
      'bob@example.com',
      'secret12',
    );
    expect(api.callsTo('POST', '/api/login')[0]?.body).toEqual({
      user_id: 'user-2',
      user_email: 'bob@example.com',
      user_name: 'Bob Builder',
    });
  });

  it.each([
    [
      'auth/email-already-in-use',
      'An account with this email already exists. Sign in instead, or reset its password.',
    ],
    ['auth/weak-password', 'Choose a longer password: at least 6 characters.'],
    ['auth/invalid-email', 'Invalid email address format.'],
    ['auth/missing-password', 'Please enter a password.'],
  ])(
    'says in its own words why an account could not be created (%s), never the raw provider text',
    async (code, expected) => {
      fakeFirebaseModule.createAccount.mockRejectedValueOnce(firebaseError(code));
      renderApp('/Login');
      const { user } = await openEmailForms();
      const create = screen.getByRole('form', { name: 'Create account' });
      await user.type(within(create).getByLabelText('Email'), 'bob@example.com');
      await user.type(within(create).getByLabelText('Password'), 'secret12');
      await user.click(within(create).getByRole('button', { name: 'Create account' }));
      const alert = await within(create).findByRole('alert');
      expect(alert).toHaveTextContent(expected);
      expect(alert).not.toHaveTextContent('Firebase');
      expect(alert).not.toHaveTextContent('auth/');
    },
  );

  it("sends a password-reset email for the address typed in, and asks for one when it's empty", async () => {
    renderApp('/Login');
    const { user, form } = await openEmailForms();
    await user.click(within(form).getByRole('button', { name: 'Forgot password?' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Enter your email address above');
    expect(fakeFirebaseModule.sendPasswordReset).not.toHaveBeenCalled();

    await user.type(within(form).getByLabelText('Email'), 'ann@example.com');
    await user.click(within(form).getByRole('button', { name: 'Forgot password?' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(
      'If there is an account for ann@example.com, an email with a link to choose a new password is on its way.',
    );
    expect(fakeFirebaseModule.sendPasswordReset).toHaveBeenCalledWith('ann@example.com');
    expect(within(form).queryByText(/Enter your email address/)).not.toBeInTheDocument();
  });

  it('says why a password reset could not be sent', async () => {
    fakeFirebaseModule.sendPasswordReset.mockRejectedValueOnce(firebaseError('auth/invalid-email'));
    renderApp('/Login');
    const { user, form } = await openEmailForms();
    await user.type(within(form).getByLabelText('Email'), 'not-an-email');
    await user.click(within(form).getByRole('button', { name: 'Forgot password?' }));
    await waitFor(() =>
      expect(within(form).getByRole('alert')).toHaveTextContent('Invalid email address format.'),
    );
    expect(within(form).queryByRole('status')).not.toBeInTheDocument();
  });

  it('when signed in, welcomes by name; Sign Out clears the stored keys and push token and goes to /', async () => {
    window.localStorage.setItem('signed_in', 'true');
    window.localStorage.setItem('signed_in_id', 'user-1');
    window.localStorage.setItem('signed_in_email', 'ann@example.com');
    window.localStorage.setItem('fcm_token', 'push-token');
    fakeApi({ 'GET /api/listQueue': [], 'POST /api/unregisterFCMToken': { unregistered: true } });
    const { router } = renderApp('/Login', { state: signedInState() });
    expect(await screen.findByText('Welcome, Ann')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    for (const key of ['signed_in', 'signed_in_id', 'signed_in_email', 'fcm_token']) {
      expect(window.localStorage.getItem(key)).toBeNull();
    }
    expect(fakeAuth.user).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in (signed out)' })).toBeInTheDocument();
  });

  it("on Sign Out unregisters the device's push token on the server while signed in, and deletes it in the browser", async () => {
    fakeFirebaseModule.deletePushToken.mockClear();
    window.localStorage.setItem('fcm_token', 'push-token');
    const api = fakeApi({ 'GET /api/listQueue': [], 'POST /api/unregisterFCMToken': { unregistered: true } });
    const { router } = renderApp('/Login', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));

    const calls = api.callsTo('POST', '/api/unregisterFCMToken');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ userId: 'user-1', fcmToken: 'push-token' });
    // Made with the user's ID token, so before the Firebase sign-out.
    expect(calls[0]?.authorization).toBe('Bearer test-token');
    expect(fakeFirebaseModule.deletePushToken).toHaveBeenCalledOnce();
    expect(fakeFirebaseModule.deletePushToken.mock.invocationCallOrder[0]).toBeLessThan(
      fakeFirebaseModule.signOutUser.mock.invocationCallOrder.at(-1)!,
    );
    expect(window.localStorage.getItem('fcm_token')).toBeNull();
  });

  it('signs out even when the push token cannot be unregistered or deleted', async () => {
    window.localStorage.setItem('fcm_token', 'push-token');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeFirebaseModule.deletePushToken.mockRejectedValueOnce(new Error('messaging is blocked'));
    fakeApi({
      'GET /api/listQueue': [],
      'POST /api/unregisterFCMToken': { status: 503, body: { error: 'Unavailable', message: 'Try later.' } },
    });
    const { router } = renderApp('/Login', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fakeAuth.user).toBeNull();
    expect(window.localStorage.getItem('fcm_token')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('makes no push token calls on Sign Out when the device has none', async () => {
    fakeFirebaseModule.deletePushToken.mockClear();
    const api = fakeApi({ 'GET /api/listQueue': [] });
    const { router } = renderApp('/Login', { state: signedInState() });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST', '/api/unregisterFCMToken')).toHaveLength(0);
    expect(fakeFirebaseModule.deletePushToken).not.toHaveBeenCalled();
  });
});

describe('Login with Google', () => {
  it('starts the redirect, and on the way back records the user and goes to /', async () => {
    const api = fakeApi({ 'POST /api/login': { user_id: 'g-1', user_email: 'gina@example.com' } });
    const first = renderApp('/Login');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Login with Google' }));
    expect(fakeFirebaseModule.signInWithGoogle).toHaveBeenCalledOnce();
    first.unmount();

    // Back from Google: Firebase now has the user, and the redirect result names them.
    fakeFirebaseModule.redirectResult.mockImplementationOnce(async () => {
      fakeAuth.user = { uid: 'g-1', email: 'gina@example.com', displayName: 'Gina' };
      return fakeAuth.user as never;
    });
    const { router } = renderApp('/Login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST', '/api/login')[0]?.body).toEqual({
      user_id: 'g-1',
      user_email: 'gina@example.com',
      user_name: 'Gina',
    });
    expect(window.localStorage.getItem('signed_in_id')).toBe('g-1');
  });

  it('shows why the Google sign-in failed', async () => {
    fakeFirebaseModule.redirectResult.mockRejectedValueOnce(
      Object.assign(new Error('Firebase: Error (auth/account-exists-with-different-credential).'), {
        code: 'auth/account-exists-with-different-credential',
      }),
    );
    renderApp('/Login');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This email already has an account that signs in another way.');
    expect(alert).not.toHaveTextContent('Firebase');
  });
});
