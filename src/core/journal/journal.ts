/**
 * The request journal: every API request the simulator answered, bounded (oldest dropped first).
 *
 * @module
 */
import type { JournalEntry, JournalFilter } from './journal-entry.js';

export type { BodyEnd, SpeechAudio, TranscriptionFacts, WordsFacts } from '../base/types.js';
export type { JournalEntry, JournalError, JournalFilter } from './journal-entry.js';

/** Default bound of the journal, in entries. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** Request bodies larger than this are not kept in an entry (a note stands for them), bytes. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Default page size of {@link Journal.after}, in entries. */
export const DEFAULT_PAGE_SIZE = 100;

function isEmpty(filter: JournalFilter): boolean {
  return filter.operation === undefined && filter.status === undefined && filter.session === undefined;
}

function matches(e: JournalEntry, filter: JournalFilter): boolean {
  return (
    (filter.operation === undefined || e.operation === filter.operation) &&
    (filter.status === undefined || e.status === filter.status) &&
    (filter.session === undefined || e.session === filter.session)
  );
}

/** Default bound of the journal's kept entries together, in bytes of their JSON (32 MiB). */
export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

/**
 * A bounded, filterable list of {@link JournalEntry}. Iterable, oldest first. A ring buffer: O(1) per request.
 * Bounded twice: by entries and by bytes (each entry's size as its recorder measured it, see {@link record}); past
 * either bound the oldest entries are dropped first, the newest always kept.
 */
export class Journal implements Iterable<JournalEntry> {
  readonly #max: number;
  readonly #maxBytes: number;
  /** The kept entries: `#count` of them from `#head` on, wrapping around; grows up to `#max` slots. */
  #ring: (JournalEntry | undefined)[] = [];
  /** The size of the entry in the same slot of {@link #ring}, bytes. */
  #sizes: number[] = [];
  /** Index of the oldest entry in {@link #ring}. */
  #head = 0;
  #count = 0;
  #bytes = 0;
  #seq = 0;
  /** Whether sequence numbers were given (with gaps): entries are then found by search, not arithmetic. */
  #gaps = false;
  readonly #onClear: (() => void) | undefined;

  /**
   * @param max bound in entries (at least 1), default {@link DEFAULT_JOURNAL_SIZE}.
   * @param onClear called after every {@link clear} (the gateway's `journal-cleared` event).
   * @param maxBytes bound of the kept entries' sizes together, bytes, default {@link DEFAULT_JOURNAL_BYTES}.
   */
  constructor(max: number = DEFAULT_JOURNAL_SIZE, onClear?: () => void, maxBytes: number = DEFAULT_JOURNAL_BYTES) {
    this.#max = Math.max(1, Math.floor(max));
    this.#maxBytes = maxBytes;
    this.#onClear = onClear;
  }

