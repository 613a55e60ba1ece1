/**
 * Journaling around the pipeline: every API request answered becomes one {@link JournalEntry}, completed once the
 * response has ended: its real duration, the body bytes delivered and how the body ended (streamed and delayed
 * bodies finish later, through `onDone`). Each entry is announced twice on the gateway's events: `entry` when the
 * request arrives, `entry-done` when its body ended.
 *
 * How a streamed body ended is seen here, in the core, for both adapters alike: the body handed to the adapter is
 * a tracking copy that counts the bytes the adapter took and notes whether the stream was read to its end
 * (`complete`), failed ({@link StreamCut}: `cut`) or was left unfinished when the adapter called `onDone`
 * (`aborted`). A chunk counts as delivered once the adapter comes back for the next one (or the stream ends), so
 * a chunk taken but never written to a client that went away is not counted.
 *
 * @module
 */
import { ChunkedBody, isStreamed } from '../http/body.js';
import { isoWithOffset } from '../clock.js';
import type { Clock } from '../clock.js';
import type { GatewayEvents } from './gateway-events.js';
import type { Journal, JournalEntry, JournalError } from './journal.js';
import type { Pipeline } from '../pipeline.js';
import { redactHeaders, redactQueryParams } from '../http/redact.js';
import { jsonBodyOrUndefined } from '../http/request.js';
import type { CoreBody, CoreRequest, CoreResponse, ResponseOutcome } from '../types.js';

