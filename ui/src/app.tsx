/** The dashboard: header, the side panels, the journal with its filters, and the detail of the open request. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, onUnauthorized, type JournalEntry } from './api.js';
import { ClockPanel, ScenarioPanel } from './controls.js';
import { Detail } from './detail.js';
import type { Connection, Feed } from './feed.js';
import {
  STATUS_CLASSES,
  STATUS_CLASS_LABELS,
  bytes,
  clockTime,
  inStatusClass,
  matchesText,
  millis,
  pathWithQuery,
  responseBytes,
  statusView,
  type StatusClass,
} from './format.js';

/** Rows drawn at first; "Show more" adds as many again. */
const ROWS = 300;

/** Re-renders the caller when `feed` changes. */
function useFeed(feed: Feed): void {
  const [, setVersion] = useState(0);
  useEffect(() => feed.subscribe(() => setVersion((n) => n + 1)), [feed]);
}

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: 'connecting…',
  live: 'live',
  polling: 'polling (event stream down)',
  offline: 'server not reachable',
};

interface Filters {
  operation: string;
  status: '' | StatusClass;
  session: string;
  text: string;
}

const NO_FILTERS: Filters = { operation: '', status: '', session: '', text: '' };

function applyFilters(entries: readonly JournalEntry[], filters: Filters): readonly JournalEntry[] {
  const needle = filters.text.trim().toLowerCase();
  if (filters.operation === '' && filters.status === '' && filters.session === '' && needle === '') return entries;
  return entries.filter(
    (e) =>
      (filters.operation === '' || (filters.operation === 'none' ? e.operation === null : e.operation === filters.operation)) &&
      (filters.status === '' || inStatusClass(e, filters.status)) &&
      (filters.session === '' || e.session === filters.session) &&
      matchesText(e, needle),
  );
}

