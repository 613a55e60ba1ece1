/**
 * Where the standalone server listens: `localhost` on every address it resolves to (`127.0.0.1` and `::1` where
 * both are listed), as the server did on fastify; Node's own `listen({ host: 'localhost' })` takes only the first,
 * so a client that tries the other family first (and does not fall back) would not connect. Any other host is
 * listened on as given.
 *
 * @module
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { Server } from 'node:http';

/** Resolves a host name to all its addresses (`dns.promises.lookup` with `{ all: true }` by default). */
export type LookupAll = (host: string) => Promise<readonly { address: string }[]>;

const lookupAll: LookupAll = (host) => dnsLookup(host, { all: true });

/**
 * The addresses to listen on for `host`: for `localhost`, each address it resolves to, once, in the resolver's
 * order (the name itself when it resolves to none); otherwise `[host]`.
 */
export async function listenAddresses(host: string, lookup: LookupAll = lookupAll): Promise<string[]> {
  if (host !== 'localhost') return [host];
  const found = [...new Set((await lookup(host)).map((entry) => entry.address))];
  return found.length > 0 ? found : [host];
}

/** Errors of an extra address that mean this machine has no such address: that address is left out. */
const ABSENT_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** Listens `server` on `port` of `host`; rejects with the listen error (`EADDRINUSE`, ...). */
function listenOne(server: Server | NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Listens `server` on `port` (0: a free one) of the first address, then on the same port of each other address
 * through a plain TCP listener that hands its connections to `server` (so every address gets the same timeouts,
 * handler and `closeAllConnections`). An extra address the machine does not have is left out.
 *
 * @returns the port listened on, and `close()` that stops the extra listeners (close `server` itself as usual).
 * @throws (the promise rejects) the listen error of the first address, or of another one (for example
 *   `EADDRINUSE`, with `code`), after stopping what was already listening.
 */
export async function listenOnAll(server: Server, port: number, addresses: readonly string[]): Promise<{ port: number; close(): void }> {
  const [first = 'localhost', ...others] = addresses;
  await listenOne(server, port, first);
  const bound = (server.address() as { port: number }).port;
  const extra: NetServer[] = [];
  const close = () => {
    for (const listener of extra) listener.close();
  };
  for (const address of others) {
    const listener = createNetServer((socket) => server.emit('connection', socket));
    try {
      await listenOne(listener, bound, address);
      extra.push(listener);
    } catch (error) {
      if (ABSENT_ADDRESS.has((error as NodeJS.ErrnoException).code ?? '')) continue;
      close();
      server.close();
      throw error;
    }
  }
  return { port: bound, close };
}