/** Bodies larger than this are not kept in the journal, bytes. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Bytes counted for an entry besides its body and headers (numbers, names of fields, the audio facts). */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * The request body as the journal keeps it, and its size in bytes (its JSON's length): the JSON value, `null`
 * (none or not JSON), or a note when too large. Whatever it keeps serializes (`JSON.stringify` is tried once here;
 * the request reader's depth bound makes a failure unlikely, but a body that fails is kept as a note).
 */
function journaledBody(request: CoreRequest): { body: unknown; bytes: number } {
  const body = request.body;
  if (!body) return { body: null, bytes: 0 };
  if (body.byteLength > JOURNAL_BODY_LIMIT) return { body: `<${body.byteLength} bytes, not kept>`, bytes: 32 };
  const value = jsonBodyOrUndefined(request) ?? null;
  if (value === null || typeof value !== 'object') return { body: value, bytes: body.byteLength };
  try {
    return { body: value, bytes: JSON.stringify(value).length };
  } catch {
    return { body: `<${body.byteLength} bytes, not serializable>`, bytes: 40 };
  }
}

/** The size of a header map as the journal counts it: its names' and values' lengths, bytes (UTF-16 units). */
function headersBytes(headers: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const name in headers) bytes += name.length + headers[name]!.length + 6;
  return bytes;
}

/** Elapsed real time since `started` (a `performance.now()` reading), ms with µs precision. */
function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

const utf8 = new TextEncoder();
const NON_ASCII = /[\u0080-\uffff]/;

/** Bytes of a body of one piece (text as UTF-8), or 0 for none. */
function wholeLength(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  if (typeof body !== 'string') return body.byteLength;
  // Most bodies are ASCII JSON: their length in bytes is their length; only others are encoded to count.
  return NON_ASCII.test(body) ? utf8.encode(body).byteLength : body.length;
}

/**
 * The error envelope of an error answer's body, or `null` when `response` is no error or its body is not an
 * envelope (`{"error":{"code":<number>,"message":<string>,...},...}`).
 */
function errorOf(response: CoreResponse): JournalError | null {
  const body = response.body;
  if (response.status < 400 || body === null || isStreamed(body)) return null;
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const error = (value as { error?: unknown }).error;
  if (error === null || typeof error !== 'object' || Array.isArray(error)) return null;
  const { code, message, metadata = null } = error as { code?: unknown; message?: unknown; metadata?: unknown };
  if (typeof code !== 'number' || typeof message !== 'string') return null;
  const envelope: JournalError = { error: { code, message, metadata } };
  const userId = (value as { user_id?: unknown }).user_id;
  if (typeof userId === 'string') envelope.user_id = userId;
  return envelope;
}

/** What a tracked stream saw of its reader. */
interface Tracking {
  /** Bytes the reader took and came back after (see the module's description). */
  bytes: number;
  /** Bytes of the last chunk handed out, not yet counted. */
  pending: number;
  /** `complete` once read to its end, `cut` once it threw; `undefined` while unfinished. */
  end: 'complete' | 'cut' | undefined;
}

/** Counts the chunk handed out last: the reader came back for more. */
function settle(tracking: Tracking): void {
  tracking.bytes += tracking.pending;
  tracking.pending = 0;
}

/**
 * A {@link ChunkedBody} (cached audio) that tracks its reader, and stays a `ChunkedBody` so adapters keep writing
 * its chunks without awaiting between them.
 */
class TrackedChunkedBody extends ChunkedBody {
  constructor(
    source: ChunkedBody,
    private readonly tracking: Tracking,
  ) {
    super(source.bytes, source.chunkSize, source.durationMs);
  }

  override *chunks(): Generator<Uint8Array> {
    for (const chunk of super.chunks()) {
      settle(this.tracking);
      this.tracking.pending = chunk.byteLength;
      yield chunk;
    }
    settle(this.tracking);
    this.tracking.end = 'complete';
  }
}

/**
 * `body` as handed to the adapter, tracked into `tracking`. An iterator of its own rather than an async generator,
 * so a reader's `return()` reaches the source at once (a generator would wait for a pending `next()`), which stops
 * a render as before.
 */
function tracked(body: AsyncIterable<Uint8Array>, tracking: Tracking): AsyncIterable<Uint8Array> {
  if (body instanceof ChunkedBody) return new TrackedChunkedBody(body, tracking);
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const source = body[Symbol.asyncIterator]();
      return {
        async next() {
          settle(tracking);
          let result: IteratorResult<Uint8Array>;
          try {
            result = await source.next();
          } catch (error) {
            tracking.end = 'cut';
            throw error;
          }
          if (result.done) tracking.end = 'complete';
          else tracking.pending = result.value.byteLength;
          return result;
        },
        return(value?: unknown) {
          return source.return ? source.return(value) : Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

/**
 * Wraps `pipeline` so each request is recorded in `journal` and announced on `events`. The entry's
 * `duration_ms`, `response_bytes` and `body_end` are set when the response is complete: at once for a body of one
 * piece (or a reset) sent without delay, otherwise when the adapter calls the response's `onDone` (which still
 * calls the pipeline's own `onDone`, if any, first); `error` and `audio` at once.
 *
 * @param clock gives the entry's `time` (the simulator's clock, epoch ms).
 */
export function journaled(pipeline: Pipeline, journal: Journal, clock: Clock, events: GatewayEvents): (request: CoreRequest) => CoreResponse {
  return (request) => {
    const started = performance.now();
    const time = clock.now();
    const { response, route, session, applied } = pipeline(request);
    const kept = journaledBody(request);
    const headers = redactHeaders(request.headers);
    const bytes = ENTRY_OVERHEAD_BYTES + kept.bytes + headersBytes(headers) + headersBytes(response.headers) + request.path.length + request.query.length;
    const entry: JournalEntry = journal.record({
      time,
      time_iso: isoWithOffset(time),
      session,
      method: request.method,
      path: request.path,
      query: redactQueryParams(request.query),
      headers,
      body: kept.body,
      operation: route?.operation ?? null,
      scenario: applied?.scenario ?? null,
      rule: applied?.ruleName ?? null,
      status: response.status,
      response_headers: response.headers,
      generation_id: response.headers['X-Generation-Id'] ?? null,
      duration_ms: null,
      response_bytes: null,
      body_end: null,
      error: errorOf(response),
      audio: response.status === 200 ? (response.audio ?? null) : null,
    }, bytes);
    events.emit('entry', () => ({ ...entry }));
    const head = request.method === 'HEAD';
    const finish = (outcome: ResponseOutcome) => {
      if (entry.body_end !== null) return;
      if (outcome.status !== undefined) entry.status = outcome.status;
      entry.duration_ms = elapsedMs(started);
      entry.response_bytes = head ? 0 : outcome.bytes;
      entry.body_end = outcome.end;
      events.emit('entry-done', () => ({ ...entry }));
    };
    const body: CoreBody | null = response.body;
    const whole = (): ResponseOutcome => (response.reset ? { end: 'reset', bytes: 0 } : { end: 'complete', bytes: isStreamed(body) ? 0 : wholeLength(body) });
    if (!isStreamed(body) && !response.delayMs) {
      finish(whole());
      return response;
    }
    let tracking: Tracking | undefined;
    if (isStreamed(body) && !response.reset) {
      tracking = { bytes: 0, pending: 0, end: undefined };
      response.body = tracked(body, tracking);
    }
    const inner = response.onDone;
    response.onDone = (outcome) => {
      inner?.(outcome);
      if (outcome) finish(outcome);
      else if (tracking) finish({ end: tracking.end ?? 'aborted', bytes: tracking.bytes });
      else finish(whole());
    };
    return response;
  };
}