  /**
   * Adds an entry (its `seq` is assigned here) and returns it; the oldest entries are dropped past either bound.
   *
   * @param bytes the entry's size, bytes (its JSON's length as the recorder measured it; default 0).
   * @param seq the entry's sequence number when a shared store gave it out (`store/types.ts`): ascending, with gaps
   *   where other replicas took numbers; default the next one of this journal.
   */
  record(entry: Omit<JournalEntry, 'seq'>, bytes: number = 0, seq?: number): JournalEntry {
    const full = entry as JournalEntry;
    if (seq === undefined) full.seq = ++this.#seq;
    else {
      full.seq = seq;
      this.#seq = Math.max(this.#seq, seq);
      this.#gaps = true;
    }
    if (this.#count === this.#max) this.#dropOldest();
    const slot = (this.#head + this.#count) % this.#max;
    this.#ring[slot] = full;
    this.#sizes[slot] = bytes;
    this.#count++;
    this.#bytes += bytes;
    while (this.#bytes > this.#maxBytes && this.#count > 1) this.#dropOldest();
    return full;
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#head]!;
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#max;
    this.#count--;
  }

  /** The entries, oldest first. */
  #ordered(): JournalEntry[] {
    const out: JournalEntry[] = new Array<JournalEntry>(this.#count);
    for (let i = 0; i < this.#count; i++) out[i] = this.#at(i);
    return out;
  }

  /** Entries matching `filter`, oldest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const all = this.#ordered();
    if (isEmpty(filter)) return all;
    return all.filter((e) => matches(e, filter));
  }

  /**
   * Entries with `seq` greater than `seq` that match `filter`, oldest first, at most `limit`: for following the
   * journal page by page (pass the last `seq` seen). Entries dropped by the bound (or cleared) are skipped.
   *
   * @param seq a sequence number (0 for the start).
   * @param limit most entries returned, at least 1 (default {@link DEFAULT_PAGE_SIZE}).
   * @throws {RangeError} when `seq` is not a whole number ≥ 0 or `limit` is not a whole number ≥ 1.
   * @example journal.after(0, 100) // the first 100 entries kept
   */
  after(seq: number, limit: number = DEFAULT_PAGE_SIZE, filter: JournalFilter = {}): JournalEntry[] {
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`seq: expected a whole number ≥ 0, got ${seq}`);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit: expected a whole number ≥ 1, got ${limit}`);
    const size = this.#count;
    const out: JournalEntry[] = [];
    if (size === 0) return out;
    const filtered = !isEmpty(filter);
    for (let i = this.#indexAfter(seq); i < size && out.length < limit; i++) {
      const entry = this.#at(i);
      if (!filtered || matches(entry, filter)) out.push(entry);
    }
    return out;
  }

  /** The entry with sequence number `seq`, or `undefined` when there is none (never made, dropped or cleared). */
  get(seq: number): JournalEntry | undefined {
    const size = this.#count;
    if (size === 0 || !Number.isSafeInteger(seq)) return undefined;
    const index = this.#indexAfter(seq - 1);
    return index < size && this.#at(index).seq === seq ? this.#at(index) : undefined;
  }

  /** The index of the first kept entry whose `seq` is greater than `seq` (`size` when none is). */
  #indexAfter(seq: number): number {
    const size = this.#count;
    if (size === 0) return 0;
    // Without given numbers, kept entries have consecutive sequence numbers: found by arithmetic.
    if (!this.#gaps) return Math.min(size, Math.max(0, seq - this.#at(0).seq + 1));
    let low = 0;
    let high = size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#at(middle).seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The highest sequence number assigned so far (0 before the first request); clearing does not lower it. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** The `index`-th kept entry, oldest first (`index` in range). */
  #at(index: number): JournalEntry {
    return this.#ring[(this.#head + index) % this.#max]!;
  }

  /** The most recent entry, or `undefined`. */
  last(): JournalEntry | undefined {
    return this.#count === 0 ? undefined : this.#at(this.#count - 1);
  }

  /** Drops every entry (sequence numbers keep counting), then calls `onClear` (the gateway's `journal-cleared` event). */
  clear(): void {
    this.clearUnannounced();
    this.#onClear?.();
  }

  /**
   * Drops every entry as {@link clear} does, without calling `onClear`: for a copy of a shared store's entries when
   * another replica cleared the store's journal (that replica's `journal-cleared` event is passed on instead).
   */
  clearUnannounced(): void {
    this.#ring = [];
    this.#sizes = [];
    this.#head = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  /**
   * Drops every entry and starts the sequence over (`lastSeq` 0), announcing nothing: for a copy of a shared
   * store's entries when the store's state started over (a restart that kept nothing numbers from 1 again).
   */
  startOver(): void {
    this.clearUnannounced();
    this.#seq = 0;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.#count;
  }

  /** The kept entries' sizes together, bytes (as given to {@link record}). */
  get bytes(): number {
    return this.#bytes;
  }

  [Symbol.iterator](): Iterator<JournalEntry> {
    return this.#ordered()[Symbol.iterator]();
  }
}
