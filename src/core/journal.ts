/**
 * The request journal: every API request the simulator answered, bounded (oldest dropped first).
 *
 * @module
 */
import type { Operation } from './routes.js';

/** One journaled request. Times are the simulator's clock; `duration_ms` is real elapsed time. */
export interface JournalEntry {
  /** Sequence number, from 1, unique per gateway. */
  seq: number;
  /** When the request arrived: epoch ms from the gateway's clock. */
  time: number;
  /** `time` as ISO 8601. */
  time_iso: string;
  /** The session (`X-Mock-Session`, else derived from the API key: `key-<12 hex of its SHA-256>`, never the key). */
  session: string;
  method: string;
  /** Raw path, no query. */
  path: string;
  /** Query parameters (last value wins for repeated names). */
  query: Record<string, string>;
  /** Request headers; `authorization`, `cookie`, `x-api-key` and `proxy-authorization` values are redacted. */
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
}

/** Filters of {@link Journal.list}; every given field must match. */
export interface JournalFilter {
  operation?: Operation | null;
  status?: number;
  session?: string;
}

/** Default bound of the journal, in entries. */
export const DEFAULT_JOURNAL_SIZE = 1000;

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

/** Copies headers into a plain object with credentials redacted (`Bearer [redacted]`, `[redacted]`). */
export function redactHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (!REDACTED_HEADERS.has(name)) out[name] = text;
    else out[name] = /^bearer\s/i.test(text) ? 'Bearer [redacted]' : '[redacted]';
  }
  return out;
}

/** A bounded, filterable list of {@link JournalEntry}. Iterable, oldest first. A ring buffer: O(1) per request. */
export class Journal implements Iterable<JournalEntry> {
  readonly #max: number;
  #ring: (JournalEntry | undefined)[] = [];
  /** Index of the oldest entry in {@link #ring} once it is full. */
  #head = 0;
  #seq = 0;

  /** @param max bound in entries (at least 1), default {@link DEFAULT_JOURNAL_SIZE}. */
  constructor(max: number = DEFAULT_JOURNAL_SIZE) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** Adds an entry (its `seq` is assigned here) and returns it; the oldest entry is dropped past the bound. */
  record(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const full = entry as JournalEntry;
    full.seq = ++this.#seq;
    if (this.#ring.length < this.#max) this.#ring.push(full);
    else {
      this.#ring[this.#head] = full;
      this.#head = (this.#head + 1) % this.#max;
    }
    return full;
  }

  /** The entries, oldest first. */
  #ordered(): JournalEntry[] {
    const ring = this.#ring as JournalEntry[];
    return this.#head === 0 ? ring.slice() : [...ring.slice(this.#head), ...ring.slice(0, this.#head)];
  }

  /** Entries matching `filter`, oldest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const all = this.#ordered();
    if (filter.operation === undefined && filter.status === undefined && filter.session === undefined) return all;
    return all.filter(
      (e) =>
        (filter.operation === undefined || e.operation === filter.operation) &&
        (filter.status === undefined || e.status === filter.status) &&
        (filter.session === undefined || e.session === filter.session),
    );
  }

  /** The most recent entry, or `undefined`. */
  last(): JournalEntry | undefined {
    if (this.#ring.length === 0) return undefined;
    return this.#ring[(this.#head + this.#ring.length - 1) % this.#ring.length];
  }

  /** Drops every entry (sequence numbers keep counting). */
  clear(): void {
    this.#ring = [];
    this.#head = 0;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.#ring.length;
  }

  [Symbol.iterator](): Iterator<JournalEntry> {
    return this.#ordered()[Symbol.iterator]();
  }
}
