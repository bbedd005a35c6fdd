import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import type { AppError } from '@receipts/core';
import { ServiceUnavailableError, UnauthorizedError } from '@receipts/core';
import { FirebaseIdentityVerifier, idTokenIssuer, verifyIdToken, type ServiceAccountKey } from '../src';

const PROJECT = 'receipts-jwt-test';
const KID = 'key-1';

let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
});

function claims(overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: idTokenIssuer(PROJECT),
    aud: PROJECT,
    sub: 'user-1',
    user_id: 'user-1',
    email: 'ada@example.com',
    email_verified: true,
    name: 'Ada',
    auth_time: now - 60,
    iat: now - 60,
    exp: now + 3540,
    ...overrides,
  };
}

/** An ID token as Firebase signs one, with what a test changes. */
function sign(
  payload: JWTPayload = claims(),
  { key = signingKey, kid = KID }: { key?: CryptoKey; kid?: string } = {},
): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}

const check = () => ({ projectId: PROJECT, keys: createLocalJWKSet(jwks) });

async function refusal(token: string | Promise<string>): Promise<AppError> {
  return verifyIdToken(await token, check()).then(
    () => {
      throw new Error('the token was accepted');
    },
    (error: AppError) => error,
  );
}

describe('verifyIdToken (jose, a local key set)', () => {
  it("accepts a token signed by the project's key and returns its user", async () => {
    await expect(verifyIdToken(await sign(), check())).resolves.toEqual({
      uid: 'user-1',
      email: 'ada@example.com',
      name: 'Ada',
      emailVerified: true,
      authTime: claims().auth_time,
    });
  });

  it('refuses a token of another project: wrong audience or wrong issuer', async () => {
    for (const bad of [
      claims({ aud: 'someone-elses-project' }),
      claims({ iss: idTokenIssuer('someone-elses-project') }),
      claims({ iss: 'https://accounts.google.com' }),
      claims({ aud: [PROJECT, 'other'] }),
    ]) {
      const error = await refusal(sign(bad));
      expect(error, JSON.stringify(bad)).toBeInstanceOf(UnauthorizedError);
      expect(error.code).toBe('InvalidToken');
      expect(error.message).toBe('The sign-in token is not valid. Sign in again.');
    }
  });

  it('refuses an expired token, saying so', async () => {
    const now = Math.floor(Date.now() / 1000);
    const error = await refusal(sign(claims({ iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.code).toBe('TokenExpired');
    expect(error.message).toMatch(/expired/);
  });

  it('refuses a token issued or signed in in the future, or without a uid', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const bad of [
      claims({ iat: now + 600 }),
      claims({ auth_time: now + 600 }),
      claims({ auth_time: undefined }),
      claims({ sub: '' }),
      claims({ sub: 'x'.repeat(129) }),
    ]) {
      expect(await refusal(sign(bad)), JSON.stringify(bad)).toBeInstanceOf(UnauthorizedError);
    }
  });

  it('refuses a bad signature: the right key id, another key', async () => {
    const error = await refusal(sign(claims(), { key: strangerKey }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.code).toBe('InvalidToken');

    const [header, payload] = (await sign()).split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims({ sub: 'user-2' }))).toString('base64url')}`;
    const signature = (await sign()).split('.')[2];
    expect(payload).not.toBe(tampered.split('.')[1]);
    expect(await refusal(`${tampered}.${signature}`)).toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a key id the key set does not have', async () => {
    const error = await refusal(sign(claims(), { kid: 'key-2' }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.code).toBe('InvalidToken');
  });

  it('refuses any algorithm but RS256: HS256 with the public key as secret, none, no key id', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    const hs256 = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: KID }).sign(secret);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims())}.`;
    const noKid = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(signingKey);
    for (const bad of [hs256, unsigned, noKid]) {
      const error = await refusal(bad);
      expect(error, bad.slice(0, 30)).toBeInstanceOf(UnauthorizedError);
      expect(error.code).toBe('InvalidToken');
    }
  });

  it('accepts an unsigned token only in the emulator mode, and still checks its claims', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = (payload: JWTPayload) => `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`;
    await expect(
      verifyIdToken(unsigned(claims()), { projectId: PROJECT, unsigned: true }),
    ).resolves.toMatchObject({ uid: 'user-1' });
    await expect(
      verifyIdToken(unsigned(claims({ aud: 'other' })), { projectId: PROJECT, unsigned: true }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

interface Seen {
  url: string;
  authorization: string | undefined;
  body: string;
}
type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/**
 * A loopback server standing in for Google: the key set (`/jwks`), the token endpoint (`/token`),
 * Firebase Auth's admin delete (`/v1/projects/…`) and the user's account lookup (the rest); each
 * answer is set per test.
 */
const server: {
  http?: Server;
  url: string;
  keys: () => Answer;
  token: (seen: Seen) => Answer;
  deletion: (seen: Seen) => Answer;
  lookup: () => Answer;
  requests: string[];
} = {
  url: '',
  keys: () => ({ status: 200, body: jwks }),
  token: () => ({ status: 500, body: {} }),
  deletion: () => ({ status: 500, body: {} }),
  lookup: () => ({ status: 200, body: { users: [{ localId: 'user-1', validSince: '0' }] } }),
  requests: [],
};

beforeAll(async () => {
  server.http = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const url = request.url ?? '';
      server.requests.push(url);
      const seen = { url, authorization: request.headers.authorization, body };
      const answer = url.startsWith('/jwks')
        ? server.keys()
        : url.startsWith('/token')
          ? server.token(seen)
          : url.startsWith('/v1/projects/')
            ? server.deletion(seen)
            : server.lookup();
      void Promise.resolve(answer).then(({ status, body: reply }) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply)),
      );
    });
  });
  await new Promise<void>((resolve) => server.http!.listen(0, '127.0.0.1', resolve));
  const address = server.http.address();
  server.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.http!.close(() => resolve())));
