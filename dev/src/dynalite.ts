import type { Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AppError } from '@receipts/core';
import { createTransactionalDynalite } from './dynalite-transactions';

/** Options of {@link startDynalite}. */
export interface DynaliteOptions {
  /** Folder of a LevelDB store that survives restarts; default: in memory. */
  path?: string;
  /** Port on 127.0.0.1; default: a free port. */
  port?: number;
}

/** A running DynamoDB-compatible endpoint. */
export interface RunningDynalite {
  /** `http://127.0.0.1:PORT`, for `new DynamoDBClient({ endpoint })`. */
  endpoint: string;
  port: number;
  /** Stops the server and closes its store. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts dynalite (DynamoDB on LevelDB) in this process on 127.0.0.1, with TransactWriteItems added
 * (see `dynalite-transactions.ts`). Tables become ACTIVE at once, as tests want.
 *
 * @param options - persistence folder and port
 * @returns the endpoint, the port and `stop()`
 * @throws AppError (code `DynalitePortTaken`) when the requested port is in use
 */
export async function startDynalite(options: DynaliteOptions = {}): Promise<RunningDynalite> {
  const path = options.path === undefined ? undefined : resolve(options.path);
  if (path) await mkdir(path, { recursive: true });
  const server = createTransactionalDynalite({
    ...(path ? { path } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  const port = await listen(server, options.port ?? 0);

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop() {
      stopping ??= new Promise<void>((done, fail) => {
        // SDK clients keep connections alive; close them so the server (and its store) can close now.
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      });
      return stopping;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'EADDRINUSE'
          ? new AppError(`dynalite could not listen on 127.0.0.1:${port}: the port is in use.`, {
              code: 'DynalitePortTaken',
              cause: error,
            })
          : error,
      );
    });
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : port);
    });
  });
}
