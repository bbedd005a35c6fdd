import { createServer } from 'node:net';
import { RETRY_LIMITS } from '@receipts/core';
import pRetry from 'p-retry';

/**
 * Ports this process handed out recently. The system may give a closed port again at once, so two
 * children started side by side (two emulators in parallel tests, each with three ports) could be
 * told the same port before either binds it: one's auth port being the other's logging port, say.
 */
const handedOut = new Map<number, number>();
/** How long a handed-out port is not handed out again: long enough for a child to bind it. */
const HELD_MS = 5 * 60 * 1000;

function systemPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? done(port) : fail(new Error('No free port was assigned.'))));
    });
  });
}

/** The system gave a port this process handed out lately. */
class HandedOutError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} was handed out lately.`);
  }
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the system picks it) and that this process has
 * not handed out in the last minutes (asked up to `RETRY_LIMITS.freePortTries` times; the last port
 * is used even so). Another process may still take it before the caller binds it, so callers that
 * start a child process retry on failure.
 */
export async function freeLoopbackPort(): Promise<number> {
  const now = Date.now();
  for (const [port, at] of handedOut) if (now - at > HELD_MS) handedOut.delete(port);
  const port = await pRetry(
    async () => {
      const candidate = await systemPort();
      if (handedOut.has(candidate)) throw new HandedOutError(candidate);
      return candidate;
    },
    {
      retries: RETRY_LIMITS.freePortTries - 1,
      minTimeout: 0,
      shouldRetry: ({ error }) => error instanceof HandedOutError,
    },
  ).catch((error: unknown) => {
    if (error instanceof HandedOutError) return error.port;
    throw error;
  });
  handedOut.set(port, now);
  return port;
}
