/**
 * The ways of running mockrouter, behind one interface, so each contract case runs through all of them:
 * in-process (msw `setupServer` with the handlers, base `https://openrouter.ai/api/v1`), standalone
 * (`startServer` on a free port), and mounted (`createMiddleware` of `mockrouter/express` inside a user's express 4
 * app, on a free port). Beside them, {@link mswMiddlewareMode}: the MSW handlers mounted through
 * `@mswjs/http-middleware`, the msw 2 users' way (not in the lists: it fails under msw 3).
 *
 * Only one mode may run at a time inside one test file: while `setupServer` listens, its handlers (which match
 * `*\/api/v1/...` on any origin) would also answer the requests meant for the other two.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createMiddleware as createMswMiddleware } from '@mswjs/http-middleware';
import express, { type Express } from 'express';
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { createMockRouter, type MockRouterOptions } from '../../src/index.js';
import type { Gateway } from '../../src/core/gateway/gateway.js';
import { startServer } from '../../src/server/index.js';
import { createMiddleware } from '../../src/express/index.js';
import { errorOnUnhandled } from '../../src/msw/compat.js';
import { redisServerBinary } from './redis.js';
import { IN_CI } from './required-tool.js';
import { startReplicas } from './replicas.js';

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
  name: 'msw' | 'server' | 'express' | 'replicas' | 'msw-middleware';
  /** Why this mode cannot run with the installed packages (tests skip it), or `undefined`. */
  unsupported?: string | undefined;
  start(options?: MockRouterOptions): Promise<RunningMode>;
}

/** The installed msw version (the suite also runs with msw 3: scripts/ci-compat.sh). */
export const MSW_VERSION: string = (createRequire(import.meta.url)('msw/package.json') as { version: string }).version;
/** Its major version. */
export const MSW_MAJOR: number = Number(MSW_VERSION.split('.')[0]);

export const mswMode: Mode = {
  name: 'msw',
  async start(options) {
    const mock = createMockRouter(options);
    // attach: without it, under msw 2, a client that cancels a mocked body waits for ever (mswjs/interceptors#799).
    const server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
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
 * The handlers typed for `@mswjs/http-middleware`'s `createMiddleware`. Only a type cast: `@mswjs/http-middleware`
 * is CommonJS, so under NodeNext its signature names msw's CommonJS `RequestHandler` class (`lib/core/*.d.ts`)
 * while an ESM project's handlers have the ESM one (`*.d.mts`); the two declarations are nominally different
 * classes (protected members), though at run time they are the same.
 */
export function asMiddlewareHandlers(handlers: readonly unknown[]): Parameters<typeof createMswMiddleware> {
  return handlers as Parameters<typeof createMswMiddleware>;
}

/** `app` listening on 127.0.0.1 on a free port: its origin, and `close()` (which also ends keep-alive connections). */
export async function listenOnFreePort(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  // No callback: express 5 would hand a listen error to it; without one, express 4 and 5 emit it and once() rejects.
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * The gateway mounted in an express 4 app with `createMiddleware` of `mockrouter/express` (on the core, no msw),
 * as users with their own app mount it, listening on 127.0.0.1 on a free port.
 */
export const expressMode: Mode = {
  name: 'express',
  async start(options) {
    const mock = createMiddleware(options);
    const app = express();
    app.use(mock);
    const server = await listenOnFreePort(app);
    return { baseUrl: `${server.url}/api/v1`, gateway: mock.gateway, stop: server.close };
  },
};

/**
 * The MSW handlers mounted in an express 4 app with `@mswjs/http-middleware`, as msw 2 users mount them
 * (`docs/express.md`), listening on 127.0.0.1 on a free port. Unsupported with msw 3: the middleware (0.10.3)
 * calls msw's `handleRequest`, which msw 3 no longer exports, so every request fails (`handleRequest is not a
 * function`, an unhandled rejection; the client waits for ever).
 */
export const mswMiddlewareMode: Mode = {
  name: 'msw-middleware',
  unsupported:
    MSW_MAJOR >= 3 ? `@mswjs/http-middleware 0.10.3 calls msw's handleRequest, which msw ${MSW_VERSION} does not export` : undefined,
  async start(options) {
    const mock = createMockRouter(options);
    const app = express();
    app.use(createMswMiddleware(...asMiddlewareHandlers(mock.handlers)));
    const server = await listenOnFreePort(app);
    return { baseUrl: `${server.url}/api/v1`, gateway: mock.gateway, stop: server.close };
  },
};

/**
 * Two standalone servers sharing one Valkey/Redis store (a throwaway `redis-server`), behind a round-robin
 * forwarder: every contract case that holds for one server holds across replicas (`test/support/replicas.ts`).
 * `gateway` is the first replica's. Without `redis-server` it is left out locally (`npm test` prints why once) and
 * kept under `CI`, where its start fails and says what to install.
 */
export const replicasMode: Mode = {
  name: 'replicas',
  async start(options) {
    const replicas = await startReplicas(options);
    return { baseUrl: `${replicas.url}/api/v1`, adminUrl: replicas.url, gateway: replicas.servers[0].gateway, stop: () => replicas.stop() };
  },
};

/** The replicas mode when it can run here (`redis-server` found, or under `CI`, where it must). */
const storeModes: Mode[] = redisServerBinary.path !== undefined || IN_CI ? [replicasMode] : [];

/**
 * The modes named in the environment variable `MOCKROUTER_MODES` (comma-separated `msw`, `server`, `express`), or
 * every one of `all` when it is unset or empty; `npm run test:fast` sets `MOCKROUTER_MODES=msw` to run the contract
 * cases in one mode. Throws an `Error` naming the variable when it names no known mode or an unknown one.
 */
export function selectedModes(all: Mode[], env: string | undefined = process.env.MOCKROUTER_MODES): Mode[] {
  if (env === undefined || env.trim() === '') return all;
  const names = env.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const known = [mswMode, serverMode, expressMode, replicasMode].map((mode) => mode.name);
  const unknown = names.filter((name) => !(known as string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`MOCKROUTER_MODES: expected a comma-separated list of ${known.join(', ')}, got ${JSON.stringify(env)}`);
  }
  return all.filter((mode) => names.includes(mode.name));
}

/**
 * The modes: msw, standalone, express with `createMiddleware`, and two replicas on one store where `redis-server`
 * runs (or those of them `MOCKROUTER_MODES` names), for
 * `describe.each(modes)`, or `for (const mode of modes) describe.skipIf(mode.unsupported !== undefined)(...)` in a
 * file that also runs a mode that may be skipped ({@link mswMiddlewareMode}): every contract case runs through each.
 */
export const modes: Mode[] = selectedModes([mswMode, serverMode, expressMode, ...storeModes]);

/**
 * The modes in which the mock is one process: for tests that look inside it (its audio renderer's counters, a fault
 * put into its MP3 encoder), which two replicas would answer half the time without it.
 */
export const singleProcessModes: Mode[] = modes.filter((mode) => mode !== replicasMode);

/** `<title> (<mode>)`, with the reason when the mode is skipped. */
export function modeTitle(title: string, mode: Mode): string {
  return mode.unsupported === undefined ? `${title} (${mode.name})` : `${title} (${mode.name}; skipped: ${mode.unsupported})`;
}

/** A bearer header for `key`. */
export function auth(key = 'sk-test'): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}