afterEach(() => {
  server.keys = () => ({ status: 200, body: jwks });
  server.token = () => ({ status: 500, body: {} });
  server.deletion = () => ({ status: 500, body: {} });
  server.lookup = () => ({ status: 200, body: { users: [{ localId: 'user-1', validSince: '0' }] } });
  server.requests = [];
});

describe('FirebaseIdentityVerifier with signed tokens (a key set served over HTTP, no emulator)', () => {
  const savedEmulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  beforeAll(() => delete process.env.FIREBASE_AUTH_EMULATOR_HOST);
  afterAll(() => {
    if (savedEmulator !== undefined) process.env.FIREBASE_AUTH_EMULATOR_HOST = savedEmulator;
  });

  const verifier = (key?: ServiceAccountKey) =>
    new FirebaseIdentityVerifier({
      projectId: PROJECT,
      apiKey: 'test-key',
      keys: createRemoteJWKSet(new URL(`${server.url}/jwks`), { timeoutDuration: 2000 }),
      identityToolkitUrl: server.url,
      tokenUrl: `${server.url}/token`,
      ...(key ? { credentials: async () => key } : {}),
    });

  it('accepts a good token after fetching the keys and looking the account up with the token', async () => {
    const token = await sign();
    await expect(verifier().verify(token)).resolves.toEqual({
      uid: 'user-1',
      email: 'ada@example.com',
      name: 'Ada',
      emailVerified: true,
    });
    expect(server.requests).toEqual(['/jwks', '/v1/accounts:lookup?key=test-key']);
  });

  it('refuses a token of another project without fetching any key or looking anything up', async () => {
    const error = await verifier()
      .verify(await sign(claims({ aud: 'someone-elses-project' })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(server.requests).toEqual([]);
  });

  it('refuses a forged token and a disabled account', async () => {
    expect(
      await verifier()
        .verify(await sign(claims(), { key: strangerKey }))
        .catch((e: unknown) => e),
    ).toBeInstanceOf(UnauthorizedError);
    server.lookup = () => ({ status: 400, body: { error: { code: 400, message: 'USER_DISABLED' } } });
    const disabled = await verifier()
      .verify(await sign())
      .catch((e: unknown) => e);
    expect(disabled).toBeInstanceOf(UnauthorizedError);
    expect((disabled as AppError).code).toBe('AccountDisabled');
  });

  it('reports keys it cannot fetch as unavailable, not as a bad sign-in', async () => {
    server.keys = () => ({ status: 503, body: { error: 'unavailable' } });
    const error = await verifier()
      .verify(await sign())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as AppError).code).toBe('IdentityUnavailable');

    server.keys = () => ({ status: 200, body: 'not a key set' });
    expect(
      await verifier()
        .verify(await sign())
        .catch((e: unknown) => e),
    ).toBeInstanceOf(ServiceUnavailableError);
  });

  it('refuses an unsigned token, as the emulator issues them, when the emulator is not set', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims())}.`;
    const error = await verifier()
      .verify(unsigned)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(server.requests).toEqual([]);
  });

  it('deletes an account with an access token the service account key obtains for itself', async () => {
    const account = await generateKeyPair('RS256', { extractable: true });
    const key = {
      clientEmail: 'deleter@receipts-jwt-test.iam.gserviceaccount.com',
      privateKey: await exportPKCS8(account.privateKey),
    };
    server.token = async ({ body }) => {
      const form = new URLSearchParams(body);
      expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      // Signed by the service account's key, for the token endpoint, in its own name.
      const { payload } = await jwtVerify(form.get('assertion')!, account.publicKey, {
        issuer: 'deleter@receipts-jwt-test.iam.gserviceaccount.com',
        audience: `${server.url}/token`,
      });
      expect(payload.scope).toContain('https://www.googleapis.com/auth/identitytoolkit');
      return { status: 200, body: { access_token: 'access-1', expires_in: 3600, token_type: 'Bearer' } };
    };
    const deleted: Seen[] = [];
    server.deletion = (seen) => {
      deleted.push(seen);
      return seen.authorization === 'Bearer access-1'
        ? { status: 200, body: {} }
        : { status: 401, body: { error: { message: 'UNAUTHENTICATED' } } };
    };

    const instance = verifier(key);
    await instance.deleteAccount('user-1');
    await instance.deleteAccount('user-2');

    expect(deleted.map((seen) => [seen.url, JSON.parse(seen.body)])).toEqual([
      [`/v1/projects/${PROJECT}/accounts:delete`, { localId: 'user-1' }],
      [`/v1/projects/${PROJECT}/accounts:delete`, { localId: 'user-2' }],
    ]);
    // The access token is kept until it nears its expiry.
    expect(server.requests.filter((url) => url === '/token')).toHaveLength(1);
  });

  it('cannot delete an account without a service account key, or when the token endpoint refuses, and says the data is gone', async () => {
    for (const instance of [
      verifier(),
      verifier({
        privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        clientEmail: 'x@y',
      }),
    ]) {
      const error = await instance.deleteAccount('user-1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as AppError).code).toBe('AccountNotDeleted');
      expect((error as Error).message).toMatch(/data is deleted/);
    }
    expect(server.requests.filter((url) => url.startsWith('/v1/projects/'))).toEqual([]);
  });
});
