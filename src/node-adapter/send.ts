/**
 * Writes a core result to Node's `ServerResponse`, with no Fetch objects in between.
 *
 * @module
 */
import { once } from 'node:events';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { isStreamed } from '../core/http/body.js';
import { errorResponse } from '../core/base/error-envelope.js';
import { consoleReporter, describeError, type ErrorReporter } from '../core/base/report-error.js';
import { CUT_GRACE_MS, StreamCut, type CoreResponse, type ResponseOutcome, type StreamedBody } from '../core/base/types.js';
import { splitTarget } from '../core/http/request.js';

/** The host's `setTimeout` when this module loaded (fake timers installed later do not delay a cut). */
const hostSetTimeout = globalThis.setTimeout;

/**
 * Sends `result` to Node's `raw` response (of `node:http`, or of a framework built on it, such as express),
 * with exactly the core's headers, as the MSW handlers send them. Bodies of one piece get a `Content-Length`; streamed bodies are written chunk
 * by chunk (chunked transfer encoding), respecting backpressure. A `delayMs` waits first; a `reset` destroys
 * the socket; a stream that throws ({@link StreamCut}) closes the connection after the bytes sent so far; when the
 * body's `abandoned` signal fires while the client is not reading (a write is waiting for `drain`), the
 * connection is destroyed at once. `onDone` runs exactly once: when the response ends, or when its connection
 * closes (also for a response still queued behind another on a pipelined connection, which never gets its own
 * `close` event); with `{ end: 'aborted', bytes: 0 }` when the connection closed before anything was written
 * (during a delay), else without an outcome (the core saw how the body was read).
 *
 * Never throws, now or later: a result Node cannot send (a header value it refuses) or a body that fails with
 * anything but a {@link StreamCut} is reported once to `report` and ends this request alone: a 500 envelope when
 * nothing was sent yet, else the connection closed; `onDone` then says `cut`.
 */
export function sendResult(raw: ServerResponse, result: CoreResponse, report: ErrorReporter = consoleReporter): void {
  const body = result.body;
  const simple = !result.delayMs && !result.onDone && !isStreamed(body);
  if (simple) {
    write(raw, result, undefined, report);
    return;
  }
  const socket = raw.req.socket;
  const exchange: Exchange = { done: false, started: false, failed: undefined, timer: undefined, stop: undefined, closed: undefined, finish: () => finish() };
  const abandon = isStreamed(body) ? body.abandoned : undefined;
  // A body that gives up on its client (the admin event stream past its queue bound): a client that is not reading
  // cannot be sent anything more, so drop it now rather than at the idle timeout.
  const onAbandon = () => {
    if (raw.writableNeedDrain) raw.destroy();
  };
  const finish = () => {
    if (exchange.done) return;
    exchange.done = true;
    exchange.closed?.abort();
    raw.off('close', finish);
    socket.off('close', finish);
    abandon?.removeEventListener('abort', onAbandon);
    clearTimeout(exchange.timer);
    exchange.stop?.();
    result.onDone?.(exchange.failed ?? (exchange.started ? undefined : { end: 'aborted', bytes: 0 }));
  };
  raw.once('close', finish);
  socket.once('close', finish);
  abandon?.addEventListener('abort', onAbandon, { once: true });
  if (result.delayMs) exchange.timer = setTimeout(() => write(raw, result, exchange, report), result.delayMs);
  else write(raw, result, exchange, report);
}

/** State of one streamed or delayed response. */
interface Exchange {
  /** The response ended or its connection closed. */
  done: boolean;
  /** Writing began (the delay, if any, was over and the connection still open). */
  started: boolean;
  /** How the exchange ended when sending failed on the server's side (reported; see {@link sendResult}). */
  failed: ResponseOutcome | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Stops the body's iterator (set while streaming). */
  stop: (() => void) | undefined;
  /** Aborted when the exchange ends, so a wait for `drain` never outlives the connection; made on first wait. */
  closed: AbortController | undefined;
  /**
   * Ends the exchange now (`onDone`, once): called as the body's last byte or its cut is handed to the socket, so the
   * journal is settled before the client can see the end and ask about it.
   */
  finish: () => void;
}

/** Reason phrases Node lacks: the edge network's 524 and the provider's 529. */
const EXTRA_REASONS: Record<number, string> = { 524: 'A Timeout Occurred', 529: 'Site is overloaded' };

function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? EXTRA_REASONS[status] ?? 'Unknown';
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Statuses whose responses have no body and no `Content-Length` (RFC 9110, sections 8.6 and 15.3.5). */
const NO_CONTENT = new Set([204, 304]);

/**
 * Writes a result whose body is whole (`null`, text or bytes) at once, with its `Content-Length` (none for a 204,
 * such as a CORS preflight, or a 304, which have no body). A streamed body is not written here (see
 * {@link sendResult}).
 */
export function writeResult(raw: ServerResponse, result: CoreResponse): void {
  if (NO_CONTENT.has(result.status)) {
    raw.writeHead(result.status, reasonPhrase(result.status), result.headers);
    raw.end();
    return;
  }
  const body = isStreamed(result.body) ? '' : (result.body ?? '');
  raw.writeHead(result.status, reasonPhrase(result.status), headerList(result.headers, String(byteLength(body))));
  raw.end(body);
}

