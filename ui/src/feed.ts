/**
 * The live journal: the page's copy of `GET /__mock/requests`, kept current by the event stream `GET /__mock/events`
 * (`entry`, `entry-done`, `clock`, `scenario`, `reset`). While the stream is down (the browser reconnects it by
 * itself), the page polls `requests?after=<last seq>` every two seconds instead, and re-reads the entries still
 * streaming; each time the stream opens it catches up the same way, so nothing recorded in between is missed. A
 * `last_seq` below the last entry seen means a new server (restarted): the page starts over.
 */
import { ADMIN, ApiError, api, pageClock, type ClockState, type DefaultScenario, type JournalEntry, type PageClock, type RequestsPage } from './api.js';

/** How the page hears of new requests: the event stream, polling while it is down, or not at all. */
export type Connection = 'connecting' | 'live' | 'polling' | 'offline';

/** Entries the page keeps at most (the journal itself keeps 1000 by default); the oldest go first. */
const MAX_ENTRIES = 5000;
/** Entries asked for per request while catching up. */
const PAGE = 500;
const POLL_MS = 2000;
/** Wait before a new event stream when the browser gave one up (an error answer instead of the stream). */
const REOPEN_MS = 10_000;

export class Feed {
  readonly #entries = new Map<number, JournalEntry>();
  #lastSeq = 0;
  #sorted: JournalEntry[] | undefined = [];
  #connection: Connection = 'connecting';
  #clock: PageClock | undefined;
  #defaultScenario: string | null | undefined;
  /** Counts `reset` events, so views that keep their own copies (scenarios, clock) read again. */
  #resets = 0;
  #source: EventSource | undefined;
  #pollTimer: ReturnType<typeof setInterval> | undefined;
  #reopenTimer: ReturnType<typeof setTimeout> | undefined;
  #emitTimer: ReturnType<typeof setTimeout> | undefined;
  #catchingUp: Promise<void> | undefined;
  readonly #listeners = new Set<() => void>();
  #stopped = false;

  /** The entries, newest first. */
  get entries(): readonly JournalEntry[] {
    this.#sorted ??= [...this.#entries.values()].sort((a, b) => b.seq - a.seq);
    return this.#sorted;
  }

  get connection(): Connection {
    return this.#connection;
  }

  /** The clock as last heard from the stream (`undefined` until then). */
  get clock(): PageClock | undefined {
    return this.#clock;
  }

  /** The default scenario as last heard from the stream (`undefined` until then). */
  get defaultScenario(): string | null | undefined {
    return this.#defaultScenario;
  }

  get resets(): number {
    return this.#resets;
  }

  /** One entry by `seq`. */
  entry(seq: number): JournalEntry | undefined {
    return this.#entries.get(seq);
  }

  /** Calls `listener` after changes (coalesced: at most every 50 ms); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Loads the journal and opens the event stream. */
  start(): void {
    this.#stopped = false;
    void this.#catchUp().then(() => this.#open());
  }

