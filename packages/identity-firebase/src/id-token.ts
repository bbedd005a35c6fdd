import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { ServiceUnavailableError, UnauthorizedError } from '@receipts/core';

/** Google's public keys of the service account that signs Firebase ID tokens, as a JWK set. */
export const FIREBASE_ID_TOKEN_KEYS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/** The issuer of a project's ID tokens. */
export function idTokenIssuer(projectId: string): string {
  return `https://securetoken.google.com/${projectId}`;
}

/** Seconds a token's times may be off, for clocks that differ a little. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** Firebase's longest uid. */
const MAX_UID_LENGTH = 128;

/** What a verified ID token says about its user. */
export interface IdTokenClaims {
  uid: string;
  email: string | null;
  name: string | null;
  emailVerified?: boolean;
  /** When the user signed in (seconds since 1970), for the revocation check. */
  authTime: number;
}

export interface IdTokenCheck {
  /** The project whose tokens are accepted (their audience, and their issuer's last part). */
  projectId: string;
  /**
   * The keys tokens are signed with; by default Google's (fetched from
   * {@link FIREBASE_ID_TOKEN_KEYS_URL}, cached by jose and fetched again for an unknown key id).
   */
  keys?: JWTVerifyGetKey;
  /**
   * Accept tokens without checking a signature: the Auth emulator issues unsigned tokens. Only for
   * the local stack and tests; the composition root and `assertEmulatorNotInCloud` keep it out of the
   * cloud.
   */
  unsigned?: boolean;
}

const INVALID = 'The sign-in token is not valid. Sign in again.';
const EXPIRED = 'Your sign-in has expired. Sign in again.';

const invalid = (cause?: unknown) =>
  new UnauthorizedError(INVALID, { code: 'InvalidToken', ...(cause === undefined ? {} : { cause }) });
const expired = (cause?: unknown) =>
  new UnauthorizedError(EXPIRED, { code: 'TokenExpired', ...(cause === undefined ? {} : { cause }) });

let googleKeys: JWTVerifyGetKey | undefined;

/** Google's key set, one per process, so that its keys are fetched once and kept between requests. */
function defaultKeys(): JWTVerifyGetKey {
  googleKeys ??= createRemoteJWKSet(new URL(FIREBASE_ID_TOKEN_KEYS_URL), { timeoutDuration: 5000 });
  return googleKeys;
}

/**
 * Checks the claims Firebase puts in every ID token: audience and issuer of the project, not
 * expired, issued and signed in at a time already past, and a non-empty uid (`sub`).
 */
function claimsOf(payload: JWTPayload, projectId: string, now: number): IdTokenClaims {
  if (payload.aud !== projectId || payload.iss !== idTokenIssuer(projectId)) throw invalid();
  const { exp, iat, sub } = payload;
  const authTime = payload.auth_time;
  if (typeof exp !== 'number' || typeof iat !== 'number' || typeof authTime !== 'number') throw invalid();
  if (exp <= now - CLOCK_TOLERANCE_SECONDS) throw expired();
  if (iat > now + CLOCK_TOLERANCE_SECONDS || authTime > now + CLOCK_TOLERANCE_SECONDS) throw invalid();
  if (typeof sub !== 'string' || sub.trim() === '' || sub.length > MAX_UID_LENGTH) throw invalid();
  return {
    uid: sub,
    email: typeof payload.email === 'string' ? payload.email : null,
    name: typeof payload.name === 'string' ? payload.name : null,
    ...(typeof payload.email_verified === 'boolean' ? { emailVerified: payload.email_verified } : {}),
    authTime,
  };
}

/**
 * Verifies a Firebase ID token as Firebase documents it: an RS256 signature by one of Google's
 * securetoken keys (by `kid`), audience = project id, issuer
 * `https://securetoken.google.com/<project id>`, `exp` in the future, `iat` and `auth_time` in the
 * past, `sub` (the uid) non-empty. Claims are checked before any key is fetched, so a token of
 * another project or an expired one costs no call to Google.
 *
 * @param token - the compact JWT from the Authorization header
 * @param check - the project, and the keys or the emulator's unsigned mode
 * @throws UnauthorizedError (codes `InvalidToken`, `TokenExpired`) for a token that is not a valid,
 *   current ID token of the project; the message never quotes the library
 * @throws ServiceUnavailableError (code `IdentityUnavailable`) when Google's keys cannot be fetched
 */
export async function verifyIdToken(token: string, check: IdTokenCheck): Promise<IdTokenClaims> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch (error) {
    throw invalid(error);
  }
  const now = Math.floor(Date.now() / 1000);
  const claims = claimsOf(payload, check.projectId, now);
  if (check.unsigned) return claims;

  if (header.alg !== 'RS256' || typeof header.kid !== 'string' || header.kid === '') throw invalid();
  try {
    const verified = await jwtVerify(token, check.keys ?? defaultKeys(), {
      algorithms: ['RS256'],
      audience: check.projectId,
      issuer: idTokenIssuer(check.projectId),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'iat', 'auth_time', 'sub'],
    });
    return claimsOf(verified.payload, check.projectId, now);
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    if (error instanceof errors.JWTExpired) throw expired(error);
    // The key set could not be had (timeout, a network error, a non-200 or unreadable answer): the
    // token is not known to be bad.
    const keysUnavailable =
      !(error instanceof errors.JOSEError) ||
      error instanceof errors.JWKSTimeout ||
      error instanceof errors.JWKSInvalid ||
      error.code === 'ERR_JOSE_GENERIC';
    if (keysUnavailable) {
      throw new ServiceUnavailableError('Sign-ins cannot be checked right now. Try again in a moment.', {
        code: 'IdentityUnavailable',
        cause: error,
      });
    }
    // A bad signature, an unknown key id, an algorithm other than RS256, a claim out of place.
    throw invalid(error);
  }
}