/**
 * `headers` as the flat `[name, value, ...]` list `writeHead` takes (Node validates each pair as for an object, but
 * skips building its own map: bench/README.md, "Figures once kept in docstrings"), with `Content-Length` last when
 * given (a `Content-Length` of `headers` is then left out, as the spread of an object would have overwritten it).
 */
function headerList(headers: Readonly<Record<string, string>>, contentLength?: string): string[] {
  const list: string[] = [];
  for (const name in headers) {
    if (contentLength !== undefined && name.length === 14 && name.toLowerCase() === 'content-length') continue;
    list.push(name, headers[name]!);
  }
  if (contentLength !== undefined) list.push('Content-Length', contentLength);
  return list;
}

/**
 * A whole result as the bytes of an HTTP/1.1 response that closes the connection, for a socket no
 * `ServerResponse` exists for (a request Node's parser rejected).
 *
 * @param head `true` to send the headers only (the answer to a HEAD request has no body).
 */
export function rawHttpResponse(result: CoreResponse, head: boolean): string {
  const body = isStreamed(result.body) || result.body === null ? '' : Buffer.from(result.body).toString('utf8');
  const headers = Object.entries({ ...result.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${result.status} ${reasonPhrase(result.status)}\r\n${headers}\r\n${head ? '' : body}`;
}

/** The request of `raw` for a report: method and path, without the query (which may carry a credential). */
function where(raw: ServerResponse): string {
  return `${raw.req.method ?? ''} ${splitTarget(raw.req.url ?? '').path}`;
}

/**
 * Ends a request whose sending failed with `error`: reported once, then a 500 envelope when nothing was sent yet,
 * else the connection closed. The exchange's outcome (for `onDone`, so the journal tells what the client got) is
 * the 500 sent whole, or a cut. An answer of one piece sent at once has no `onDone` (its journal entry was complete
 * when made): only a header Node refuses could fail it, and scenarios are checked against that when loaded.
 */
function failed(raw: ServerResponse, result: CoreResponse, exchange: Exchange | undefined, report: ErrorReporter, error: unknown): void {
  report(error, `sending the ${result.status} answer to ${where(raw)}`);
  if (raw.headersSent || raw.destroyed) {
    if (exchange) exchange.failed = { end: 'cut', bytes: 0 };
    raw.destroy();
    return;
  }
  const fallback = errorResponse(500, { metadata: { error_type: 'server', reason: `the answer could not be sent: ${describeError(error)}` } });
  if (exchange) exchange.failed = { end: 'complete', bytes: byteLength(fallback.body as string), status: 500 };
  try {
    writeResult(raw, fallback);
  } catch {
    if (exchange) exchange.failed = { end: 'cut', bytes: 0 };
    raw.destroy();
  }
}

function write(raw: ServerResponse, result: CoreResponse, exchange: Exchange | undefined, report: ErrorReporter): void {
  try {
    writeOnce(raw, result, exchange, report);
  } catch (error) {
    failed(raw, result, exchange, report, error);
  }
}

function writeOnce(raw: ServerResponse, result: CoreResponse, exchange: Exchange | undefined, report: ErrorReporter): void {
  if (raw.destroyed || exchange?.done) return;
  if (exchange) exchange.started = true;
  if (result.reset) {
    raw.socket?.resetAndDestroy?.();
    raw.destroy();
    return;
  }
  const { body } = result;
  if (!isStreamed(body)) {
    writeResult(raw, result);
    return;
  }
  raw.writeHead(result.status, reasonPhrase(result.status), headerList(result.headers));
  const now = body.chunksNow?.();
  if (now) {
    for (const chunk of now) raw.write(chunk);
    raw.end();
    return;
  }
  void pipeIterable(raw, result, body, exchange, report);
}

async function pipeIterable(raw: ServerResponse, result: CoreResponse, body: StreamedBody, exchange: Exchange | undefined, report: ErrorReporter): Promise<void> {
  const abandon = body.abandoned;
  const iterator = body[Symbol.asyncIterator]();
  if (exchange) exchange.stop = () => void iterator.return?.();
  const gone = () => raw.destroyed || exchange?.done === true;
  try {
    for (;;) {
      const { value, done } = await iterator.next();
      if (gone()) return;
      if (done) break;
      // Respect backpressure so a slow client never makes us buffer the whole body.
      if (!raw.write(value)) {
        if (abandon?.aborted) {
          raw.destroy();
          return;
        }
        if (exchange) exchange.closed ??= new AbortController();
        await once(raw, 'drain', { signal: exchange?.closed?.signal }).catch(() => undefined);
      }
    }
    raw.end();
    exchange?.finish();
  } catch (error) {
    // A body that failed by itself (not a scenario's cut: a render that failed) is cut all the same, and reported.
    if (!(error instanceof StreamCut)) report(error, `streaming the ${result.status} answer to ${where(raw)}`);
    exchange?.finish();
    // A cut stream (scenario `audio.truncate`): close the connection once the bytes written so far are flushed,
    // without the final empty chunk, so the client sees a body cut short; CUT_GRACE_MS later, so a browser page
    // has read those bytes before the connection fails (the host's timer: fake timers never hold a cut back).
    hostSetTimeout(() => raw.socket?.end(), CUT_GRACE_MS);
  }
}
