/** The journal: the table of requests, newest first, with its filters, "Show more" and "Clear journal". */
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api, type JournalEntry } from './api.js';
import type { Feed } from './feed.js';
import { FilterBar, NO_FILTERS, applyFilters, type Filters } from './filters.js';
import { NO_KEY_SESSION, bytes, clockTime, millis, pathWithQuery, responseBytes, speechAsk, speechAskText, statusView, transcriptionAsk } from './format.js';

/** Rows drawn at first; "Show more" adds as many again. */
const ROWS = 300;

/** Moves the keyboard focus to the row of request `seq`, if it is drawn. */
export function focusRow(seq: number | undefined): void {
  if (seq === undefined) return;
  document.querySelector<HTMLElement>(`tr[data-seq="${seq}"]`)?.focus();
}

/**
 * Whether the entries seen name more than one replica (`JournalEntry.replica`): replicas sharing one store
 * (`docs/scale-out.md`). Only then does the table show a Replica column, so a single process looks as before.
 */
export function severalReplicas(entries: readonly JournalEntry[]): boolean {
  const first = entries[0]?.replica;
  return entries.some((entry) => entry.replica !== first);
}

/**
 * A cell's text on one line, as wide as the column lets it grow; cut with an ellipsis only when the table is out of
 * room (the full text is in the cell's title).
 */
function Clip({ children }: { children: ComponentChildren }) {
  return <span class="clip">{children}</span>;
}

/**
 * The path cell: the path with its query; for a speech request, what it asked for (model, voice, format, input); for a
 * transcription, its model, the audio's format and the transcript's start.
 */
function PathCell({ entry }: { entry: JournalEntry }) {
  const path = pathWithQuery(entry);
  const ask = speechAsk(entry) ?? transcriptionAsk(entry);
  if (!ask) {
    return (
      <td class="c-path" title={path}>
        <Clip>{path}</Clip>
      </td>
    );
  }
  const details = (['voice', 'format', 'input'] as const).flatMap((name) => (ask[name] === undefined ? [] : [[name, ask[name]] as const]));
  // Two lines: the model, then what was asked of it (voice · format · “input”), each cut on its own where room ends.
  return (
    <td class="c-path c-ask" title={`${path}\n${speechAskText(ask)}`}>
      <Clip>{ask.model === undefined ? path : <span class="ask-model">{ask.model}</span>}</Clip>
      {details.length > 0 && (
        <Clip>
          {details.map(([name, part], i) => (
            <span key={name}>
              {i > 0 && (
                <span class="ask-sep" aria-hidden="true">
                  ·
                </span>
              )}
              {name === 'input' ? <q class="ask-input">{part}</q> : <span class="ask-part">{part}</span>}
            </span>
          ))}
        </Clip>
      )}
    </td>
  );
}

/** The session cell; a request that sent no API key (and named no session) says so. */
function SessionCell({ entry }: { entry: JournalEntry }) {
  const session = entry.session;
  const none = session === NO_KEY_SESSION && entry.headers['x-mock-session'] === undefined;
  return (
    <td class={`c-session${none ? ' muted' : ''}`} title={none ? 'No session: the request sent no API key' : session}>
      <Clip>{session}</Clip>
    </td>
  );
}

function Row({ entry, open, replicas, onOpen }: { entry: JournalEntry; open: boolean; replicas: boolean; onOpen: (seq: number) => void }) {
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
      <PathCell entry={entry} />
      <td class="c-op">{entry.operation ?? <span class="muted">none</span>}</td>
      <td class="c-status">
        <span class={`status ${status.tone}`} title={status.title}>
          {status.label}
        </span>
      </td>
      <td class="c-scenario" title={entry.scenario === null ? undefined : `${entry.scenario}${entry.rule && entry.rule !== entry.scenario ? ` / ${entry.rule}` : ''}`}>
        <Clip>{entry.scenario ?? ''}</Clip>
      </td>
      <SessionCell entry={entry} />
      {replicas && (
        <td class="c-replica" title={entry.replica}>
          <Clip>{entry.replica}</Clip>
        </td>
      )}
      <td class="c-duration num">{millis(entry.duration_ms)}</td>
      <td class="c-bytes num">{bytes(size)}</td>
    </tr>
  );
}

/** The requests of `feed`; `onOpen` opens one in the detail panel. */
export function Journal({ feed, openSeq, onOpen }: { feed: Feed; openSeq: number | undefined; onOpen: (seq: number) => void }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [limit, setLimit] = useState(ROWS);
  const all = feed.entries;
  const shown = useMemo(() => applyFilters(all, filters), [all, filters]);
  const replicas = useMemo(() => severalReplicas(all), [all]);
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
                <th scope="col" class="c-path" title="The path and query; for a speech request, its model, voice, format and input">
                  Request
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
                {replicas && (
                  <th scope="col" class="c-replica">
                    Replica
                  </th>
                )}
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
                <Row key={entry.seq} entry={entry} open={entry.seq === openSeq} replicas={replicas} onOpen={onOpen} />
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

