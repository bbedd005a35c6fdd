import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import type { AppError } from '@receipts/core';
import {
  ConfigurationError,
  parseServiceAccountKey,
  ServiceUnavailableError,
  UnauthorizedError,
  type Identity,
  type IdentityVerifier,
} from '@receipts/core';

/** Options of {@link FirebaseIdentityVerifier}. */
export interface FirebaseIdentityVerifierOptions {
  /** The Firebase project whose ID tokens are accepted (the tokens' audience). */
  projectId: string;
  /**
   * A service account key as JSON. Verifying ID tokens needs only the project id and Google's public
   * keys, so this is optional; give it when the app should run with that account's identity.
   */
  credentialsJson?: string;
}

/** Longer than any real ID token (custom claims are capped at 1000 bytes); refused before decoding. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * Refuses a configuration in which the deployed API would accept unsigned tokens: with
 * `FIREBASE_AUTH_EMULATOR_HOST` set, firebase-admin skips the signature check of ID tokens.
 *
 * @param env - the environment to check (usually `process.env`)
 * @throws ConfigurationError when the emulator host is set inside AWS Lambda
 */
export function assertEmulatorNotInCloud(env: Record<string, string | undefined>): void {
  if (env.FIREBASE_AUTH_EMULATOR_HOST && env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new ConfigurationError(
      'FIREBASE_AUTH_EMULATOR_HOST is set in a deployed function: ID tokens would be accepted without a ' +
        'signature check. Remove FIREBASE_AUTH_EMULATOR_HOST from the function configuration.',
      { code: 'EmulatorInCloud' },
    );
  }
}

/** What a token failure means for the caller, in words they can act on. */
const AUTH_FAILURES: Record<string, string> = {
  'auth/id-token-expired': 'Your sign-in has expired. Sign in again.',
  'auth/id-token-revoked': 'Your sign-in was revoked. Sign in again.',
  'auth/user-disabled': 'This account is disabled.',
  'auth/user-not-found': 'The account of this sign-in does not exist. Sign in again.',
};

/**
 * Verifies Firebase ID tokens with firebase-admin. The token's `uid` is the user.
 *
 * Each instance runs its own named firebase-admin app, so several can live in one process (tests, or
 * two projects). With `FIREBASE_AUTH_EMULATOR_HOST` set, firebase-admin trusts the Auth emulator and
 * accepts unsigned tokens, which {@link assertEmulatorNotInCloud} keeps out of deployed functions.
 */
export class FirebaseIdentityVerifier implements IdentityVerifier {
  private readonly app: App;
  private readonly auth: Auth;

  /**
   * @param options - the project id and, optionally, a service account key as JSON
   * @throws ConfigurationError when the project id is missing, the credentials are not a service
   *   account key, or the emulator host is set inside AWS Lambda
   */
  constructor(options: FirebaseIdentityVerifierOptions) {
    if (!options.projectId || options.projectId.trim() === '') {
      throw new ConfigurationError('The Firebase project id is missing; set it to verify sign-ins.', {
        code: 'MissingFirebaseProjectId',
      });
    }
    assertEmulatorNotInCloud(process.env);
    const credential =
      options.credentialsJson === undefined
        ? undefined
        : cert(parseServiceAccountKey(options.credentialsJson));
    this.app = initializeApp(
      { projectId: options.projectId, ...(credential === undefined ? {} : { credential }) },
      `identity-${randomUUID()}`,
    );
    this.auth = getAuth(this.app);
  }

  /**
   * Checks an ID token's signature, expiry, audience and issuer and returns who it proves.
   *
   * @param idToken - the bearer token from the request's Authorization header
   * @throws UnauthorizedError when the token is missing, malformed, expired, for another project,
   *   forged or revoked; the message tells the user to sign in again and never quotes internals
   * @throws ServiceUnavailableError (code `IdentityUnavailable`) when the token could not be checked at all, such as
   *   when Google's public keys or the Auth emulator cannot be reached
   */
  async verify(idToken: string): Promise<Identity> {
    // Checked per call too: the variable is read by firebase-admin at verification time.
    assertEmulatorNotInCloud(process.env);
    if (typeof idToken !== 'string' || idToken.trim() === '') {
      throw new UnauthorizedError('Sign in first: the request carries no ID token.', {
        code: 'MissingToken',
      });
    }
    if (idToken.length > MAX_TOKEN_LENGTH || idToken.split('.').length !== 3) {
      throw new UnauthorizedError('The sign-in token is not valid. Sign in again.', { code: 'InvalidToken' });
    }
    try {
      const decoded = await this.auth.verifyIdToken(idToken, false);
      return {
        uid: decoded.uid,
        email: typeof decoded.email === 'string' ? decoded.email : null,
        name: typeof decoded.name === 'string' ? decoded.name : null,
        ...(typeof decoded.email_verified === 'boolean' ? { emailVerified: decoded.email_verified } : {}),
      };
    } catch (error) {
      throw translate(error);
    }
  }

  /** Releases the firebase-admin app of this verifier. */
  async close(): Promise<void> {
    await deleteApp(this.app);
  }
}

function translate(error: unknown): AppError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  const unavailable =
    typeof code !== 'string' ||
    !code.startsWith('auth/') ||
    code === 'auth/internal-error' ||
    // firebase-admin reports a failed fetch of Google's public keys as an invalid argument.
    /fetching public keys|Error while making request/i.test(message);
  if (unavailable) {
    return new ServiceUnavailableError('Sign-ins cannot be checked right now. Try again in a moment.', {
      code: 'IdentityUnavailable',
      cause: error,
    });
  }
  return new UnauthorizedError(AUTH_FAILURES[code] ?? 'The sign-in token is not valid. Sign in again.', {
    code: 'InvalidToken',
    cause: error,
  });
}
