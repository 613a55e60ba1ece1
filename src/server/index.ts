/**
 * Standalone mode: the simulator as an HTTP server (`node:http`), for any language and for CI.
 *
 * @example
 * import { startServer } from 'mockrouter/server';
 * const server = await startServer({ port: 0, seed: 42 });
 * // server.baseUrl === 'http://127.0.0.1:<port>/api/v1'
 * await server.close();
 *
 * @module
 */
import { networkInterfaces } from 'node:os';
import { consoleReporter, describeError, safeReporter, type ErrorReporter } from '../core/base/report-error.js';
import { createGateway, type Gateway } from '../node-platform/create-gateway.js';
import { API_PREFIX } from '../core/http/routes.js';
import { createHttpServer } from './http-server.js';
import { listenAddresses, listenOnAll } from './listen-addresses.js';
import { checkListenOptions } from './listen-options.js';
import type { ServerLogger, ServerOptions } from './server-options.js';
export { SERVER_TIMEOUTS, type ServerTimeouts } from './timeouts.js';
export type { ServerLogger, ServerOptions } from './server-options.js';
export type { AllowedHostsOption, CorsOption, Options } from '../core/gateway/options.js';
// The errors startServer throws, here too so a standalone-only program need not import the package's main entry
// (which imports msw).
export * from '../core/base/errors.js';

/** Default port of the standalone server. */
export const DEFAULT_PORT = 4010;
/** Default host: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Whether `host` binds every interface (`0.0.0.0`, `::`), which exposes the mock to the network. */
export function bindsAllInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** A running standalone server. */
export interface RunningServer {
  /** Origin, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The API base to give clients, e.g. `http://127.0.0.1:4010/api/v1`. */
  readonly baseUrl: string;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** The core simulator behind the server. */
  readonly gateway: Gateway;
  /** Stops listening, closes open connections, then closes the gateway (its store's connections, `Gateway.close`). */
  close(): Promise<void>;
}

/**
 * The addresses a server bound to `host` answers as, for the admin API's Host check: `host` itself, and when it
 * binds every interface, each interface's address (IPv4 and IPv6, as `os.networkInterfaces()` lists them).
 */
export function localHostsOf(host: string): string[] {
  if (!bindsAllInterfaces(host)) return [host];
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
  return [host, ...addresses];
}

/**
 * The reporter of unexpected errors for a server with `logger`: one `error` line (`msg` `unexpected error`, with
 * `where` and `error`, the error's name and message); without a logger, one `console.error` line.
 */
function loggerReporter(logger: ServerLogger | undefined): ErrorReporter {
  if (!logger) return consoleReporter;
  return (error, where) => logger.error({ where, error: describeError(error) }, 'unexpected error');
}

/**
 * Where the shared store's connection changes go (option `onStoreStatus`): the logger's lines (`lost` as an
 * error, `back` as info, each with `store_status`), or without a logger one `console.error`/`console.info` line.
 */
function loggerStoreStatus(logger: ServerLogger | undefined): NonNullable<ServerOptions['onStoreStatus']> {
  return (message, state) => {
    if (!logger) return void (state === 'lost' ? console.error(`mockrouter: ${message}`) : console.info(`mockrouter: ${message}`));
    if (state === 'lost') logger.error({ store_status: state }, message);
    else logger.info({ store_status: state }, message);
  };
}

/**
 * Starts the standalone server. With option `store`, it first waits for the store to answer
 * (`Gateway.connect`), so a server that listens has its state: replicas behind one load balancer never answer
 * before their store does.
 *
 * @returns a promise of the running server, once it listens.
 * @throws (the promise rejects) an error of `src/core/base/errors.ts` (every entry exports them all), each naming the
 *   option or the file and what was expected: `OptionsError` (the options of `createMockRouter`, and `port`,
 *   `host`, `timeouts`, `cors`, `allowedHosts`, `store`, `storePrefix`, `replicaId`), `FixtureError`,
 *   `ScenarioError`, `KeysError`, `StoreConnectError` (no answer from the store within 10 s); or the listen error
 *   (for example `EADDRINUSE`, with `code`). After a rejection nothing listens and the gateway is closed.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const listen = checkListenOptions(options);
  const report = safeReporter(options.onError ?? loggerReporter(options.logger));
  const gateway = createGateway({ onStoreStatus: loggerStoreStatus(options.logger), ...options, onError: report });
  const host = options.host ?? DEFAULT_HOST;
  let listening: Awaited<ReturnType<typeof listenOnAll>>;
  let server: ReturnType<typeof createHttpServer>;
  try {
    if (options.store !== undefined) await gateway.connect();
    server = createHttpServer({ ...options, gateway, report, timeouts: listen.timeouts, localHosts: localHostsOf(host) });
    listening = await listenOnAll(server, listen.port ?? DEFAULT_PORT, await listenAddresses(host));
  } catch (error) {
    // The store's connections would keep the process alive, and retry, after a failed start.
    await gateway.close().catch(() => undefined);
    throw error;
  }
  const { port } = listening;
  // Load the MP3 encoder in the background once the caller has the server (after its ready line), so the first
  // MP3 request does not wait for it; a failure here is reported by the request that needs the encoder.
  setTimeout(() => gateway.warmUp().catch(() => undefined), 0).unref();
  const hostForUrl = host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${hostForUrl}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    port,
    gateway,
    close() {
      closed ??= new Promise<void>((resolve) => {
        // Ends every connection: idle keep-alive ones and those still streaming (their bodies stop, and each
        // answer's journal entry tells how far it got); then waits for the listener to close.
        listening.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => gateway.close());
      return closed;
    },
  };
}
