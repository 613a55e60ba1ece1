/**
 * One entry of the request journal (`journal.ts`): what was asked and answered, credentials redacted, and the
 * filters entries are listed by.
 *
 * @module
 */
import type { Operation } from '../http/routes.js';
import type { BodyEnd, SpeechAudio, TranscriptionFacts } from '../base/types.js';

/**
 * The error envelope of an error answer, as the client received it (parsed from the body).
 *
 * @example { error: { code: 429, message: 'Rate limit exceeded', metadata: { error_type: 'rate_limit_exceeded' } } }
 */
export interface JournalError {
  error: { code: number; message: string; metadata: unknown };
  /** The key's user id, when the gateway sends one (a 402). */
  user_id?: string;
}

/** One journaled request. Times are the simulator's clock; `duration_ms` is real elapsed time. */
export interface JournalEntry {
  /** Sequence number, from 1, unique per gateway. */
  seq: number;
  /** When the request arrived: epoch ms from the gateway's clock. */
  time: number;
  /** `time` as ISO 8601. */
  time_iso: string;
  /**
   * The replica that answered: option `replicaId` (default `<hostname>:<pid>` in Node.js, `browser` in browsers);
   * with a shared store (`docs/scale-out.md`) the journal holds every replica's entries.
   */
  replica: string;
  /**
   * The session (`X-Mock-Session`, else derived from the API key sent: `key-<12 hex of its SHA-256>`, never the key;
   * `no-key` for a request that sent none).
   */
  session: string;
  method: string;
  /** Raw path, no query. */
  path: string;
  /**
   * Query parameters, decoded (a repeated name keeps its last value here; where the API reads one value it answered
   * such a request with a 400, `singleParam` in `request.ts`); credentials' values (`key`, `api_key`,
   * `apikey`, `token`, `access_token`) are `[redacted]` (`redactQueryParams` in `redact.ts`).
   */
  query: Record<string, string>;
  /**
   * Request headers; credentials' values (`authorization`, `proxy-authorization`, `cookie`, `api-key`, `x-api-key`,
   * `x-goog-api-key`, `x-mock-admin-token`, any name ending in `-key`, `-token` or `-secret`) are `Bearer [redacted]`
   * or `[redacted]` (`redactHeaders` in `redact.ts`).
   */
  headers: Record<string, string>;
  /** The JSON body; `null` when there is none or it is not JSON; a note string when over 64 KiB. */
  body: unknown;
  /** The matched operation, or `null` for an unknown path. */
  operation: Operation | null;
  /** Scenario applied (`x-mock-status` for the header), or `null`. */
  scenario: string | null;
  /** Rule applied, or `null`. */
  rule: string | null;
  /** Response status; `0` when the connection was reset without an answer. */
  status: number;
  /** Response headers as the core set them (e.g. `Retry-After`, `X-RateLimit-Reset`, `X-Mock-Applied`); read-only. */
  response_headers: Record<string, string>;
  /** `X-Generation-Id` of the response, if any. */
  generation_id: string | null;
  /** Real time from arrival to the end of the response, ms; `null` while it is still streaming. */
  duration_ms: number | null;
  /**
   * Body bytes delivered to the client: after a scenario's truncation (the bytes before the cut), of a client that
   * went away (the bytes sent before), 0 for a reset or a HEAD request; `null` while it is still streaming.
   */
  response_bytes: number | null;
  /**
   * How the answer ended ({@link BodyEnd}): `complete` (the whole body), `cut` (cut short by a scenario's
   * `audio.truncate`, then a network error; status 200 all the same), `reset` (the connection dropped without an
   * answer, status 0), `aborted` (the client went away mid-body); `null` while it is still streaming.
   */
  body_end: BodyEnd | null;
  /**
   * The parsed error envelope of an error answer (status 400 and above with a JSON envelope body); `null` for
   * successes, resets, and error answers whose body is not an envelope (a scenario's `raw` body, such as the
   * HTML page of `edge-timeout-html`).
   */
  error: JournalError | null;
  /**
   * For a speech answer with status 200 (truncated or not): what its body renders, so the audio can be rendered
   * again (`GET /__mock/requests/<seq>/audio`, `gateway.audioOf(seq)`); `null` otherwise.
   */
  audio: SpeechAudio | null;
  /**
   * For a transcription answer with status 200: what was transcribed (the audio's format, size, hash and length,
   * where the transcript came from, its text); `null` otherwise. Absent in entries made before transcription.
   */
  transcription?: TranscriptionFacts | null;
}

/** Filters of `Journal.list`; every given field must match. */
export interface JournalFilter {
  operation?: Operation | null;
  status?: number;
  session?: string;
}
