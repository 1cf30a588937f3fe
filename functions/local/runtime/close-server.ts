import type { Server } from 'node:http';

/**
 * Stops a local server gracefully: no new connections, idle keep-alive sockets closed at
 * once, requests in flight allowed to finish (so a handler never loses its database under
 * it), and anything still open after `graceMs` cut.
 */
export function closeServer(server: Server, graceMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
