import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../dev/src/firebase-auth-emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `127.0.0.1:PORT` of the run's Auth emulators, one per worker (see shared-auth-emulator.ts). */
    authEmulatorHosts: string[];
  }
}

/**
 * Global setup of the projects whose files start local stacks: starts the Firebase Auth emulator once
 * per worker for the whole run instead of once per stack. firebase-tools takes about 17 s of CPU to
 * start it (over a minute on a busy 2-core machine); the API and browser suites start some thirty
 * stacks.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const count = workers(project);
  const dir = await mkdtemp(join(tmpdir(), 'receipts-shared-auth-'));
  const emulators = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      // Started once for the whole run: allow a machine busy with the other projects' files.
      startAuthEmulator({ dataDir: join(dir, String(n)), silent: true, startTimeoutMs: 300_000 }),
    ),
  );
  project.provide(
    'authEmulatorHosts',
    emulators.map((emulator) => emulator.host),
  );
  return async () => {
    await Promise.all(emulators.map((emulator) => emulator.stop()));
    await rm(dir, { recursive: true, force: true });
  };
}

/** How many files of the project may run at once: Vitest's own rule (the --maxWorkers option, else cores - 1). */
function workers(project: TestProject): number {
  const set = project.config.maxWorkers || project.vitest.config.maxWorkers;
  if (set) return set;
  const cores = availableParallelism();
  return project.vitest.config.watch ? Math.max(Math.floor(cores / 2), 1) : Math.max(cores - 1, 1);
}
