import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, UnauthorizedError } from '@receipts/core';
import { FirebaseIdentityVerifier } from '@receipts/identity-firebase';
import { startAuthEmulator, type AuthEmulator } from '../../dev/src/firebase-auth-emulator';

/** An unsigned token shaped like the emulator's own, with the claims a forger would choose. */
function unsignedToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

function claimsOf(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('the local Firebase Auth emulator', () => {
  let root: string;
  let dataDir: string;
  let otherDir: string;
  let emulator: AuthEmulator | undefined;
  /** A second emulator running at the same time, on a folder of its own. */
  let other: AuthEmulator | undefined;
  let verifier: FirebaseIdentityVerifier;
  const started: AuthEmulator[] = [];
  const previousHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

  const start = async (dir: string) => {
    const instance = await startAuthEmulator({ dataDir: dir, silent: true });
    started.push(instance);
    return instance;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'auth-emulator-test-'));
    dataDir = join(root, 'auth');
    otherDir = join(root, 'other-auth');
    [emulator, other] = await Promise.all([start(dataDir), start(otherDir)]);
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    verifier = new FirebaseIdentityVerifier({ projectId: emulator.projectId });
  });

  afterAll(async () => {
    await Promise.allSettled(started.map((instance) => instance.stop()));
    await verifier?.close();
    if (previousHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previousHost;
    await rm(root, { recursive: true, force: true });
  });

  it('runs a demo project on a loopback port', () => {
    expect(emulator?.projectId).toBe('demo-receipts');
    expect(emulator?.host).toBe(`127.0.0.1:${emulator?.port}`);
  });

  it('signs up an account whose ID token the verifier accepts as that user', async () => {
    const session = await emulator!.signUp('alice@example.com', 'alice-password', 'Alice');
    expect(session.refreshToken.length).toBeGreaterThan(0);

    const identity = await verifier.verify(session.idToken);

    expect(identity).toEqual({
      uid: session.localId,
      email: 'alice@example.com',
      name: 'Alice',
      emailVerified: false,
    });
  });

  it('refuses a second account with the same email and a wrong password', async () => {
    await expect(emulator!.signUp('alice@example.com', 'other-password')).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(emulator!.signIn('alice@example.com', 'wrong-password')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('refuses garbage, tampered, expired and other-project tokens', async () => {
    const { idToken, localId } = await emulator!.signIn('alice@example.com', 'alice-password');
    const claims = claimsOf(idToken);
    const now = Math.floor(Date.now() / 1000);

    const refused = [
      'not-a-token',
      'a.b.c',
      // Someone else's uid in an otherwise genuine token.
      unsignedToken({ ...claims, sub: 'someone-else', user_id: 'someone-else' }),
      // Alice's token, long expired.
      unsignedToken({ ...claims, iat: now - 7200, exp: now - 3600, auth_time: now - 7200 }),
      // Alice's token, minted for another project.
      unsignedToken({
        ...claims,
        aud: 'demo-other',
        iss: 'https://securetoken.google.com/demo-other',
      }),
    ];
    for (const token of refused) {
      const failure = await verifier.verify(token).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, token).toBeInstanceOf(UnauthorizedError);
      expect((failure as Error).message).not.toMatch(/firebase|jwt|aud|kid/i);
    }
    // The genuine token still works: the refusals above were about the tokens, not the verifier.
    await expect(verifier.verify(idToken)).resolves.toMatchObject({ uid: localId });
  });

  it('keeps accounts in dataDir across restarts, even with two emulators running at once', async () => {
    const alice = await emulator!.signIn('alice@example.com', 'alice-password');
    expect(other!.port).not.toBe(emulator!.port);
    // The other emulator has its own accounts: Alice is unknown there, Bob only there.
    await expect(other!.signIn('alice@example.com', 'alice-password')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await other!.signUp('bob@example.com', 'bob-password');
    await emulator!.stop();
    await emulator!.stop(); // a second stop is harmless
    await other!.stop();

    // Each export went to its own folder, and both come back when the two start again at once.
    const [again, otherAgain] = await Promise.all([start(dataDir), start(otherDir)]);
    expect(again.port).not.toBe(otherAgain.port);
    // firebase-admin reads the emulator host when it builds its client: a new port needs a new verifier.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = again.host;
    const againVerifier = new FirebaseIdentityVerifier({ projectId: again.projectId });

    const back = await again.signIn('alice@example.com', 'alice-password');
    expect(back.localId).toBe(alice.localId);
    await expect(againVerifier.verify(back.idToken)).resolves.toMatchObject({ uid: alice.localId });
    await againVerifier.close();
    await expect(again.signIn('bob@example.com', 'bob-password')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(otherAgain.signIn('alice@example.com', 'alice-password')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(otherAgain.signIn('bob@example.com', 'bob-password')).resolves.toBeDefined();
    await Promise.all([again.stop(), otherAgain.stop()]);
  }, 240_000);
});
