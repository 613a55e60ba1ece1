/**
 * The ways of running mockrouter, behind one interface, so each contract case runs through all of them:
 * in-process (msw `setupServer` with the handlers, base `https://openrouter.ai/api/v1`), standalone
 * (`startServer` on a free port), and mounted (the MSW handlers inside a user's express 4 app through
 * `@mswjs/http-middleware`, on a free port).
 *
 * Only one mode may run at a time inside one test file: while `setupServer` listens, its handlers (which match
 * `*\/api/v1/...` on any origin) would also answer the requests meant for the other two.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMiddleware } from '@mswjs/http-middleware';
import express from 'express';
import { setupServer, type SetupServerApi } from 'msw/node';
import { createMockRouter, type MockRouterOptions } from '../../src/index.js';
import type { Gateway } from '../../src/core/gateway.js';
import { startServer } from '../../src/server/index.js';

/** A started mock in one mode. */
export interface RunningMode {
  /** The API base to give clients. */
  baseUrl: string;
  /** The origin serving the admin API (`/__mock/`): only the standalone server has one. */
  adminUrl?: string | undefined;
  gateway: Gateway;
  stop(): Promise<void>;
}

/** One mode. */
export interface Mode {
  name: 'msw' | 'server' | 'express';
  start(options?: MockRouterOptions): Promise<RunningMode>;
}

/**
 * Works around mswjs/interceptors#799 / #712 (msw 2.15.0 ships `@mswjs/interceptors` 0.41.9; fixed upstream by
 * mswjs/interceptors#833): msw clones (tees) every mocked response for its `response:mocked` event and never
 * reads the clone, and a tee's `cancel()` settles only once both branches are cancelled. So cancelling a mocked
 * body never settles: the `openai` client awaits exactly that before each retry and hangs for ever, and a client
 * that cancels a stream never reaches the handler's stream. Cancelling msw's clone as soon as it is emitted
 * lets both work. Harmless once msw is fixed.
 */
export function releaseMswClones(server: SetupServerApi): void {
  server.events.on('response:mocked', ({ response }) => {
    void response.body?.cancel().catch(() => undefined);
  });
}

export const mswMode: Mode = {
  name: 'msw',
  async start(options) {
    const mock = createMockRouter(options);
    const server = mock.attach(setupServer(...mock.handlers));
    server.listen({ onUnhandledRequest: 'error' });
    releaseMswClones(server);
    return {
      baseUrl: 'https://openrouter.ai/api/v1',
      gateway: mock.gateway,
      async stop() {
        server.close();
      },
    };
  },
};

export const serverMode: Mode = {
  name: 'server',
  async start(options) {
    const server = await startServer({ ...options, port: 0 });
    return { baseUrl: server.baseUrl, adminUrl: server.url, gateway: server.gateway, stop: () => server.close() };
  },
};

/**
 * The MSW handlers mounted in an express 4 app with `@mswjs/http-middleware`, as users with their own app
 * mount them, listening on 127.0.0.1 on a free port.
 */
export const expressMode: Mode = {
  name: 'express',
  async start(options) {
    const mock = createMockRouter(options);
    const app = express();
    app.use(createMiddleware(...mock.handlers));
    const server = await new Promise<Server>((resolve, reject) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
      listening.once('error', reject);
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      gateway: mock.gateway,
      stop: () =>
        new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        }),
    };
  },
};

/** msw and standalone, for `describe.each(modes)`. */
export const modes: Mode[] = [mswMode, serverMode];

/** All three modes: msw, standalone, express with `@mswjs/http-middleware`. */
export const allModes: Mode[] = [mswMode, serverMode, expressMode];

/** A bearer header for `key`. */
export function auth(key = 'sk-test'): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}
