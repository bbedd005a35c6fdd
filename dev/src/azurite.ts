import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { AppError, RETRY_LIMITS } from '@receipts/core';
import pRetry from 'p-retry';
import { azuriteConnectionString } from '@receipts/store-azure';
import { superviseChild } from './child-process';
import { freeLoopbackPort } from './free-port';

/** Options of {@link startAzurite}. */
export interface AzuriteOptions {
  /** Folder where Azurite keeps its tables; they survive a restart on the same folder. */
  location: string;
  /** Port on 127.0.0.1; default: a free port. */
  port?: number;
  /** When true Azurite's own output is kept to be quoted in errors instead of being printed. */
  silent?: boolean;
  /** How long to wait for the port to accept connections; default 30 s. */
  startTimeoutMs?: number;
}

/** A running Azurite Table service. */
export interface RunningAzurite {
  /** Connection string of the emulator's well-known development account. */
  connectionString: string;
  port: number;
  /** Stops Azurite after it has saved its data. Safe to call twice. */
  stop(): Promise<void>;
}

const OUTPUT_LINES_KEPT = 40;
const STOP_GRACE_MS = 10_000;

/**
 * The table service's entry script, found through Node's module resolution rather than
 * `node_modules/.bin`, so it works from any working directory and without the bin links.
 */
export function azuriteTableScript(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('azurite/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const relative = manifest.bin?.['azurite-table'];
  if (!relative) {
    throw new AppError(
      'The installed azurite package has no azurite-table command; reinstall it with npm install.',
      {
        code: 'AzuriteMissing',
      },
    );
  }
  return join(dirname(manifestPath), relative);
}

/**
 * Starts the Azurite Table service on 127.0.0.1 and waits until it accepts connections.
 *
 * Telemetry is switched off (nothing may reach the internet) and API-version checks are relaxed so
 * that any `@azure/data-tables` release can talk to it.
 *
 * @param options - data folder, port and output handling
 * @returns the connection string, the port and `stop()`
 * @throws AppError (code `AzuriteStartFailed`) with Azurite's last output when it cannot start
 */
export async function startAzurite(options: AzuriteOptions): Promise<RunningAzurite> {
  const location = resolve(options.location);
  await mkdir(location, { recursive: true });
  const script = azuriteTableScript();
  const attempts = options.port === undefined ? RETRY_LIMITS.emulatorStartTries : 1;
  // Another process may have taken the probed port between the probe and the start: try another.
  return pRetry(
    async () => startOnPort(script, location, options.port ?? (await freeLoopbackPort()), options),
    {
      retries: attempts - 1,
      minTimeout: 0,
      shouldRetry: ({ error }) => error instanceof AppError && error.code === 'AzuritePortTaken',
    },
  );
}

async function startOnPort(
  script: string,
  location: string,
  port: number,
  options: AzuriteOptions,
): Promise<RunningAzurite> {
  const args = [
    script,
    '--tableHost',
    '127.0.0.1',
    '--tablePort',
    String(port),
    '--location',
    location,
    '--skipApiVersionCheck',
    '--loose',
    '--disableProductStyleUrl',
    '--disableTelemetry',
  ];
  if (options.silent) args.push('--silent');
  const child = superviseChild(
    spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: location }),
    {
      keepLines: OUTPUT_LINES_KEPT,
      echo: options.silent
        ? undefined
        : (text, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(text),
    },
  );

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (!(await accepts(port))) {
    if (child.exited() || Date.now() > deadline) {
      await child.kill();
      const log = child.output.join('\n');
      const taken = /EADDRINUSE|address already in use/i.test(log);
      throw new AppError(
        taken
          ? `Azurite could not listen on 127.0.0.1:${port}: the port is in use.`
          : `Azurite did not start on 127.0.0.1:${port}.${log ? `\nIts last output:\n${log}` : ''}`,
        { code: taken ? 'AzuritePortTaken' : 'AzuriteStartFailed' },
      );
    }
    await delay(100);
  }

  let stopping: Promise<void> | undefined;
  return {
    connectionString: azuriteConnectionString(port),
    port,
    stop() {
      // SIGINT is the signal on which Azurite saves its database and closes.
      stopping ??= child.stop('SIGINT', STOP_GRACE_MS);
      return stopping;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => {
      socket.destroy();
      done(false);
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
