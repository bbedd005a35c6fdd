import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './sign-in-errors';

describe('signInErrorMessage', () => {
  it('maps Firebase codes to the spec messages and falls back to the provider or unknown message', () => {
    const err = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });
    expect(signInErrorMessage(err('auth/invalid-email'))).toBe('Invalid email address format.');
    expect(signInErrorMessage(err('auth/invalid-login-credentials'))).toBe('Invalid email or password.');
    expect(signInErrorMessage(err('auth/too-many-requests'))).toBe(
      'Too many failed login attempts. Please try again later.',
    );
    expect(signInErrorMessage(err('auth/weak-password'))).toBe('Firebase: Error (auth/weak-password).');
    expect(signInErrorMessage(undefined)).toBe('An unknown error occurred during sign-in.');
    expect(signInErrorMessage(new Error('  '))).toBe('An unknown error occurred during sign-in.');
  });
});
