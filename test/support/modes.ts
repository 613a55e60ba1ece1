/**
 * The two ways of running mockrouter, behind one interface, so each contract case runs through both:
 * in-process (msw `setupServer` with the handlers, base `https://openrouter.ai/api/v1`) and standalone
 * (`startServer` on a free port).
 */
import { setupServer } from 'msw/node';
import { createMockRouter, type MockRouterOptions } from '../../src/index.js';
import type { Gateway } from '../../src/core/gateway.js';
import { startServer } from '../../src/server/index.js';

/** A started mock in one mode. */
export interface RunningMode {
  /** The API base to give clients. */
  baseUrl: string;
  gateway: Gateway;
  stop(): Promise<void>;
}

/** One mode. */
export interface Mode {
  name: 'msw' | 'server';
  start(options?: MockRouterOptions): Promise<RunningMode>;
}

export const mswMode: Mode = {
  name: 'msw',
  async start(options) {
    const mock = createMockRouter(options);
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
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
    return { baseUrl: server.baseUrl, gateway: server.gateway, stop: () => server.close() };
  },
};

/** Both modes, for `describe.each(modes)`. */
export const modes: Mode[] = [mswMode, serverMode];

/** A bearer header for `key`. */
export function auth(key = 'sk-test'): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}
