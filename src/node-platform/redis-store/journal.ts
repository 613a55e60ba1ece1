/**
 * The shared journal of the Redis store ({@link StoreJournal}): a capped stream of entries (id `<seq>-0`, one
 * sequence for every replica) and a hash of the fields entries get when their answer ends, merged on read. Reads
 * show at most the newest `journalSize` sequence numbers, oldest first, with the filters, paging and argument
 * checks of `Journal` (`src/core/journal/journal.ts`).
 *
 * @module
 */
import { DEFAULT_PAGE_SIZE, type JournalEntry, type JournalFilter } from '../../core/journal/journal.js';
import type { RecordedEntry, StoreJournal } from '../../core/store/types.js';
import type { Redis } from 'ioredis';
import type { DataSite } from './data-site.js';
import type { StoreKeys } from './key-names.js';
import type { ScriptCommands } from './scripts.js';

/** Entries read per script call when a filter may skip some (a page of `list`, or of a filtered `after`). */
const SCAN_PAGE = 500;

/** The fields of an entry stored by `finish`. */
/** What an entry's end sets (`audio` too: speech with words is complete only then). */
type DoneFields = Pick<JournalEntry, 'status' | 'duration_ms' | 'response_bytes' | 'body_end' | 'audio'>;

function matches(e: JournalEntry, filter: JournalFilter): boolean {
  return (
    (filter.operation === undefined || e.operation === filter.operation) &&
    (filter.status === undefined || e.status === filter.status) &&
    (filter.session === undefined || e.session === filter.session)
  );
}

function isEmpty(filter: JournalFilter): boolean {
  return filter.operation === undefined && filter.status === undefined && filter.session === undefined;
}

/** What {@link redisJournal} needs besides the client and its keys. */
export interface JournalNeeds {
  /** Where the journal's data lives, to name it when the store holds what the simulator cannot read there. */
  readonly site: DataSite;
  /** A new run id, offered with each entry: the store takes it when it has none (it is empty). */
  readonly newRun: () => string;
}

/**
 * The journal over `client`'s scripts. `run` wraps every call (waits for the first connection, turns a failure
 * into the store's 503, or the 500 of invalid data at `needs.site`); `size` is the bound in entries (option
 * `journalSize`, at least 1).
 */
export function redisJournal(
  client: Redis & ScriptCommands,
  keys: StoreKeys,
  size: number,
  run: <T>(command: () => Promise<T>, site?: DataSite) => Promise<T>,
  needs: JournalNeeds,
): StoreJournal {
  const bound = Math.max(1, Math.floor(size));

  /** Up to `count` entries after `seq` within the bound, done fields merged; and whether the stream has more. */
  const read = (seq: number, count: number): Promise<{ entries: JournalEntry[]; more: boolean }> =>
    run(async () => {
      const reply = (await client.mrJournalRead(keys.journalSeq, keys.journal, keys.journalDone, seq, count, bound)) as (string | number)[];
      const entries: JournalEntry[] = [];
      for (let i = 1; i < reply.length; i += 2) {
        const entry = JSON.parse(String(reply[i])) as JournalEntry;
        const done = String(reply[i + 1]);
        if (done !== '') Object.assign(entry, JSON.parse(done) as DoneFields);
        entries.push(entry);
      }
      return { entries, more: entries.length === count };
    }, needs.site);

  /** Entries after `seq` matching `filter`, at most `limit`, reading page by page. */
  const collect = async (seq: number, limit: number, filter: JournalFilter): Promise<JournalEntry[]> => {
    if (isEmpty(filter) && limit <= SCAN_PAGE) return (await read(seq, limit)).entries;
    const out: JournalEntry[] = [];
    for (let from = seq; ; ) {
      const page = await read(from, SCAN_PAGE);
      for (const entry of page.entries) {
        if (matches(entry, filter)) out.push(entry);
        if (out.length === limit) return out;
      }
      if (!page.more) return out;
      from = page.entries[page.entries.length - 1]!.seq;
    }
  };

  const record = (entry: Omit<JournalEntry, 'seq'>, bytes: number): Promise<RecordedEntry> => {
    void bytes; // bounded by entries only: the stream's trimming has no byte bound
    const json = JSON.stringify({ ...entry, seq: undefined });
    return run(async () => {
      const [seq, run] = (await client.mrJournalRecord(keys.journalSeq, keys.journal, keys.journalDone, keys.run, json, bound, needs.newRun())) as [number, string];
      const full = entry as JournalEntry;
      full.seq = Number(seq);
      return { entry: full, run: String(run) };
    }, needs.site);
  };

  return {
    record,
    finish(entry) {
      const done: DoneFields = { status: entry.status, duration_ms: entry.duration_ms, response_bytes: entry.response_bytes, body_end: entry.body_end, audio: entry.audio };
      return run(async () => {
        await client.mrJournalFinish(keys.journalSeq, keys.journalDone, entry.seq, JSON.stringify(done), bound);
      }, needs.site);
    },
    list: (filter = {}) => collect(0, Infinity, filter),
    after(seq, limit = DEFAULT_PAGE_SIZE, filter = {}) {
      if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`seq: expected a whole number ≥ 0, got ${seq}`);
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit: expected a whole number ≥ 1, got ${limit}`);
      return collect(seq, limit, filter);
    },
    get(seq) {
      if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
      return read(seq - 1, 1).then(({ entries }) => (entries[0]?.seq === seq ? entries[0] : undefined));
    },
    lastSeq: () => run(async () => Number((await client.get(keys.journalSeq)) ?? 0), needs.site),
    clear: () =>
      run(async () => {
        await client.del(keys.journal, keys.journalDone);
      }, needs.site),
  };
}
