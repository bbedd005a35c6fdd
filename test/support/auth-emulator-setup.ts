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

/** The run's emulators, started by the first project's global setup and stopped after the last's. */
interface SharedEmulators {
  hosts: Promise<string[]>;
  /** Projects whose teardown has not run yet. */
  users: number;
  stop: () => Promise<void>;
}

/**
 * Where the projects' global setups find the run's emulators: each project loads this file as a
 * module of its own, so a module variable would not be shared.
 */
const SHARED = Symbol.for('receipt-tracker.shared-auth-emulators');
const holder = globalThis as { [SHARED]?: SharedEmulators };

function startEmulators(count: number): SharedEmulators {
  const dir = mkdtemp(join(tmpdir(), 'receipts-shared-auth-'));
  const emulators = dir.then((root) =>
    Promise.all(
      Array.from({ length: count }, (_, n) =>
        // Started once for the whole run: allow a machine busy with the other projects' files.
        startAuthEmulator({ dataDir: join(root, String(n)), silent: true, startTimeoutMs: 300_000 }),
      ),
    ),
  );
  return {
    hosts: emulators.then((started) => started.map((emulator) => emulator.host)),
    users: 0,
    stop: async () => {
      await Promise.all((await emulators).map((emulator) => emulator.stop()));
      await rm(await dir, { recursive: true, force: true });
    },
  };
}

/**
 * Global setup of the projects whose files start local stacks (api, e2e): starts the Firebase Auth
 * emulator once per worker for the whole run instead of once per stack, and once for all these
 * projects: a worker runs one file at a time, whatever its project. firebase-tools takes about 17 s
 * of CPU to start it (over a minute on a busy 2-core machine); the API and browser suites start some
 * thirty stacks.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (holder[SHARED] ??= startEmulators(workers(project)));
  shared.users += 1;
  project.provide('authEmulatorHosts', await shared.hosts);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await shared.stop();
  };
}

/** How many files of the project may run at once: Vitest's own rule (the --maxWorkers option, else cores - 1). */
function workers(project: TestProject): number {
  const set = project.config.maxWorkers || project.vitest.config.maxWorkers;
  if (set) return set;
  const cores = availableParallelism();
  return project.vitest.config.watch ? Math.max(Math.floor(cores / 2), 1) : Math.max(cores - 1, 1);
}
