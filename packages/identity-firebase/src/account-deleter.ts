import { SignJWT, importPKCS8 } from 'jose';

/** Google's OAuth 2.0 token endpoint, where a service account trades a signed assertion for a token. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The scopes of Firebase Auth's admin REST calls. */
const SCOPES =
  'https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/cloud-platform';

/** Seconds an access token is given up before it expires, so that one is never sent expired. */
const EXPIRY_MARGIN_SECONDS = 60;

/** The parts of a Google service account key that signing for an access token needs. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
}

export interface AccountDeleterOptions {
  projectId: string;
  /** Firebase Auth's REST API: Google's, or the emulator's (`http://<host>/identitytoolkit.googleapis.com`). */
  identityToolkitUrl: string;
  /**
   * The service account key, read when the first account is deleted (the composition root reads it
   * from a secret store). Not needed by the emulator, which takes the `owner` token.
   */
  credentials: () => Promise<ServiceAccountKey | undefined>;
  /** Whether the Auth emulator answers (it takes `Bearer owner` instead of a Google access token). */
  emulator: boolean;
  /** Where access tokens come from (default Google's token endpoint; tests give a stand-in). */
  tokenUrl?: string;
  /** How long one call may take (default 10 s). */
  timeoutMs?: number;
}

/**
 * Deletes Firebase Auth accounts with Identity Toolkit's admin REST call (`projects/<id>/accounts:delete`),
 * authorised by an OAuth 2.0 access token that the service account key signs for itself (the JWT
 * bearer grant): what firebase-admin's `deleteUser` does, without loading the Admin SDK.
 */
export class AccountDeleter {
  private token: { value: string; expiresAt: number } | undefined;

  constructor(private readonly options: AccountDeleterOptions) {}

  /**
   * Deletes the account of `uid`; one that does not exist counts as deleted.
   * @throws Error when the account could not be deleted (no credentials, refused, unreachable)
   */
  async delete(uid: string): Promise<void> {
    const { projectId, identityToolkitUrl } = this.options;
    const response = await fetch(
      `${identityToolkitUrl}/v1/projects/${encodeURIComponent(projectId)}/accounts:delete`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await this.accessToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ localId: uid }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      },
    );
    if (response.ok) return;
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    const message = body.error?.message ?? '';
    if (response.status === 400 && /^USER_NOT_FOUND\b/.test(message)) return;
    throw new Error(`accounts:delete answered ${response.status} ${message}`.trim());
  }

  /** The emulator's owner token, or a Google access token of the service account, kept until it nears expiry. */
  private async accessToken(): Promise<string> {
    if (this.options.emulator) return 'owner';
    const now = Math.floor(Date.now() / 1000);
    if (this.token && this.token.expiresAt > now + EXPIRY_MARGIN_SECONDS) return this.token.value;
    const key = await this.options.credentials();
    if (key === undefined) {
      throw new Error('No service account key is configured: accounts cannot be deleted.');
    }
    const tokenUrl = this.options.tokenUrl ?? GOOGLE_TOKEN_URL;
    const response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: await assertion(key, tokenUrl, now),
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      throw new Error(`The token endpoint answered ${response.status} ${String(body.error ?? '')}`.trim());
    }
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.token = { value: body.access_token, expiresAt: now + lifetime };
    return body.access_token;
  }
}

/** The service account's signed request for an access token (RFC 7523), valid for an hour. */
async function assertion(key: ServiceAccountKey, audience: string, now: number): Promise<string> {
  const privateKey = await importPKCS8(key.privateKey, 'RS256');
  return new SignJWT({ scope: SCOPES })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(key.clientEmail)
    .setSubject(key.clientEmail)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
}
