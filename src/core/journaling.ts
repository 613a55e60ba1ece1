/**
 * Journaling around the pipeline: every API request answered becomes one {@link JournalEntry}, with its real
 * duration once the response is fully sent (streamed and delayed bodies finish later, through `onDone`).
 *
 * @module
 */
import { isStreamed } from './body.js';
import { isoWithOffset } from './clock.js';
import type { Clock } from './clock.js';
import { redactHeaders, type Journal, type JournalEntry } from './journal.js';
import type { Pipeline } from './pipeline.js';
import { jsonBodyOrUndefined } from './request.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Bodies larger than this are not kept in the journal, bytes. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

/** The request body as the journal keeps it: the JSON value, `null` (none or not JSON), or a note when too large. */
function journaledBody(request: CoreRequest): unknown {
  const body = request.body;
  if (!body) return null;
  if (body.byteLength > JOURNAL_BODY_LIMIT) return `<${body.byteLength} bytes, not kept>`;
  return jsonBodyOrUndefined(request) ?? null;
}

function queryRecord(query: string): Record<string, string> {
  return query ? Object.fromEntries(new URLSearchParams(query)) : {};
}

/** Elapsed real time since `started` (a `performance.now()` reading), ms with µs precision. */
function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/**
 * Wraps `pipeline` so each request is recorded in `journal`. The entry's `duration_ms` is set when the response
 * is complete: at once for a whole body, otherwise when the adapter calls the response's `onDone` (which still
 * calls the pipeline's own `onDone`, if any, first).
 *
 * @param clock gives the entry's `time` (the simulator's clock, epoch ms).
 */
export function journaled(pipeline: Pipeline, journal: Journal, clock: Clock): (request: CoreRequest) => CoreResponse {
  return (request) => {
    const started = performance.now();
    const time = clock.now();
    const { response, route, session, applied } = pipeline(request);
    const entry: JournalEntry = journal.record({
      time,
      time_iso: isoWithOffset(time),
      session,
      method: request.method,
      path: request.path,
      query: queryRecord(request.query),
      headers: redactHeaders(request.headers),
      body: journaledBody(request),
      operation: route?.operation ?? null,
      scenario: applied?.scenario ?? null,
      rule: applied?.ruleName ?? null,
      status: response.status,
      response_headers: response.headers,
      generation_id: response.headers['X-Generation-Id'] ?? null,
      duration_ms: null,
    });
    if (!isStreamed(response.body) && !response.delayMs) {
      entry.duration_ms = elapsedMs(started);
      return response;
    }
    const inner = response.onDone;
    response.onDone = () => {
      inner?.();
      entry.duration_ms = elapsedMs(started);
    };
    return response;
  };
}
