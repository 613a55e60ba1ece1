/**
 * A `node:http` server of a test (a stand-in upstream, a hostile one) listening on a free port of 127.0.0.1.
 *
 * @module
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on 127.0.0.1: its base URL and how to stop it. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Drops every connection (idle or not) and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Starts `server` on a free port of 127.0.0.1 and resolves once it listens.
 *
 * @throws the server's `error` event (as a rejection) when it cannot listen.
 */
export async function listenLocally(server: Server): Promise<LocalServer> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
