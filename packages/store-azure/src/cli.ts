import { pathToFileURL } from 'node:url';
import { AppError, createJsonLogger, type Logger } from '@receipts/core';
import { AzureTableStore } from './azure-table-store';
import { azuriteConnectionString } from './connection-string';
import { resetTables, setupTables } from './setup';

/** Where the command reads its settings and writes its output. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  logger?: Logger;
}

const USAGE = [
  'Usage: tables setup          create the required tables (checks each with a sample row)',
  '       tables reset --yes    delete every table except Users',
  'The connection string comes from AZURE_TABLES_CONNECTION_STRING (default: Azurite on 127.0.0.1:10002).',
].join('\n');

/**
 * The `npm run tables:setup` / `npm run tables:reset -- --yes` command.
 * @param args - `setup`, or `reset` with `--yes`
 * @param io - environment and output (the process's by default)
 * @returns the exit code: 0 done, 1 failed, 2 refused or misused
 */
export async function runCli(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...flags] = args;
  const unknown = flags.filter((flag) => flag !== '--yes');
  if ((command !== 'setup' && command !== 'reset') || unknown.length > 0) {
    io.err(
      command === undefined
        ? USAGE
        : `Unknown ${unknown.length > 0 ? 'option' : 'command'}: ${unknown[0] ?? command}\n${USAGE}`,
    );
    return 2;
  }
  if (command === 'reset' && !flags.includes('--yes')) {
    io.err(
      'Refusing to reset without --yes: this deletes every table except Users, with all their rows.\n' +
        'Run: npm run tables:reset -- --yes',
    );
    return 2;
  }
  const logger = io.logger ?? createJsonLogger('info', (line) => io.err(line));
  try {
    const connectionString = io.env.AZURE_TABLES_CONNECTION_STRING || azuriteConnectionString();
    const store = AzureTableStore.fromConnectionString(connectionString, { logger });
    if (command === 'setup') {
      const outcomes = await setupTables(store, logger);
      for (const outcome of outcomes)
        io.out(`${outcome.table}: ${outcome.ok ? 'ready' : `FAILED - ${outcome.error}`}`);
      return outcomes.every((outcome) => outcome.ok) ? 0 : 1;
    }
    const deleted = await resetTables(store, logger);
    io.out(
      deleted.length === 0 ? 'No table to delete; Users kept.' : `Deleted ${deleted.join(', ')}; Users kept.`,
    );
    return 0;
  } catch (error) {
    io.err(error instanceof AppError ? error.message : `Unexpected failure: ${String(error)}`);
    return 1;
  }
}

function processIo(): CliIo {
  return {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runCli(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
