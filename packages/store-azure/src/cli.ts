import { pathToFileURL } from 'node:url';
import { AppError, type Logger } from '@receipts/core';
import { ACCESS_LEVELS, TABLE_ACCESS_LEVELS, type TableAccessLevel } from './access-levels';
import { AzureTableStore } from './azure-table-store';
import { azuriteConnectionString } from './connection-string';
import { resetTables, setupTables } from './setup';
import { createTableAccess } from './table-access';

/** Where the command reads its settings and writes its output. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  logger?: Logger;
}

/** Days the signatures of `tables access` work by default. */
export const ACCESS_DAYS = 180;

const USAGE = [
  'Usage: tables setup          create the required tables (checks each with a sample row)',
  '       tables reset --yes    delete every table except Users',
  `       tables access LEVEL [--days N]  print the per-table signatures of an access level as JSON, for its secret (default ${ACCESS_DAYS} days)`,
  `         levels: ${TABLE_ACCESS_LEVELS.map((level) => `${level} (${ACCESS_LEVELS[level].description})`).join('; ')}`,
  'The connection string comes from AZURE_TABLES_CONNECTION_STRING (default: Azurite on 127.0.0.1:10002).',
].join('\n');

/**
 * The `npm run tables:setup` / `npm run tables:reset -- --yes` / `npm run tables:access -- LEVEL`
 * command.
 * @param args - `setup`, `reset` with `--yes`, or `access` with a level and optionally `--days N`
 * @param io - environment and output (the process's by default)
 * @returns the exit code: 0 done, 1 failed, 2 refused or misused
 */
export async function runCli(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...flags] = args;
  if (command === 'access') return printAccess(flags, io);
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
  const logger = io.logger ?? terminalLogger(io.err);
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

/** `tables access LEVEL [--days N]`: the signatures of a level, made with the account key. */
function printAccess(flags: readonly string[], io: CliIo): number {
  const [level, option, value, ...rest] = flags;
  const days = option === undefined ? ACCESS_DAYS : Number(value);
  if (
    !TABLE_ACCESS_LEVELS.includes(level as TableAccessLevel) ||
    (option !== undefined && option !== '--days') ||
    !Number.isInteger(days) ||
    days < 1 ||
    rest.length > 0
  ) {
    io.err(`Give an access level and optionally --days N (a whole number of days).\n${USAGE}`);
    return 2;
  }
  try {
    const connectionString = io.env.AZURE_TABLES_CONNECTION_STRING || azuriteConnectionString();
    const expiresOn = new Date(Date.now() + days * 86_400_000);
    io.out(JSON.stringify(createTableAccess(connectionString, level as TableAccessLevel, expiresOn)));
    return 0;
  } catch (error) {
    io.err(error instanceof AppError ? error.message : `Unexpected failure: ${String(error)}`);
    return 1;
  }
}

/** Notes for the person at the terminal, one line each: `info: Table already exists… {"table":"Items"}`. */
function terminalLogger(write: (line: string) => void): Logger {
  const note = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    write(`${level}: ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  return { debug() {}, info: note('info'), warn: note('warn'), error: note('error') };
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
