/** The login messages of spec §5 and §8, exactly. */
export const SIGN_IN_MESSAGES = {
  missingFields: 'Please enter both email and password',
  invalidEmail: 'Invalid email address format.',
  invalidCredentials: 'Invalid email or password.',
  tooManyRequests: 'Too many failed login attempts. Please try again later.',
  unknown: 'An unknown error occurred during sign-in.',
} as const;

const CREDENTIAL_CODES = new Set([
  'auth/user-not-found',
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
]);

/**
 * The message to show for a failed sign-in: Firebase's error codes map to the spec's words; any other
 * provider (or server) error shows its own message; anything else is 'unknown'.
 */
export function signInErrorMessage(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : null;
  if (code === 'auth/invalid-email') return SIGN_IN_MESSAGES.invalidEmail;
  if (code !== null && CREDENTIAL_CODES.has(code)) return SIGN_IN_MESSAGES.invalidCredentials;
  if (code === 'auth/too-many-requests') return SIGN_IN_MESSAGES.tooManyRequests;
  if (error instanceof Error && error.message.trim()) return error.message;
  return SIGN_IN_MESSAGES.unknown;
}