  /** Closes the stream and stops polling. */
  stop(): void {
    this.#stopped = true;
    this.#source?.close();
    this.#source = undefined;
    clearInterval(this.#pollTimer);
    clearTimeout(this.#reopenTimer);
    clearTimeout(this.#emitTimer);
    this.#pollTimer = undefined;
  }

  /** Sets the clock from an answer of the admin API (the page moved it). */
  setClock(state: ClockState): void {
    this.#clock = pageClock(state);
    this.#emit(true);
  }

  /** Sets the default scenario from an answer of the admin API. */
  setDefaultScenario(name: string | null): void {
    this.#defaultScenario = name;
    this.#emit(true);
  }

  /** Empties the page's copy (after the page reset or cleared the journal itself). */
  clear(reset: boolean): void {
    this.#entries.clear();
    this.#sorted = undefined;
    if (reset) this.#resets++;
    this.#emit(true);
  }

  #emit(now = false): void {
    if (now) {
      clearTimeout(this.#emitTimer);
      this.#emitTimer = undefined;
      for (const listener of this.#listeners) listener();
      return;
    }
    this.#emitTimer ??= setTimeout(() => {
      this.#emitTimer = undefined;
      for (const listener of this.#listeners) listener();
    }, 50);
  }

  #upsert(entry: JournalEntry): void {
    this.#entries.set(entry.seq, entry);
    if (entry.seq > this.#lastSeq) this.#lastSeq = entry.seq;
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = [...this.#entries.keys()].sort((a, b) => a - b).slice(0, this.#entries.size - MAX_ENTRIES);
      for (const seq of oldest) this.#entries.delete(seq);
    }
    this.#sorted = undefined;
  }

  #setConnection(connection: Connection): void {
    if (this.#connection === connection) return;
    this.#connection = connection;
    this.#emit(true);
  }

  #open(): void {
    if (this.#stopped || this.#source) return;
    const source = new EventSource(`${ADMIN}/events`);
    this.#source = source;
    const entry = (event: MessageEvent<string>) => {
      this.#upsert(JSON.parse(event.data) as JournalEntry);
      this.#emit();
    };
    source.addEventListener('entry', entry);
    source.addEventListener('entry-done', entry);
    source.addEventListener('clock', (event: MessageEvent<string>) => {
      this.#clock = pageClock(JSON.parse(event.data) as ClockState);
      this.#emit();
    });
    source.addEventListener('scenario', (event: MessageEvent<string>) => {
      this.#defaultScenario = (JSON.parse(event.data) as DefaultScenario).default;
      this.#emit();
    });
    source.addEventListener('journal-cleared', () => this.clear(false));
    source.addEventListener('reset', () => this.clear(true));
    source.onopen = () => {
      this.#setConnection('live');
      clearInterval(this.#pollTimer);
      this.#pollTimer = undefined;
      void this.#catchUp();
    };
    source.onerror = () => {
      // CONNECTING: the browser retries by itself; CLOSED: it gave up (an error status), so open a new one later.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        this.#source = undefined;
        clearTimeout(this.#reopenTimer);
        this.#reopenTimer = setTimeout(() => this.#open(), REOPEN_MS);
      }
      if (this.#connection !== 'offline') this.#setConnection('polling');
      this.#pollTimer ??= setInterval(() => void this.#catchUp(true), POLL_MS);
    };
  }

  /**
   * Reads what was recorded after the last entry seen, page by page; with `pending`, also re-reads the entries
   * still streaming (their end comes as `entry-done`, which a dropped stream missed). One at a time.
   */
  #catchUp(pending = false): Promise<void> {
    this.#catchingUp ??= this.#read(pending).finally(() => (this.#catchingUp = undefined));
    return this.#catchingUp;
  }

  async #read(pending: boolean): Promise<void> {
    try {
      for (;;) {
        const before = this.#lastSeq;
        const page = await api<RequestsPage>(`/requests?after=${before}&limit=${PAGE}`);
        if (page.last_seq < before) {
          // Numbers never go down in one server: this is a new one (restarted). Start over.
          this.#entries.clear();
          this.#lastSeq = 0;
          this.#sorted = undefined;
          this.#resets++;
          continue;
        }
        for (const entry of page.requests) this.#upsert(entry);
        // A server that does not know `after` answers everything each time: stop when nothing new came.
        if (page.requests.length < PAGE || this.#lastSeq === before) break;
      }
      if (pending) {
        const streaming = [...this.#entries.values()].filter((e) => e.duration_ms === null);
        for (const entry of streaming) {
          const fresh = await api<JournalEntry>(`/requests/${entry.seq}`).catch(() => undefined);
          if (fresh) this.#upsert(fresh);
        }
      }
      if (this.#connection === 'offline') this.#setConnection(this.#source?.readyState === EventSource.OPEN ? 'live' : 'polling');
      this.#emit();
    } catch (error) {
      // A 401 has told the page already (api); a network failure means the server is gone.
      if (!(error instanceof ApiError)) this.#setConnection('offline');
      this.#pollTimer ??= setInterval(() => void this.#catchUp(true), POLL_MS);
    }
  }
}
