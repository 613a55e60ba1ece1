/**
 * `localhost` is listened on at every address it resolves to (`src/server/listen-addresses.ts`), as the server did
 * on fastify: a client that reaches it over IPv4 or IPv6 gets the same server. This machine's `localhost` may
 * resolve to one address only, so the two-address case is driven through `listenOnAll` with both loopbacks.
 */
import { createServer as createNetServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { createHttpServer } from '../src/server/http-server.js';
import { listenAddresses, listenOnAll } from '../src/server/listen-addresses.js';
import { startServer } from '../src/server/index.js';
import { auth } from './support/modes.js';

/** Whether this machine can listen on `::1` (IPv6 loopback). */
async function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '::1', port: 0 }, () => probe.close(() => resolve(true)));
  });
}

describe('listen addresses', () => {
  it('localhost: every address it resolves to, once, in order; any other host as given', async () => {
    const both = async () => [{ address: '::1' }, { address: '127.0.0.1' }, { address: '::1' }];
    expect(await listenAddresses('localhost', both)).toEqual(['::1', '127.0.0.1']);
    expect(await listenAddresses('localhost', async () => [])).toEqual(['localhost']);
    expect(await listenAddresses('127.0.0.1', both)).toEqual(['127.0.0.1']);
    expect(await listenAddresses('0.0.0.0', both)).toEqual(['0.0.0.0']);
  });

  it('one server on 127.0.0.1 and ::1, same port: both answer, and close stops both', async (context) => {
    if (!(await hasIpv6Loopback())) {
      console.warn('listen-addresses: no IPv6 loopback on this machine; the two-address case is skipped');
      context.skip();
    }
    const server = createHttpServer({ gateway: createGateway({ seed: 1 }) });
    const listening = await listenOnAll(server, 0, ['127.0.0.1', '::1']);
    try {
      for (const host of ['127.0.0.1', '[::1]']) {
        const response = await fetch(`http://${host}:${listening.port}/api/v1/models/count`, { headers: auth() });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ data: { count: expect.any(Number) } });
      }
    } finally {
      listening.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await expect(fetch(`http://[::1]:${listening.port}/api/v1/models/count`)).rejects.toThrow();
  });

  it('startServer with host localhost answers on the loopback localhost resolves to', async () => {
    const server = await startServer({ port: 0, host: 'localhost' });
    try {
      expect(server.url).toBe(`http://localhost:${server.port}`);
      const [first] = await listenAddresses('localhost');
      const host = first!.includes(':') ? `[${first}]` : first;
      const response = await fetch(`http://${host}:${server.port}/api/v1/models/count`, { headers: auth() });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
