import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './sign-in-errors';

describe('signInErrorMessage', () => {
  it('maps Firebase codes to the spec messages and ours, and never shows the raw provider text', () => {
    const err = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });
    expect(signInErrorMessage(err('auth/invalid-email'))).toBe('Invalid email address format.');
    expect(signInErrorMessage(err('auth/invalid-login-credentials'))).toBe('Invalid email or password.');
    expect(signInErrorMessage(err('auth/too-many-requests'))).toBe(
      'Too many failed login attempts. Please try again later.',
    );
    expect(signInErrorMessage(err('auth/weak-password'))).toBe(
      'Choose a longer password: at least 6 characters.',
    );
    expect(signInErrorMessage(err('auth/email-already-in-use'))).toMatch(
      /^An account with this email already exists/,
    );
    expect(signInErrorMessage(err('auth/some-new-code'))).toBe('An unknown error occurred during sign-in.');
    expect(signInErrorMessage(new Error('Firebase: something else.'))).toBe(
      'An unknown error occurred during sign-in.',
    );
    // Our own server's words (e.g. from POST /api/login) are shown as they are.
    expect(signInErrorMessage(new Error('The table store is down.'))).toBe('The table store is down.');
    expect(signInErrorMessage(undefined)).toBe('An unknown error occurred during sign-in.');
    expect(signInErrorMessage(new Error('  '))).toBe('An unknown error occurred during sign-in.');
  });
});
