/**
 * Journaling around the pipeline: every API request answered becomes one {@link JournalEntry}, completed once the
 * response has ended: its real duration, the body bytes delivered and how the body ended (streamed and delayed
 * bodies finish later, through `onDone`). Each entry is announced twice on the gateway's events: `entry` when the
 * request arrives, `entry-done` when its body ended.
 *
 * How a streamed body ended is seen here, in the core, for every adapter alike: the body handed to the adapter is
 * a tracking copy (`trackReading` of `http/body.ts`) that counts the bytes the adapter took and notes whether the
 * stream was read to its end (`complete`), failed (a `StreamCut`: `cut`) or was left unfinished when the adapter
 * called `onDone` (`aborted`).
 *
 * @module
 */
import { isStreamed, trackReading } from '../http/body.js';
import { isoWithOffset } from '../base/clock.js';
import type { Clock } from '../base/clock.js';
import type { GatewayEvents } from '../journal/gateway-events.js';
import { JOURNAL_BODY_LIMIT, type JournalEntry, type JournalError } from '../journal/journal.js';
import type { Answered, Pipeline } from './pipeline.js';
import { redactHeaders, redactQueryParams } from '../http/redact.js';
import { jsonBodyOrUndefined } from '../http/request.js';
import { andThen, type CoreRequest, type CoreResponse, type MaybePromise, type ResponseOutcome } from '../base/types.js';


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

/**
 * Where the gateway writes its entries: its own journal, and with a shared store the store's first
 * (`journalSinkOf` of `journal-sink.ts`). Unlike the store's `StoreJournal`, it never fails: `record` gives the
 * entry back with its `seq`, or `undefined` when it could not be recorded (a store away: the answer goes out all
 * the same, unjournaled); `finish` is told when the entry's answer ended.
 */
export interface JournalSink {
  record(entry: Omit<JournalEntry, 'seq'>, bytes: number): MaybePromise<JournalEntry | undefined>;
  finish(entry: JournalEntry): void;
}

/**
 * Wraps `pipeline` so each request is recorded in `sink` and announced on `events`, once the pipeline has
 * answered (the entry's `time` is the clock's then: as the request arrived, unless the answer waited on a shared
 * store). The entry's `duration_ms`, `response_bytes` and `body_end` are set when the response is complete: at
 * once for a body of one piece (or a reset) sent without delay (the pipeline's response is then the answer as it
 * is), otherwise when the adapter calls `onDone` of the response answered, a new one with a tracked copy of a
 * streamed body (its `onDone` calls the pipeline's own, if any, first); `error` and `audio` (the pipeline's
 * answer's, for a 200) at once, `audio` completed when the body ends where the answer says how (`audioEnded`: the
 * length of speech with words).
 *
 * @param clock gives the entry's `time` (the simulator's clock, epoch ms).
 * @param replica the entry's `replica`.
 * @returns the answer function: the response at once when nothing had to wait, else a promise of it. It throws (or
 *   rejects) only when the journal or an event listener fails outside their own guards (the gateway's `isolated`
 *   answers that with the 500 envelope).
 */
export function journaled(pipeline: Pipeline, sink: JournalSink, clock: Clock, events: GatewayEvents, replica: string): (request: CoreRequest) => MaybePromise<CoreResponse> {
  return (request) => {
    const started = performance.now();
    return andThen(pipeline(request), (answered) => record(request, answered, started));
  };

  /** The entry of `request`, answered as `answered`, recorded and announced; the response the adapter gets. */
  function record(request: CoreRequest, answered: Answered, started: number): MaybePromise<CoreResponse> {
    const { response, route, session, applied, audio, audioEnded, transcription } = answered;
    const time = clock.now();
    const kept = answered.requestBody === undefined ? journaledBody(request) : { body: answered.requestBody, bytes: JSON.stringify(answered.requestBody).length };
    const headers = redactHeaders(request.headers);
    const bytes = ENTRY_OVERHEAD_BYTES + kept.bytes + headersBytes(headers) + headersBytes(response.headers) + request.path.length + request.query.length;
    // An answer of one piece sent without delay is complete now: its entry is recorded whole, in one write.
    const now = !isStreamed(response.body) && !response.delayMs ? outcomeOf(request, response) : undefined;
    const recorded = sink.record(
      {
        time,
        time_iso: isoWithOffset(time),
        replica,
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
        duration_ms: now ? elapsedMs(started) : null,
        response_bytes: now ? now.bytes : null,
        body_end: now ? now.end : null,
        error: errorOf(response),
        audio: response.status === 200 ? (audio ?? null) : null,
        transcription: response.status === 200 ? (transcription ?? null) : null,
      },
      bytes,
    );
    return andThen(recorded, (entry) => (entry ? track(request, response, entry, started, audioEnded) : response));
  }

  /**
   * Announces `entry` and answers `response`, completing the entry when its body ends (with `audioEnded`, its
   * `audio` too: the length of words, known once said).
   */
  function track(request: CoreRequest, response: CoreResponse, entry: JournalEntry, started: number, audioEnded: Answered['audioEnded']): CoreResponse {
    events.emit('entry', () => ({ ...entry }));
    const head = request.method === 'HEAD';
    const finish = (outcome: ResponseOutcome) => {
      if (entry.body_end !== null) return;
      if (outcome.status !== undefined) entry.status = outcome.status;
      entry.duration_ms = elapsedMs(started);
      entry.response_bytes = head ? 0 : outcome.bytes;
      entry.body_end = outcome.end;
      const ended = entry.audio && audioEnded?.();
      if (entry.audio && ended) entry.audio = { ...entry.audio, ...ended };
      sink.finish(entry);
      events.emit('entry-done', () => ({ ...entry }));
    };
    if (entry.body_end !== null) {
      events.emit('entry-done', () => ({ ...entry }));
      return response;
    }
    const body = response.body;
    const tracked = isStreamed(body) && !response.reset ? trackReading(body) : undefined;
    const inner = response.onDone;
    const onDone = (outcome?: ResponseOutcome) => {
      inner?.(outcome);
      if (outcome) finish(outcome);
      else if (tracked) finish({ end: tracked.reading.end ?? 'aborted', bytes: tracked.reading.bytes });
      else finish(outcomeOf(request, response));
    };
    return { ...response, body: tracked?.body ?? body, onDone };
  }
}

/** How `response` ends when the adapter sends it whole: reset, or complete with its body's bytes (0 for HEAD). */
function outcomeOf(request: CoreRequest, response: CoreResponse): ResponseOutcome {
  if (response.reset) return { end: 'reset', bytes: 0 };
  const body = response.body;
  return { end: 'complete', bytes: request.method === 'HEAD' || isStreamed(body) ? 0 : wholeLength(body) };
}
