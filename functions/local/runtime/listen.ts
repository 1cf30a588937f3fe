import type { AddressInfo, Server } from 'node:net';

/**
 * Starts a local server listening on `host:port` (port 0 or none: any free port; host
 * default 127.0.0.1) and resolves with the port it got; rejects if listening fails
 * (e.g. EADDRINUSE).
 */
export async function listen(server: Server, port?: number, host?: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, host ?? '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
