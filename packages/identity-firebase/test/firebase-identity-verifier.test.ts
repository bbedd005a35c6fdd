import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppError } from '@receipts/core';
import { ConfigurationError, ServiceUnavailableError, UnauthorizedError } from '@receipts/core';
import { FirebaseIdentityVerifier, assertEmulatorNotInCloud } from '../src';

const PROJECT = 'demo-verifier-test';

function token(header: Record<string, unknown>, claims: Record<string, unknown>, signature = ''): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode(header)}.${encode(claims)}.${signature}`;
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: 'user-1',
    user_id: 'user-1',
    auth_time: now,
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

/** A loopback port nothing listens on, so a lookup there fails at once and offline. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A stand-in for Firebase Auth on a loopback port, set as the emulator host. The user's own lookup
 * (`/v1/accounts:lookup?key=…`, made with the ID token) gets `status` and `body`, and its requests are
 * kept: the verifier's own check is all that stands between a revoked token and the API.
 */
async function fakeLookup(status: number, body: unknown): Promise<{ requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const url = request.url ?? '';
      requests.push(`${url} ${text}`);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  servers.push(server);
  return { requests, server };
}
const servers: Server[] = [];

/** Firebase Auth's admin delete (`/v1/projects/…/accounts:delete`) answering `status` and `body`. */
async function fakeDelete(status: number, body: unknown): Promise<string[]> {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push(`${request.method} ${request.url ?? ''} ${text}`);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  servers.push(server);
  return requests;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const savedEnv = { ...process.env };
const verifiers: FirebaseIdentityVerifier[] = [];
function verifier(): FirebaseIdentityVerifier {
  const instance = new FirebaseIdentityVerifier({ projectId: PROJECT, apiKey: 'test-key' });
  verifiers.push(instance);
  return instance;
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
  await Promise.all(verifiers.splice(0).map((instance) => instance.close()));
  for (const key of ['FIREBASE_AUTH_EMULATOR_HOST', 'AWS_LAMBDA_FUNCTION_NAME']) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

describe('assertEmulatorNotInCloud', () => {
  it('refuses the emulator host inside AWS Lambda, naming the variable', () => {
    expect(() =>
      assertEmulatorNotInCloud({
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
        AWS_LAMBDA_FUNCTION_NAME: 'api',
      }),
    ).toThrow(ConfigurationError);
    expect(() =>
      assertEmulatorNotInCloud({
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
        AWS_LAMBDA_FUNCTION_NAME: 'api',
      }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('allows the emulator locally and Lambda without the emulator', () => {
    expect(() => assertEmulatorNotInCloud({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).not.toThrow();
    expect(() => assertEmulatorNotInCloud({ AWS_LAMBDA_FUNCTION_NAME: 'api' })).not.toThrow();
    expect(() => assertEmulatorNotInCloud({})).not.toThrow();
  });
});

describe('FirebaseIdentityVerifier configuration', () => {
  it('refuses to start inside Lambda when the emulator host is set', () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9099';
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'upload';
    expect(() => new FirebaseIdentityVerifier({ projectId: PROJECT })).toThrow(ConfigurationError);
  });

  it('refuses a missing project id', () => {
    expect(() => new FirebaseIdentityVerifier({ projectId: ' ' })).toThrow(ConfigurationError);
  });

  it('refuses to start without the Web API key outside the emulator, naming it', () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    expect(() => new FirebaseIdentityVerifier({ projectId: PROJECT })).toThrow(/Web API key/);
  });

  it('lets several verifiers live in one process', async () => {
    const first = verifier();
    const second = verifier();
    await expect(first.verify('x.y.z')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(second.verify('x.y.z')).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('FirebaseIdentityVerifier.verify', () => {
  it('refuses a missing token with a message asking to sign in', async () => {
    const error = await failureOf(verifier().verify(''));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toMatch(/sign in/i);
  });

  it('refuses malformed and oversized tokens', async () => {
    const instance = verifier();
    for (const bad of ['garbage', 'a.b', 'a.b.c', `${'a'.repeat(9000)}.b.c`]) {
      expect(await failureOf(instance.verify(bad)), bad).toBeInstanceOf(UnauthorizedError);
    }
  });

  it('refuses a token of another project or a custom token, without quoting the library', async () => {
    const instance = verifier();
    const header = { alg: 'RS256', kid: 'some-key', typ: 'JWT' };
    const otherProject = token(
      header,
      claims({ aud: 'someone-elses-project', iss: 'https://securetoken.google.com/someone-elses-project' }),
      'c2ln',
    );
    const customToken = token(
      { alg: 'RS256', typ: 'JWT' },
      claims({
        aud: 'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit',
      }),
      'c2ln',
    );
    for (const bad of [otherProject, customToken]) {
      const error = await failureOf(instance.verify(bad));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toBe('The sign-in token is not valid. Sign in again.');
    }
  });

  it('with the emulator, refuses an expired token as expired', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${await closedPort()}`;
    const now = Math.floor(Date.now() / 1000);
    const expired = token({ alg: 'none', typ: 'JWT' }, claims({ iat: now - 7200, exp: now - 3600 }));

    const error = await failureOf(verifier().verify(expired));

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toMatch(/expired/);
  });

  it('reports an unreachable emulator as unavailable, not as a bad sign-in', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${await closedPort()}`;
    const valid = token({ alg: 'none', typ: 'JWT' }, claims());

    const error = await failureOf(verifier().verify(valid));

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).not.toBeInstanceOf(UnauthorizedError);
    expect((error as AppError).code).toBe('IdentityUnavailable');
  });
});

describe('FirebaseIdentityVerifier account check', () => {
  it('accepts a token whose account is enabled and not revoked, looking it up with the token itself', async () => {
    const now = Math.floor(Date.now() / 1000);
    const lookup = await fakeLookup(200, { users: [{ localId: 'user-1', validSince: String(now - 60) }] });
    const valid = token({ alg: 'none', typ: 'JWT' }, claims());

    await expect(verifier().verify(valid)).resolves.toMatchObject({ uid: 'user-1' });

    expect(lookup.requests).toHaveLength(1);
    expect(lookup.requests[0]).toContain('/identitytoolkit.googleapis.com/v1/accounts:lookup?key=test-key');
    expect(lookup.requests[0]).toContain(valid);
  });

  it('refuses a token signed in before its sign-ins were revoked', async () => {
    const now = Math.floor(Date.now() / 1000);
    await fakeLookup(200, { users: [{ localId: 'user-1', validSince: String(now + 5) }] });
    const error = await failureOf(verifier().verify(token({ alg: 'none', typ: 'JWT' }, claims())));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as AppError).code).toBe('SignInRevoked');
    expect((error as Error).message).toBe('Your sign-in was revoked. Sign in again.');
  });

  it('refuses a disabled account, whether Firebase refuses the lookup or flags the account', async () => {
    const valid = token({ alg: 'none', typ: 'JWT' }, claims());
    for (const [status, body] of [
      [400, { error: { code: 400, message: 'USER_DISABLED' } }],
      [200, { users: [{ localId: 'user-1', disabled: true }] }],
    ] as const) {
      await fakeLookup(status, body);
      const error = await failureOf(verifier().verify(valid));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as AppError).code).toBe('AccountDisabled');
      expect((error as Error).message).toMatch(/account is disabled/);
    }
  });

  it('refuses revoked and deleted accounts refused by the lookup, with details after the code', async () => {
    const valid = token({ alg: 'none', typ: 'JWT' }, claims());
    for (const [message, code] of [
      ['TOKEN_EXPIRED : issued before the last revocation', 'SignInRevoked'],
      ['USER_NOT_FOUND', 'AccountNotFound'],
      ['INVALID_ID_TOKEN', 'InvalidToken'],
    ]) {
      await fakeLookup(400, { error: { code: 400, message } });
      const error = await failureOf(verifier().verify(valid));
      expect(error, message).toBeInstanceOf(UnauthorizedError);
      expect((error as AppError).code, message).toBe(code);
    }
  });

  it('reports a lookup it cannot make (a wrong API key, an outage) as unavailable, not as a bad sign-in', async () => {
    const valid = token({ alg: 'none', typ: 'JWT' }, claims());
    for (const [status, body] of [
      [400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } }],
      [503, { error: { code: 503, message: 'UNAVAILABLE' } }],
    ] as const) {
      await fakeLookup(status, body);
      const error = await failureOf(verifier().verify(valid));
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as AppError).code).toBe('IdentityUnavailable');
    }
  });
});

describe('FirebaseIdentityVerifier.deleteAccount', () => {
  it("deletes the uid's account with Firebase Auth's admin call, as the emulator's owner", async () => {
    const requests = await fakeDelete(200, {});
    await verifier().deleteAccount('user-1');
    expect(requests).toEqual([
      expect.stringMatching(
        /^POST \/identitytoolkit\.googleapis\.com\/v1\/projects\/demo-verifier-test\/accounts:delete .*"localId":"user-1"/,
      ),
    ]);
  });

  it('takes an account that is already gone as deleted, so a deletion can be run again', async () => {
    await fakeDelete(400, { error: { code: 400, message: 'USER_NOT_FOUND' } });
    await expect(verifier().deleteAccount('user-1')).resolves.toBeUndefined();
  });

  it('reports a deletion Firebase refuses or cannot take as unavailable, saying the data is gone already', async () => {
    await fakeDelete(403, { error: { code: 403, message: 'PERMISSION_DENIED' } });
    const error = await failureOf(verifier().deleteAccount('user-1'));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as AppError).code).toBe('AccountNotDeleted');
    expect((error as AppError).message).toMatch(
      /data is deleted, but your sign-in account could not be removed/,
    );

    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${await closedPort()}`;
    expect(await failureOf(verifier().deleteAccount('user-1'))).toBeInstanceOf(ServiceUnavailableError);
  });
});
