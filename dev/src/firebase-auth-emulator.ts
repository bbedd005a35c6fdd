import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AppError, ConflictError, RETRY_LIMITS, UnauthorizedError, ValidationError } from '@receipts/core';
import pRetry from 'p-retry';
import { superviseChild } from './child-process';
import { freeLoopbackPort } from './free-port';

/** Options of {@link startAuthEmulator}. */
export interface AuthEmulatorOptions {
  /** Port of the Auth REST API on 127.0.0.1; default: a free port. */
  port?: number;
  /**
   * Folder that keeps the accounts between runs (imported at start when present, exported on stop).
   * The emulator replaces the folder as a whole on export: give it a folder of its own.
   */
  dataDir: string;
  /** Firebase project id; a `demo-` id needs no login and makes no calls to Google. */
  projectId?: string;
  /** When true the emulator's own output is kept to be quoted in errors instead of being printed. */
  silent?: boolean;
  /** How long to wait for the REST API to answer; default 120 s (a busy machine is slow to start it). */
  startTimeoutMs?: number;
  /** How long `stop()` waits for the export before killing the process; default 30 s. */
  stopTimeoutMs?: number;
}

/** Tokens of a signed-in emulator account. */
export interface EmulatorSession {
  idToken: string;
  localId: string;
  refreshToken: string;
}

/** A running Auth emulator. */
export interface AuthEmulator {
  /** `127.0.0.1:PORT`, the value for `FIREBASE_AUTH_EMULATOR_HOST`. */
  host: string;
  port: number;
  projectId: string;
  /** Stops the emulator after it has exported its accounts to `dataDir`. Safe to call twice. */
  stop(): Promise<void>;
  /** Creates an email+password account and returns its tokens. */
  signUp(email: string, password: string, displayName?: string): Promise<EmulatorSession>;
  /** Signs an existing account in and returns a fresh ID token. */
  signIn(email: string, password: string): Promise<{ idToken: string; localId: string }>;
}

const DEFAULT_PROJECT_ID = 'demo-receipts';
const METADATA_FILE = 'firebase-export-metadata.json';
const OUTPUT_LINES_KEPT = 40;
/** What firebase-tools prints once every emulator has started and imported its saved data. */
const ALL_READY = /All emulators ready/;

/**
 * Starts the Firebase Auth emulator of firebase-tools on 127.0.0.1 and waits until its REST API answers.
 *
 * Several emulators may run at once (parallel tests): each gets its own config folder, free hub and
 * logging ports and its own temp folder, where firebase-tools keeps the file that locates a project's
 * hub (shared per project id otherwise, which would send one emulator's export to another).
 *
 * @param options - port, data folder, project id and output handling
 * @returns the running emulator, with helpers that create and sign in accounts through its REST API
 * @throws AppError (code `AuthEmulatorStartFailed`) with the emulator's last output when it cannot start
 */
export async function startAuthEmulator(options: AuthEmulatorOptions): Promise<AuthEmulator> {
  const attempts = options.port === undefined ? RETRY_LIMITS.emulatorStartTries : 1;
  // Free ports are probed before the emulator binds them; another process may take one meanwhile.
  return pRetry(() => startOnce(options), {
    retries: attempts - 1,
    minTimeout: 0,
    shouldRetry: ({ error }) => error instanceof PortTakenError,
  });
}

class PortTakenError extends AppError {}

