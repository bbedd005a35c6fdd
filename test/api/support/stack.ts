import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../dev/src/stack';
import { sharedAuthEmulator } from '../../support/shared-auth-emulator';
import { ApiClient } from './api-client';

/** Options of {@link startTestStack}: the local stack's, and which Auth emulator it uses. */
export type TestStackOptions = Partial<LocalStackOptions> & {
  /**
   * 'shared' (default): the run's emulator for this worker, emptied of accounts first; 'own': one
   * started and stopped with the stack, keeping its accounts under `dataDir` across a restart.
   */
  authEmulator?: 'shared' | 'own';
};

/** A local stack on free ports in a temp folder, quiet, for one test file. */
export async function startTestStack(options: TestStackOptions = {}): Promise<{
  stack: LocalStack;
  dataDir: string;
  stop: () => Promise<void>;
}> {
  const { authEmulator = 'shared', ...stackOptions } = options;
  const dataDir = stackOptions.dataDir ?? (await mkdtemp(join(tmpdir(), 'receipts-api-')));
  const stack = await startLocalStack({
    port: 0,
    quiet: true,
    logLevel: 'error',
    ...(authEmulator === 'shared' ? { authEmulatorHost: await sharedAuthEmulator() } : {}),
    ...stackOptions,
    dataDir,
  });
  return {
    stack,
    dataDir,
    stop: async () => {
      await stack.stop();
      if (!stackOptions.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account on the stack's Auth emulator and returns an API client signed in as it. */
export async function signUpClient(stack: LocalStack, email: string, name: string): Promise<ApiClient> {
  const session = await stack.signUp(email, 'correct-horse-battery', name);
  return new ApiClient(stack.url, session.idToken, session.localId);
}
