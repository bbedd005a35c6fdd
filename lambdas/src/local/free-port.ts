import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the system picks it). Another process may still
 * take it before the caller binds it, so callers that start a child process retry on failure.
 */
export function freeLoopbackPort(): Promise<number> {
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
