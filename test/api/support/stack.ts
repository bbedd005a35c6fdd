import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../dev/src/stack';
import { ApiClient } from './api-client';

/** A local stack on free ports in a temp folder, quiet, for one test file. */
export async function startTestStack(options: Partial<LocalStackOptions> = {}): Promise<{
  stack: LocalStack;
  dataDir: string;
  stop: () => Promise<void>;
}> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'receipts-api-')));
  const stack = await startLocalStack({ port: 0, quiet: true, logLevel: 'error', ...options, dataDir });
  return {
    stack,
    dataDir,
    stop: async () => {
      await stack.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account on the stack's Auth emulator and returns an API client signed in as it. */
export async function signUpClient(stack: LocalStack, email: string, name: string): Promise<ApiClient> {
  const session = await stack.signUp(email, 'correct-horse-battery', name);
  return new ApiClient(stack.url, session.idToken, session.localId);
}
