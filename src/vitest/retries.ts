/**
 * Reading the journal as retries: normalizing the accepted inputs, grouping requests into retry chains, and the
 * `Retry-After` a failed response asked for.
 *
 * Definitions used by every verdict:
 *
 * - The **identity** of a request is its session, method, path, query and JSON body (objects compared with
 *   their keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same body).
 * - A request **failed** when its status is 0 (connection reset, no answer) or 400 and above.
 * - A **retry** of request A is the next request B with A's identity (so no other request of that identity in
 *   between), when A failed. A request that follows a success of the same identity is a new call, not a retry.
 * - A **retry chain** is a maximal sequence A1, A2, ... of such requests: every attempt but the last failed, and
 *   each is retried by the next. A request that was never retried is a chain of one.
 *
 * The `openai` SDK also sends `X-Stainless-Retry-Count`; it is not used, because a program that retries with its
 * own loop around a client with `maxRetries: 0` sends `0` on every attempt and is still retrying.
 *
 * @module
 */
import type { JournalEntry } from '../core/journal/journal.js';

/**
 * What the verdicts and matchers accept: a `Journal` (`mock.journal`, anything with `list()` or iterable), a plain
 * `JournalEntry[]`, or the admin API's answer `{ requests: JournalEntry[] }` (`GET /__mock/requests`).
 */
export type JournalInput = Iterable<JournalEntry> | { list(): JournalEntry[] } | { requests: readonly JournalEntry[] };

/** One request and the retries that followed it; see the module's definitions. */
export interface RetryChain {
  /** The attempts in order: `attempts[0]` is the first call, the rest are its retries. All but the last failed. */
  attempts: JournalEntry[];
}

/** A wait a failed response asked for. */
export interface RetryAfter {
  /** The header it came from, as named in messages: `retry-after-ms` or `Retry-After`. */
  header: 'retry-after-ms' | 'Retry-After';
  /** The header's value, verbatim. */
  value: string;
  /** The wait in ms, from the failed request's `time`. */
  ms: number;
}

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'object') return `an object with keys ${Object.keys(input).slice(0, 5).join(', ') || '(none)'}`;
  return typeof input;
}

function checkEntry(value: unknown, index: number): JournalEntry {
  const e = value as Partial<JournalEntry> | null;
  if (
    e === null ||
    typeof e !== 'object' ||
    typeof e.seq !== 'number' ||
    typeof e.time !== 'number' ||
    typeof e.status !== 'number' ||
    typeof e.method !== 'string' ||
    typeof e.path !== 'string'
  ) {
    throw new TypeError(`journal entry ${index}: expected a JournalEntry (seq, time, method, path, status, ...), got ${describeInput(value)}`);
  }
  return e as JournalEntry;
}

/**
 * The entries of `input`, in the order they arrived (by `seq`).
 *
 * @throws {TypeError} when `input` is not a {@link JournalInput} or holds something that is not a journal entry.
 */
export function journalEntries(input: unknown): JournalEntry[] {
  let raw: unknown[];
  if (Array.isArray(input)) raw = input;
  else if (input !== null && typeof input === 'object' && Array.isArray((input as { requests?: unknown }).requests)) {
    raw = (input as { requests: unknown[] }).requests;
  } else if (input !== null && typeof input === 'object' && typeof (input as { list?: unknown }).list === 'function') {
    raw = (input as { list(): unknown[] }).list();
  } else if (input !== null && typeof input === 'object' && Symbol.iterator in input) {
    raw = [...(input as Iterable<unknown>)];
  } else {
    throw new TypeError(
      `expected a Journal (mock.journal), a JournalEntry[] or { requests: JournalEntry[] } (GET /__mock/requests), got ${describeInput(input)}`,
    );
  }
  return raw.map(checkEntry).sort((a, b) => a.seq - b.seq);
}

/** JSON with object keys sorted at every level, so equal bodies give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The identity of a request: session, method, path, query and canonical body. */
export function requestIdentity(entry: JournalEntry): string {
  return canonicalJson([entry.session, entry.method.toUpperCase(), entry.path, entry.query ?? {}, entry.body ?? null]);
}

/**
 * Whether a request failed: status 0 (reset without an answer), 400 and above, or an answer whose body was cut
 * or reset mid-way (`body_end`, e.g. the `truncated-audio` scenario), which a client retries like an error.
 */
export function isFailure(entry: JournalEntry): boolean {
  return entry.status === 0 || entry.status >= 400 || entry.body_end === 'cut' || entry.body_end === 'reset';
}

/**
 * Groups requests into retry chains (see the module's definitions), ordered by their first attempt. Requests that
 * were never retried come back as chains of one.
 */
export function retryChains(entries: readonly JournalEntry[]): RetryChain[] {
  const chains: RetryChain[] = [];
  const open = new Map<string, RetryChain>();
  for (const entry of entries) {
    const identity = requestIdentity(entry);
    let chain = open.get(identity);
    if (chain) chain.attempts.push(entry);
    else {
      chain = { attempts: [entry] };
      chains.push(chain);
    }
    if (isFailure(entry)) open.set(identity, chain);
    else open.delete(identity);
  }
  return chains;
}

/** A header of a journaled response, by case-insensitive name. */
function responseHeader(entry: JournalEntry, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(entry.response_headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * The wait a response asked for before a retry: `retry-after-ms` (ms) when present and valid, else `Retry-After`
 * as seconds (decimals accepted, as the `openai` SDK does) or as an HTTP date (its distance from the request's
 * `time`, at least 0).
 *
 * @returns `undefined` when the response carries neither header or their values cannot be read.
 */
export function retryAfterOf(entry: JournalEntry): RetryAfter | undefined {
  const ms = responseHeader(entry, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return { header: 'retry-after-ms', value: ms, ms: Number(ms) };
  const after = responseHeader(entry, 'retry-after');
  if (after === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return { header: 'Retry-After', value: after, ms: Number(after) * 1000 };
  const date = Date.parse(after);
  return Number.isFinite(date) ? { header: 'Retry-After', value: after, ms: Math.max(0, date - entry.time) } : undefined;
}

/** Time of day (UTC) with ms, from an epoch ms time: `12:00:00.120`. */
export function timeOfDay(time: number): string {
  const date = new Date(time);
  return Number.isFinite(date.getTime()) ? date.toISOString().slice(11, 23) : String(time);
}

/** Path and query of a request as sent: `/api/v1/generation?id=gen-1`. */
export function target(entry: JournalEntry): string {
  const query = new URLSearchParams(entry.query ?? {}).toString();
  return query ? `${entry.path}?${query}` : entry.path;
}

/** A request as messages name it: `#3 POST /api/v1/audio/speech at 12:00:00.120`. */
export function describeRequest(entry: JournalEntry): string {
  return `#${entry.seq} ${entry.method} ${target(entry)} at ${timeOfDay(entry.time)}`;
}

/** A later request of the same identity, shortened: `#4 at 12:00:00.450`. */
export function describeAttempt(entry: JournalEntry): string {
  return `#${entry.seq} at ${timeOfDay(entry.time)}`;
}

/** A duration in ms for messages, rounded to 1 ms. */
export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