async function startOnce(options: AuthEmulatorOptions): Promise<AuthEmulator> {
  const projectId = options.projectId ?? DEFAULT_PROJECT_ID;
  const port = options.port ?? (await freeLoopbackPort());
  const hubPort = await freeLoopbackPort();
  const loggingPort = await freeLoopbackPort();
  const host = `127.0.0.1:${port}`;
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });

  const workDir = await mkdtemp(join(tmpdir(), 'receipts-auth-emulator-'));
  const privateTmp = join(workDir, 'tmp');
  await mkdir(privateTmp);
  const config = {
    emulators: {
      auth: { host: '127.0.0.1', port },
      hub: { host: '127.0.0.1', port: hubPort },
      logging: { host: '127.0.0.1', port: loggingPort },
      ui: { enabled: false },
    },
  };
  await writeFile(join(workDir, 'firebase.json'), JSON.stringify(config, null, 2));

  const args = [
    firebaseCli(),
    'emulators:start',
    '--only',
    'auth',
    '--project',
    projectId,
    '--non-interactive',
  ];
  const importing = existsSync(join(dataDir, METADATA_FILE));
  if (importing) args.push('--import', dataDir);
  args.push('--export-on-exit', dataDir);

  // In its own process group (detached) so a terminal's Ctrl-C reaches only us and we can stop it cleanly.
  const spawned = spawn(process.execPath, args, {
    cwd: workDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // Offline: CI skips the message-of-the-day fetch and, with NO_UPDATE_NOTIFIER, the update check.
      CI: 'true',
      NO_UPDATE_NOTIFIER: '1',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      TMPDIR: privateTmp,
      // firebase-tools' settings store; kept per run so parallel emulators never write the same file.
      XDG_CONFIG_HOME: join(workDir, 'config'),
      FIREBASE_AUTH_EMULATOR_HOST: undefined,
    },
  });
  // The Auth emulator answers as soon as it listens, before firebase-tools has imported the saved
  // accounts into it; it says "All emulators ready" once that is done.
  let allReady = false;
  // The end of each stream's output, so a line split over chunks is still seen whole.
  const recent = { stdout: '', stderr: '' };
  const child = superviseChild(spawned, {
    keepLines: OUTPUT_LINES_KEPT,
    echo: (text, stream) => {
      recent[stream] = (recent[stream] + text).slice(-500);
      if (ALL_READY.test(recent[stream])) allReady = true;
      if (options.silent) return;
      for (const line of text.split('\n')) {
        if (line.trim() !== '') process.stderr.write(`[auth-emulator] ${line}\n`);
      }
    },
  });
  const { output } = child;
  const cleanUp = () => rm(workDir, { recursive: true, force: true });

  try {
    await waitUntilReady(
      `http://${host}/`,
      () => !importing || allReady,
      child.exit,
      child.exited,
      options.startTimeoutMs ?? 120_000,
    );
  } catch (error) {
    await child.kill();
    await cleanUp();
    const tail = output.join('\n');
    const reason = error instanceof Error ? error.message : String(error);
    const message = `The Firebase Auth emulator did not start on ${host}: ${reason}\n${tail}`;
    if (/port taken|is not open on/i.test(tail)) {
      throw new PortTakenError(message, { code: 'AuthEmulatorStartFailed' });
    }
    throw new AppError(message, { code: 'AuthEmulatorStartFailed' });
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await child.stop('SIGINT', options.stopTimeoutMs ?? 30_000);
      await cleanUp();
      if (output.some((line) => /Automatic export to .* failed/.test(line))) {
        throw new AppError(
          `The Firebase Auth emulator could not save its accounts to ${dataDir}:\n${output.join('\n')}`,
          { code: 'AuthEmulatorExportFailed' },
        );
      }
    })();
    return stopping;
  };

  return { host, port, projectId, stop, ...emulatorAccounts(host) };
}

/**
 * Makes and signs in email+password accounts through the Identity Toolkit REST API of the Auth
 * emulator at `host` (`127.0.0.1:PORT`), whoever started it.
 */
export function emulatorAccounts(host: string): Pick<AuthEmulator, 'signUp' | 'signIn'> {
  const rest = (method: string) =>
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=local-emulator-key`;
  return {
    async signUp(email, password, displayName) {
      const body = await callRest(rest('signUp'), {
        email,
        password,
        ...(displayName === undefined ? {} : { displayName }),
        returnSecureToken: true,
      });
      return {
        idToken: String(body.idToken),
        localId: String(body.localId),
        refreshToken: String(body.refreshToken),
      };
    },
    async signIn(email, password) {
      const body = await callRest(rest('signInWithPassword'), { email, password, returnSecureToken: true });
      return { idToken: String(body.idToken), localId: String(body.localId) };
    },
  };
}

/** The firebase-tools CLI script installed in node_modules. */
function firebaseCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('firebase-tools/package.json')), 'lib', 'bin', 'firebase.js');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

/**
 * Waits until the emulator answers that it is ready and `imported()` holds (the saved accounts are
 * in: a sign-in before that would be told the account does not exist).
 */
async function waitUntilReady(
  url: string,
  imported: () => boolean,
  exit: Promise<void>,
  hasExited: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let answered = false;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('the emulator process exited during start-up');
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        const body = (await response.json()) as { authEmulator?: { ready?: boolean } };
        answered ||= body.authEmulator?.ready === true;
        if (answered && imported()) return;
      }
    } catch {
      // Not listening yet.
    }
    await Promise.race([delay(250), exit]);
  }
  const seconds = Math.round(timeoutMs / 1000);
  throw new Error(
    answered
      ? `it answered, but did not say within ${seconds} s that its saved accounts were imported`
      : `no answer within ${seconds} s`,
  );
}

/** Calls the emulator's Identity Toolkit REST API and turns its error codes into core errors. */
async function callRest(url: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown> & {
    error?: { message?: string };
  };
  if (response.ok) return body;
  const code = body.error?.message ?? `HTTP ${response.status}`;
  if (code.startsWith('EMAIL_EXISTS')) {
    throw new ConflictError('An account with this email address already exists.', { code: 'EmailExists' });
  }
  if (/^(EMAIL_NOT_FOUND|INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS|USER_DISABLED)/.test(code)) {
    throw new UnauthorizedError('The email address or password is wrong.', { code: 'InvalidLogin' });
  }
  throw new ValidationError(`The Auth emulator refused the request: ${code}`, {
    code: 'AuthEmulatorRefused',
  });
}
