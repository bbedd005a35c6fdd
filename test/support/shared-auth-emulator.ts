import { inject } from 'vitest';

/** The project id of the local stack, and so of the shared emulators' accounts. */
const PROJECT_ID = 'demo-receipts';

/**
 * `host:port` of this worker's Auth emulator, started once for the run by auth-emulator-setup.ts,
 * emptied of every account first. Files of one worker run one after another, so a file's stack
 * starts with no accounts but its own, as if it had started its own emulator.
 *
 * A suite that checks what the emulator keeps across a restart starts its own instead.
 */
export async function sharedAuthEmulator(): Promise<string> {
  const hosts = inject('authEmulatorHosts');
  if (!hosts?.length)
    throw new Error('No shared Auth emulator: add auth-emulator-setup.ts to the project globalSetup.');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const host = hosts[(worker - 1) % hosts.length]!;
  const answer = await fetch(`http://${host}/emulator/v1/projects/${PROJECT_ID}/accounts`, {
    method: 'DELETE',
  });
  if (!answer.ok) throw new Error(`The shared Auth emulator at ${host} kept its accounts: ${answer.status}`);
  return host;
}
