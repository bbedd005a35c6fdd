import type { JWTVerifyGetKey } from 'jose';
import {
  ConfigurationError,
  ServiceUnavailableError,
  UnauthorizedError,
  type Identity,
  type IdentityVerifier,
} from '@receipts/core';
import { AccountDeleter, type ServiceAccountKey } from './account-deleter';
import { verifyIdToken } from './id-token';

/** Options of {@link FirebaseIdentityVerifier}. */
export interface FirebaseIdentityVerifierOptions {
  /** The Firebase project whose ID tokens are accepted (the tokens' audience). */
  projectId: string;
  /**
   * The service account key to delete accounts with, asked for on first need (the composition root
   * reads and checks it). Verifying ID tokens needs only the project id and Google's public keys.
   */
  credentials?: () => Promise<ServiceAccountKey | undefined>;
  /**
   * The project's Web API key (the `apiKey` of the web app's Firebase config; public, not a secret).
   * Each verified token is looked up with it in Firebase Auth, as the user it proves, so a disabled
   * account or revoked sign-ins are refused without a service account key. Required unless
   * `FIREBASE_AUTH_EMULATOR_HOST` is set (the emulator takes any key).
   */
  apiKey?: string;
  /** How long a lookup may take before the token counts as not checkable (default 5 s). */
  lookupTimeoutMs?: number;
  /** The keys ID tokens are signed with (default Google's; tests give their own). */
  keys?: JWTVerifyGetKey;
  /**
   * Firebase Auth's REST API, for the account lookup and deletion (default Google's, or the
   * emulator's when `FIREBASE_AUTH_EMULATOR_HOST` is set; tests give a stand-in).
   */
  identityToolkitUrl?: string;
  /** Google's OAuth 2.0 token endpoint, for deleting accounts (tests give a stand-in). */
  tokenUrl?: string;
}

/** Firebase Auth's REST API (Identity Toolkit), which the emulator serves under its own host. */
const IDENTITY_TOOLKIT = 'identitytoolkit.googleapis.com';

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

/**
 * Verifies Firebase ID tokens with `jose` against Google's published keys (no Admin SDK), then asks
 * Firebase Auth whether the account is still enabled and its sign-ins not revoked. The token's `uid`
 * is the user.
 *
 * With `FIREBASE_AUTH_EMULATOR_HOST` set, tokens are the Auth emulator's, which are unsigned: their
 * claims are checked but no signature, which {@link assertEmulatorNotInCloud} keeps out of deployed
 * functions. Accounts are deleted with Firebase Auth's admin REST call, authorised by the service
 * account key (see AccountDeleter).
 */
export class FirebaseIdentityVerifier implements IdentityVerifier {
  private readonly projectId: string;
  private readonly credentials: () => Promise<ServiceAccountKey | undefined>;
  private readonly tokenUrl: string | undefined;
  private deleter: { emulator: string | undefined; deleter: AccountDeleter } | undefined;
  private readonly apiKey: string | undefined;
  private readonly lookupTimeoutMs: number;
  private readonly keys: JWTVerifyGetKey | undefined;
  private readonly identityToolkitUrl: string | undefined;

  /**
   * @param options - the project id, the Web API key and, optionally, where the service account key comes from
   * @throws ConfigurationError when the project id is missing, the Web API key is missing outside
   *   the emulator, or the emulator host is set inside AWS Lambda
   */
  constructor(options: FirebaseIdentityVerifierOptions) {
    if (!options.projectId || options.projectId.trim() === '') {
      throw new ConfigurationError('The Firebase project id is missing; set it to verify sign-ins.', {
        code: 'MissingFirebaseProjectId',
      });
    }
    assertEmulatorNotInCloud(process.env);
    this.apiKey = options.apiKey?.trim() || undefined;
    if (!this.apiKey && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
      throw new ConfigurationError(
        "The Firebase Web API key is missing; set it (the apiKey of the web app's Firebase config) so " +
          'that disabled accounts and revoked sign-ins are refused.',
        { code: 'MissingFirebaseApiKey' },
      );
    }
    this.projectId = options.projectId;
    this.credentials = options.credentials ?? (async () => undefined);
    this.tokenUrl = options.tokenUrl;
    this.lookupTimeoutMs = options.lookupTimeoutMs ?? 5000;
    this.keys = options.keys;
    this.identityToolkitUrl = options.identityToolkitUrl;
  }

  /**
   * Checks an ID token's signature, expiry, audience and issuer, then asks Firebase Auth whether its
   * account still exists, is enabled and has not had its sign-ins revoked since the token's sign-in,
   * and returns who it proves.
   *
   * @param idToken - the bearer token from the request's Authorization header
   * @throws UnauthorizedError when the token is missing, malformed, expired, for another project,
   *   forged or revoked, or its account is disabled or deleted; the message says what to do and never
   *   quotes internals
   * @throws ServiceUnavailableError (code `IdentityUnavailable`) when the token could not be checked at all, such as
   *   when Google's public keys or the Auth emulator cannot be reached
   */
  async verify(idToken: string): Promise<Identity> {
    // Checked per call too: the variable is read at verification time.
    assertEmulatorNotInCloud(process.env);
    if (typeof idToken !== 'string' || idToken.trim() === '') {
      throw new UnauthorizedError('Sign in first: the request carries no ID token.', {
        code: 'MissingToken',
      });
    }
    if (idToken.length > MAX_TOKEN_LENGTH || idToken.split('.').length !== 3) {
      throw new UnauthorizedError('The sign-in token is not valid. Sign in again.', { code: 'InvalidToken' });
    }
    const claims = await verifyIdToken(idToken, {
      projectId: this.projectId,
      unsigned: Boolean(process.env.FIREBASE_AUTH_EMULATOR_HOST),
      ...(this.keys ? { keys: this.keys } : {}),
    });
    await this.assertAccountActive(idToken, claims.authTime);
    return {
      uid: claims.uid,
      email: claims.email,
      name: claims.name,
      ...(claims.emailVerified === undefined ? {} : { emailVerified: claims.emailVerified }),
    };
  }

