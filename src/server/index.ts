/**
 * Standalone mode: the simulator as an HTTP server (fastify), for any language and for CI.
 *
 * @example
 * import { startServer } from 'mockrouter/server';
 * const server = await startServer({ port: 0, seed: 42 });
 * // server.baseUrl === 'http://127.0.0.1:<port>/api/v1'
 * await server.close();
 *
 * @module
 */
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import type { AllowedHostsOption } from '../core/admin/hosts.js';
import type { CorsOption } from '../core/http/cors.js';
import { consoleReporter, describeError, safeReporter, type ErrorReporter } from '../core/report-error.js';
import { createGateway, type Gateway, type GatewayOptions } from '../node/create-gateway.js';
import { API_PREFIX } from '../core/http/routes.js';
import { buildApp, type ServerTimeouts } from './app.js';
import { checkListenOptions } from './listen-options.js';
export { SERVER_TIMEOUTS, type ServerTimeouts } from './app.js';
export type { AllowedHostsOption } from '../core/admin/hosts.js';
// The errors startServer throws, here too so a standalone-only program need not import the package's main entry
// (which imports msw).
export { OptionsError } from '../core/config/options.js';
export { ScenarioError } from '../core/scenarios/parse.js';
export { FixtureError } from '../core/config/validate-fixtures.js';
export { ConfigFileError, type ConfigProblem } from '../core/config/validate-config.js';
export { KeysError } from '../core/accounts/accounts.js';

/** Default port of the standalone server. */
export const DEFAULT_PORT = 4010;
/** Default host: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Whether `host` binds every interface (`0.0.0.0`, `::`), which exposes the mock to the network. */
export function bindsAllInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** Options of {@link startServer}: the gateway's options plus where to listen. */
export interface ServerOptions extends GatewayOptions {
  /** TCP port, 0–65,535 (from JavaScript also a string of digits, as `listen()` takes); `0` picks a free one. Default 4010. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Request logger (one line per request); default none. */
  logger?: Logger;
  /**
   * Overrides of the server's timeouts, ms: `headers` (10 s), `request` (30 s, whole request), `idle` (60 s of
   * socket inactivity), `keepAlive` (5 s). Each a whole number from 0 (off) to 2,147,483,647; `headers` at most
   * `request` unless `request` is 0 (as `http.createServer` demands).
   */
  timeouts?: Partial<ServerTimeouts>;
  /** Serve the admin API under `/__mock/`; default `true`. */
  admin?: boolean;
  /**
   * Require this token on admin requests but `GET /__mock/health`: `Authorization: Bearer <token>`,
   * `X-Mock-Admin-Token: <token>`, or the login cookie `mockrouter_admin_<port>` that a browser gets from opening an
   * admin page with `?token=<token>` (e.g. `/__mock/ui?token=...`) or from `POST /__mock/login`.
   */
  adminToken?: string;
  /**
   * Hosts the admin API answers besides `localhost` (and `*.localhost`), `127.0.0.1`, `[::1]` and the bound address
   * (every interface's address when bound to `0.0.0.0` or `::`): a DNS rebinding defense, as Vite's dev server has.
   * Host names, IP addresses, or `.domain` for a domain and its subdomains, as a comma-separated string or a list;
   * `'all'` or `true` turns the check off. Requests with another `Host` get a 403 envelope. Default none.
   *
   * @example ['mockrouter'] // called as http://mockrouter:4010 from another container
   */
  allowedHosts?: AllowedHostsOption;
  /**
   * Which origins may call from a browser (CORS): `*`, the default, lets any origin call the API (as the gateway
   * does) but not the admin API; origins `scheme://host[:port]` (a comma-separated string or a list, e.g.
   * `['http://localhost:5173']`) may call the API and the admin API, others may not. `*` and origins may be mixed.
   */
  cors?: CorsOption;
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
  /** Stops listening and closes open connections. */
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
function loggerReporter(logger: Logger | undefined): ErrorReporter {
  if (!logger) return consoleReporter;
  return (error, where) => logger.error({ where, error: describeError(error) }, 'unexpected error');
}

/**
 * Starts the standalone server.
 *
 * @returns a promise of the running server, once it listens.
 * @throws (the promise rejects) {FixtureError}, {ScenarioError} or {KeysError} for a bad fixtures, scenario or keys
 *   file; `OptionsError` for a bad option: `port` not a whole number 0–65,535, `host` not a string, `timeouts`
 *   with an unknown key, a value not whole ms from 0 to 2,147,483,647 or `headers` above `request`, `cors` not `*`
 *   or `scheme://host[:port]` origins, `allowedHosts` an entry that is no host, and those of `createMockRouter`;
 *   the listen error (for example `EADDRINUSE`, with `code`) when the port cannot be bound.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const listen = checkListenOptions(options);
  const report = safeReporter(options.onError ?? loggerReporter(options.logger));
  const gateway = createGateway({ ...options, onError: report });
  const host = options.host ?? DEFAULT_HOST;
  const app = buildApp({
    gateway,
    report,
    logger: options.logger,
    admin: options.admin,
    adminToken: options.adminToken,
    timeouts: listen.timeouts,
    cors: options.cors,
    allowedHosts: options.allowedHosts,
    localHosts: localHostsOf(host),
  });
  await app.listen({ port: listen.port ?? DEFAULT_PORT, host });
  const { port } = app.server.address() as AddressInfo;
  // Load the MP3 encoder in the background once the caller has the server (after its ready line), so the first
  // MP3 request does not wait for it; a failure here is reported by the request that needs the encoder.
  setTimeout(() => gateway.warmUp().catch(() => undefined), 0).unref();
  const hostForUrl = host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${hostForUrl}:${port}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    port,
    gateway,
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
