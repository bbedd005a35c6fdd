/** The login messages of spec §5 and §8, exactly. */
export const SIGN_IN_MESSAGES = {
  missingFields: 'Please enter both email and password',
  invalidEmail: 'Invalid email address format.',
  invalidCredentials: 'Invalid email or password.',
  tooManyRequests: 'Too many failed login attempts. Please try again later.',
  unknown: 'An unknown error occurred during sign-in.',
} as const;

/** What account creation and password reset say, in place of the identity provider's codes. */
export const ACCOUNT_MESSAGES = {
  emailInUse: 'An account with this email already exists. Sign in instead, or reset its password.',
  weakPassword: 'Choose a longer password: at least 6 characters.',
  missingPassword: 'Please enter a password.',
  missingEmail: 'Please enter your email address.',
  notAllowed: 'Creating accounts with email and password is turned off for this app.',
  network: 'Could not reach the sign-in service. Check your connection and try again.',
  otherProvider:
    'This email already has an account that signs in another way. Sign in with email and password, or reset the password.',
  popupClosed: 'The sign-in window was closed before signing in finished.',
  resetNeedsEmail: 'Enter your email address above, then choose “Forgot password?” again.',
  resetSent: (email: string) =>
    `If there is an account for ${email}, an email with a link to choose a new password is on its way.`,
} as const;

const CREDENTIAL_CODES = new Set([
  'auth/user-not-found',
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
]);

const CODE_MESSAGES: Record<string, string> = {
  'auth/invalid-email': SIGN_IN_MESSAGES.invalidEmail,
  'auth/too-many-requests': SIGN_IN_MESSAGES.tooManyRequests,
  'auth/email-already-in-use': ACCOUNT_MESSAGES.emailInUse,
  'auth/weak-password': ACCOUNT_MESSAGES.weakPassword,
  'auth/missing-password': ACCOUNT_MESSAGES.missingPassword,
  'auth/missing-email': ACCOUNT_MESSAGES.missingEmail,
  'auth/operation-not-allowed': ACCOUNT_MESSAGES.notAllowed,
  'auth/network-request-failed': ACCOUNT_MESSAGES.network,
  'auth/account-exists-with-different-credential': ACCOUNT_MESSAGES.otherProvider,
  'auth/popup-closed-by-user': ACCOUNT_MESSAGES.popupClosed,
};

/** The provider's error code (e.g. 'auth/email-already-in-use'), when the error carries one. */
export function authErrorCode(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : null;
}

/**
 * The message to show for a failed sign-in, account creation or password reset: Firebase's error
 * codes map to our words; our server's own errors show their message; the provider's raw text
 * ("Firebase: Error (auth/...)") never shows.
 */
export function signInErrorMessage(error: unknown): string {
  const code = authErrorCode(error);
  if (code !== null && CREDENTIAL_CODES.has(code)) return SIGN_IN_MESSAGES.invalidCredentials;
  if (code !== null && CODE_MESSAGES[code]) return CODE_MESSAGES[code];
  if (code !== null && code.startsWith('auth/')) return SIGN_IN_MESSAGES.unknown;
  if (error instanceof Error && error.message.trim() && !error.message.startsWith('Firebase:')) {
    return error.message;
  }
  return SIGN_IN_MESSAGES.unknown;
}