  /**
   * Looks the token's account up in Firebase Auth with the token itself (`accounts:lookup`, the call
   * the web SDK makes), which needs only the Web API key. Firebase refuses the lookup of a disabled
   * account (`USER_DISABLED`) and of a token issued before its sign-ins were revoked
   * (`TOKEN_EXPIRED`); the answer's `validSince` is compared with the token's sign-in time too, as
   * firebase-admin's own revocation check does.
   */
  private async assertAccountActive(idToken: string, authTime: number): Promise<void> {
    const url = `${this.identityToolkit()}/v1/accounts:lookup?key=${encodeURIComponent(this.apiKey ?? 'emulator')}`;
    let status: number;
    let body: LookupAnswer;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
        signal: AbortSignal.timeout(this.lookupTimeoutMs),
      });
      status = response.status;
      body = (await response.json().catch(() => ({}))) as LookupAnswer;
    } catch (error) {
      throw unavailable(error);
    }
    if (status >= 200 && status < 300) {
      const account = body.users?.[0];
      if (!account) throw refused('USER_NOT_FOUND');
      if (account.disabled === true) throw refused('USER_DISABLED');
      const validSince = Number(account.validSince ?? 0);
      if (Number.isFinite(validSince) && validSince > authTime) throw refused('TOKEN_EXPIRED');
      return;
    }
    // Google's messages may carry details after the code ("TOKEN_EXPIRED : ...").
    const reason = (body.error?.message ?? '').split(/[\s:]/)[0] ?? '';
    if (status === 400 && reason in LOOKUP_REFUSALS) throw refused(reason);
    // A wrong or restricted API key, quota, or an outage: the token could not be checked.
    throw unavailable(new Error(`accounts:lookup answered ${status} ${body.error?.message ?? ''}`.trim()));
  }

  /** Firebase Auth's REST API: the one given, the emulator's when it is set, or Google's. */
  private identityToolkit(): string {
    const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    return (
      this.identityToolkitUrl ??
      (emulator ? `http://${emulator}/${IDENTITY_TOOLKIT}` : `https://${IDENTITY_TOOLKIT}`)
    );
  }

  /**
   * Deletes the Firebase Auth account (Identity Toolkit's `accounts:delete`, as firebase-admin's
   * `deleteUser` does); its ID tokens are refused from then on, as {@link verify} looks every token's
   * account up. An account already gone is fine. Needs the service account key in the cloud (or the
   * Auth emulator locally).
   *
   * @param uid - the verified uid of the account to delete
   * @throws ServiceUnavailableError (code `AccountNotDeleted`) when Firebase cannot be reached or
   *   refuses it (for instance without credentials)
   */
  async deleteAccount(uid: string): Promise<void> {
    assertEmulatorNotInCloud(process.env);
    const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    // One deleter (and its access token) per emulator setting, which tests change between calls.
    let current = this.deleter;
    if (!current || current.emulator !== emulator) {
      current = {
        emulator,
        deleter: new AccountDeleter({
          projectId: this.projectId,
          identityToolkitUrl: this.identityToolkit(),
          credentials: this.credentials,
          emulator: Boolean(emulator),
          ...(this.tokenUrl ? { tokenUrl: this.tokenUrl } : {}),
        }),
      };
      this.deleter = current;
    }
    try {
      await current.deleter.delete(uid);
    } catch (error) {
      throw new ServiceUnavailableError(
        'Your data is deleted, but your sign-in account could not be removed right now. Try again in a moment.',
        { code: 'AccountNotDeleted', cause: error },
      );
    }
  }

  /** Nothing to release: the verifier holds no connection or SDK app. */
  async close(): Promise<void> {}
}

/** The answer of Identity Toolkit's `accounts:lookup`, as far as it is read here. */
interface LookupAnswer {
  users?: { disabled?: boolean; validSince?: string }[];
  error?: { message?: string };
}

/** What a refused lookup means for the caller, by Identity Toolkit's error code. */
const LOOKUP_REFUSALS: Record<string, { message: string; code: string }> = {
  USER_DISABLED: {
    message: 'This account is disabled. Ask the site owner to enable it.',
    code: 'AccountDisabled',
  },
  // The token's expiry was checked before: here it means the account's sign-ins were revoked.
  TOKEN_EXPIRED: { message: 'Your sign-in was revoked. Sign in again.', code: 'SignInRevoked' },
  USER_NOT_FOUND: {
    message: 'The account of this sign-in does not exist. Sign in again.',
    code: 'AccountNotFound',
  },
  INVALID_ID_TOKEN: { message: 'The sign-in token is not valid. Sign in again.', code: 'InvalidToken' },
};

function refused(reason: string): UnauthorizedError {
  const refusal = LOOKUP_REFUSALS[reason] ?? LOOKUP_REFUSALS.INVALID_ID_TOKEN!;
  return new UnauthorizedError(refusal.message, { code: refusal.code });
}

function unavailable(cause: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError('Sign-ins cannot be checked right now. Try again in a moment.', {
    code: 'IdentityUnavailable',
    cause,
  });
}
