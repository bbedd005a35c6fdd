import { createServer } from 'node:net';

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

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the system picks it) and that this process has
 * not handed out in the last minutes. Another process may still take it before the caller binds it,
 * so callers that start a child process retry on failure.
 */
export async function freeLoopbackPort(): Promise<number> {
  const now = Date.now();
  for (const [port, at] of handedOut) if (now - at > HELD_MS) handedOut.delete(port);
  for (let attempt = 0; ; attempt++) {
    const port = await systemPort();
    if (!handedOut.has(port) || attempt >= 20) {
      handedOut.set(port, now);
      return port;
    }
  }
}