function FilterBar({ entries, filters, onChange }: { entries: readonly JournalEntry[]; filters: Filters; onChange: (f: Filters) => void }) {
  const operations = useMemo(() => [...new Set(entries.map((e) => e.operation ?? 'none'))].sort(), [entries]);
  const sessions = useMemo(() => [...new Set(entries.map((e) => e.session))].sort(), [entries]);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const withCurrent = (values: string[], current: string) => (current === '' || values.includes(current) ? values : [...values, current]);
  return (
    <form class="filters" role="search" aria-label="Filter the requests" onSubmit={(e) => e.preventDefault()}>
      <div class="field grow">
        <label for="filter-text">Search</label>
        <input id="filter-text" type="search" placeholder="path, model, scenario, message…" value={filters.text} onInput={(e) => set({ text: e.currentTarget.value })} />
      </div>
      <div class="field">
        <label for="filter-operation">Operation</label>
        <select id="filter-operation" value={filters.operation} onChange={(e) => set({ operation: e.currentTarget.value })}>
          <option value="">all</option>
          {withCurrent(operations, filters.operation).map((op) => (
            <option key={op} value={op}>
              {op === 'none' ? 'none (unknown path)' : op}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-status">Status</label>
        <select id="filter-status" value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as Filters['status'] })}>
          <option value="">all</option>
          {STATUS_CLASSES.map((cls) => (
            <option key={cls} value={cls}>
              {STATUS_CLASS_LABELS[cls]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-session">Session</label>
        <select id="filter-session" value={filters.session} onChange={(e) => set({ session: e.currentTarget.value })}>
          <option value="">all</option>
          {withCurrent(sessions, filters.session).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

function focusRow(seq: number | undefined): void {
  if (seq === undefined) return;
  document.querySelector<HTMLElement>(`tr[data-seq="${seq}"]`)?.focus();
}

function Row({ entry, open, onOpen }: { entry: JournalEntry; open: boolean; onOpen: (seq: number) => void }) {
  const status = statusView(entry);
  const size = responseBytes(entry);
  const keyDown = (event: KeyboardEvent) => {
    const row = event.currentTarget as HTMLTableRowElement;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(entry.seq);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling) as HTMLElement | null;
      next?.focus();
    }
  };
  return (
    <tr tabIndex={0} data-seq={entry.seq} class={open ? 'open' : undefined} aria-current={open ? 'true' : undefined} onClick={() => onOpen(entry.seq)} onKeyDown={keyDown}>
      <td class="c-time" title={entry.time_iso}>
        {clockTime(entry.time_iso)}
      </td>
      <td class="c-method">{entry.method}</td>
      <td class="c-path" title={pathWithQuery(entry)}>
        {pathWithQuery(entry)}
      </td>
      <td class="c-op">{entry.operation ?? <span class="muted">none</span>}</td>
      <td class="c-status">
        <span class={`status ${status.tone}`} title={status.title}>
          {status.label}
        </span>
      </td>
      <td class="c-scenario" title={entry.rule ?? undefined}>
        {entry.scenario ?? ''}
      </td>
      <td class="c-session" title={entry.session}>
        {entry.session}
      </td>
      <td class="c-duration num">{millis(entry.duration_ms)}</td>
      <td class="c-bytes num">{bytes(size)}</td>
    </tr>
  );
}

function Journal({ feed, openSeq, onOpen }: { feed: Feed; openSeq: number | undefined; onOpen: (seq: number) => void }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [limit, setLimit] = useState(ROWS);
  const all = feed.entries;
  const shown = useMemo(() => applyFilters(all, filters), [all, filters]);
  const [busy, setBusy] = useState(false);
  const clear = async () => {
    setBusy(true);
    try {
      await api('/requests', { method: 'DELETE' });
      feed.clear(false);
    } finally {
      setBusy(false);
    }
  };
  const filtered = shown.length !== all.length;
  return (
    <section class="journal" aria-labelledby="journal-title">
      <div class="journal-head">
        <h2 id="journal-title">Requests</h2>
        <span class="count" role="status" data-testid="row-count">
          {filtered ? `${shown.length} of ${all.length}` : all.length} {all.length === 1 ? 'request' : 'requests'}
        </span>
        <button type="button" class="small" disabled={busy || all.length === 0} onClick={() => void clear().catch(() => undefined)}>
          Clear journal
        </button>
      </div>
      <FilterBar entries={all} filters={filters} onChange={setFilters} />
      {all.length === 0 ? (
        <div class="empty">
          <p>No requests yet.</p>
          <p>
            Point your app at <code>{location.origin}/api/v1</code> with any key; each request shows here as it arrives.
          </p>
        </div>
      ) : shown.length === 0 ? (
        <div class="empty">
          <p>No request matches the filters.</p>
          <button type="button" onClick={() => setFilters(NO_FILTERS)}>
            Clear the filters
          </button>
        </div>
      ) : (
        <div class="table-wrap">
          <table class="requests">
            <caption class="sr-only">Requests, newest first. Enter opens one; arrow keys move between rows.</caption>
            <thead>
              <tr>
                <th scope="col" class="c-time">
                  Time (UTC)
                </th>
                <th scope="col" class="c-method">
                  Method
                </th>
                <th scope="col" class="c-path">
                  Path
                </th>
                <th scope="col" class="c-op">
                  Operation
                </th>
                <th scope="col" class="c-status">
                  Status
                </th>
                <th scope="col" class="c-scenario">
                  Scenario
                </th>
                <th scope="col" class="c-session">
                  Session
                </th>
                <th scope="col" class="c-duration num">
                  Duration
                </th>
                <th scope="col" class="c-bytes num">
                  Bytes
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.slice(0, limit).map((entry) => (
                <Row key={entry.seq} entry={entry} open={entry.seq === openSeq} onOpen={onOpen} />
              ))}
            </tbody>
          </table>
          {shown.length > limit && (
            <button type="button" class="more" onClick={() => setLimit((n) => n + ROWS)}>
              Show {Math.min(ROWS, shown.length - limit)} more
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The login form, shown when the admin API wants the token: a plain form posting to `/__mock/login`, which sends a
 * wrong token back here with `?login=failed` (src/core/admin-guard.ts).
 */
function Login() {
  const failed = new URLSearchParams(location.search).get('login') === 'failed';
  return (
    <main class="login">
      <form method="post" action="/__mock/login" class="card">
        <h1>mockrouter dashboard</h1>
        <p>This server's admin API needs its admin token (<code>--admin-token</code>).</p>
        {failed && (
          <p role="alert" class="login-error">
            That token is not this server's admin token.
          </p>
        )}
        <label for="login-token">Admin token</label>
        <input id="login-token" name="token" type="password" autoComplete="current-password" required autoFocus />
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}

export function App({ feed }: { feed: Feed }) {
  useFeed(feed);
  const [unauthorized, setUnauthorized] = useState(false);
  const [openSeq, setOpenSeq] = useState<number>();
  const [resetting, setResetting] = useState(false);
  const [notice, setNotice] = useState('');
  const lastOpened = useRef<number | undefined>(undefined);
  // On a phone the panels start folded, so the journal is on the first screen.
  const [wide] = useState(() => !window.matchMedia('(max-width: 640px)').matches);

  useEffect(() => onUnauthorized(() => setUnauthorized(true)), []);
  useEffect(() => {
    if (unauthorized) feed.stop();
    else feed.start();
    return () => feed.stop();
  }, [feed, unauthorized]);

  const open = openSeq === undefined ? undefined : feed.entry(openSeq);
  const close = () => {
    setOpenSeq(undefined);
    const seq = lastOpened.current;
    requestAnimationFrame(() => focusRow(seq));
  };
  const onOpen = (seq: number) => {
    lastOpened.current = seq;
    setOpenSeq(seq);
  };

  useEffect(() => {
    if (openSeq === undefined) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [openSeq]);

  const reset = async () => {
    setResetting(true);
    try {
      await api('/reset', { method: 'POST' });
      setOpenSeq(undefined);
      feed.clear(true);
      setNotice('Reset: journal, scenario counters, rate-limit windows and spent credits cleared.');
    } catch (error) {
      setNotice(error instanceof Error ? error.message : String(error));
    } finally {
      setResetting(false);
    }
  };

  if (unauthorized) return <Login />;
  const connection = feed.connection;
  return (
    <div class={`shell${open ? ' with-detail' : ''}`}>
      <header class="top">
        <h1>
          <img src="/__mock/ui/icon.svg" alt="" width="24" height="24" />
          mockrouter <span class="muted wide-only">dashboard</span>
        </h1>
        <span class={`pill conn-${connection}`} data-testid="connection" title="How this page hears of new requests">
          {CONNECTION_TEXT[connection]}
        </span>
        <span class="notice" role="status">
          {notice}
        </span>
        <button type="button" class="danger" disabled={resetting} onClick={() => void reset()} title="Clears the journal, scenario counters, rate-limit windows and spent credits; keeps the clock and generation records">
          Reset<span class="wide-only"> state</span>
        </button>
      </header>
      <div class="panels">
        <ScenarioPanel feed={feed} open={wide} />
        <ClockPanel feed={feed} open={wide} />
      </div>
      <main class="main">
        <Journal feed={feed} openSeq={openSeq} onOpen={onOpen} />
      </main>
      {open && <Detail entry={open} onClose={close} />}
    </div>
  );
}
