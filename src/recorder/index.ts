/**
 * `mockrouter record` as a function: a recording proxy in front of the real gateway (or any
 * mockrouter), writing what comes back into a folder that `--fixtures <dir>` serves (format:
 * `src/core/formats/recording-schema.ts`).
 *
 * @example
 * const recorder = await startRecorder({ upstream: 'https://openrouter.ai', out: 'recorded', port: 0 });
 * // point the client's base URL at recorder.baseUrl (http://127.0.0.1:<port>/api/v1), with its real key
 * await recorder.close(); // every recording is on disk
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../core/http/routes.js';
import { RecordedFolder } from './recorded-folder.js';
import { createRecordingProxy, type RecorderLogger } from './proxy.js';
import { UpstreamError, upstreamOf } from './upstream.js';
import { isOwnAddress, viaName } from './recording-loop.js';
export type { RecorderLogger } from './proxy.js';
export { UpstreamError, upstreamOf, type Upstream } from './upstream.js';
export { FolderBusyError, NotAFolderError } from './folder-lock.js';
export { STOP_DRAIN_MS } from './in-flight.js';

/** Default port of the recorder (the simulator's is 4010). */
export const DEFAULT_RECORD_PORT = 4020;
/** Most bytes of one answer kept for recording (32 MiB); a longer answer is forwarded and not recorded. */
export const DEFAULT_MAX_RECORD_BYTES = 32 * 1024 * 1024;
/** Longest wait for the upstream's answer head, and for each chunk of its body once it started: 30 s. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  /**
   * The gateway to forward to: an `http:` or `https:` origin with an optional path prefix. A request for
   * `/api/v1/x` goes to `<origin><prefix>/api/v1/x`; a prefix ending in `/api/v1` counts without it, so
   * `https://openrouter.ai` and `https://openrouter.ai/api/v1` are the same upstream.
   */
  upstream: string;
  /** The folder to write (created when missing; an existing recording is added to). */
  out: string;
  /** TCP port; 0 picks a free one. Default {@link DEFAULT_RECORD_PORT}. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Where request lines and warnings go; none by default. */
  logger?: RecorderLogger | undefined;
  /** Bytes of one answer kept for recording; default {@link DEFAULT_MAX_RECORD_BYTES}. */
  maxRecordBytes?: number;
  /**
   * Longest wait, ms, for the upstream's answer head (then the client gets a 504 envelope) and for each chunk of
   * its body once it started (then the answer is cut, not recorded); default {@link DEFAULT_UPSTREAM_TIMEOUT_MS}.
   */
  upstreamTimeoutMs?: number;
}

/** A running recorder. */
export interface RunningRecorder {
  /** Origin, e.g. `http://127.0.0.1:4020`. */
  readonly url: string;
  /** The API base to give clients: `<url>/api/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  /** The upstream as forwarded to (`<origin><prefix>`), for messages. */
  readonly upstream: string;
  /**
   * Stops taking connections, lets the answers under way end (at most {@link STOP_DRAIN_MS}, then cuts them), then
   * resolves once every recording is written.
   */
  close(): Promise<void>;
}

/**
 * Starts the recording proxy: takes the lock of `out` (`folder-lock.ts`), reads what it holds, listens, and
 * refuses an upstream that is its own address.
 *
 * @throws {UpstreamError} for a bad `upstream` (see {@link upstreamOf}), or one that connects to the recorder's own
 *   listening address (each request would be forwarded to itself); for a bad `upstreamTimeoutMs`.
 * @throws {FolderBusyError} when another running recorder writes `out` (naming its pid).
 * @throws {NotAFolderError} when `out` is a file. A folder `out` the start made is removed when the start fails.
 * @throws {FixtureError} or {ScenarioError} when a file already in `out` is not valid (naming it).
 * @throws the listen error (EADDRINUSE, ...).
 */
export async function startRecorder(options: RecorderOptions): Promise<RunningRecorder> {
  const upstream = upstreamOf(options.upstream);
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  if (!Number.isSafeInteger(upstreamTimeoutMs) || upstreamTimeoutMs < 1) throw new UpstreamError(`--upstream-timeout: expected a whole number of ms, 1 or more, got ${upstreamTimeoutMs}`);
  const shown = `${upstream.origin}${upstream.prefix}`;
  const logger = options.logger;
  // A folder this start makes is removed again when the start fails and left it empty.
  const made = !existsSync(options.out);
  const folder = await RecordedFolder.open(options.out, shown, { warn: (message) => logger?.warn({}, message) });
  const proxy = createRecordingProxy({ upstream, folder, maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES, upstreamTimeoutMs, via: viaName(), logger });
  const host = options.host ?? '127.0.0.1';
  const close = async () => {
    await proxy.close();
    await folder.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(options.port ?? DEFAULT_RECORD_PORT, host, () => {
        proxy.server.off('error', reject);
        resolve();
      });
    });
    const { address, port } = proxy.server.address() as AddressInfo;
    if (await isOwnAddress(upstream.origin, address, port)) {
      throw new UpstreamError(`--upstream ${shown} is this recorder's own address (it listens on ${host}:${port}): each request would be forwarded to itself; give the gateway's URL`);
    }
  } catch (error) {
    await close();
    if (made) await rmdir(options.out).catch(() => undefined);
    throw error;
  }
  const { port } = proxy.server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  let closed: Promise<void> | undefined;
  return { url, baseUrl: `${url}${API_PREFIX}`, port, upstream: shown, close: () => (closed ??= close()) };
}
