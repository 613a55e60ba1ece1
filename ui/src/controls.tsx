/** The side panels: the scenario picker and the clock. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type ClockState, type DefaultScenario, type ScenarioDetail, type ScenarioList } from './api.js';
import type { Feed } from './feed.js';
import { utcTime } from './format.js';

function message(error: unknown): string {
  return error instanceof ApiError ? error.message : error instanceof Error ? `The server did not answer (${error.message})` : String(error);
}

/** A rule without its name, as compact JSON: `{"error":{"status":529}}`. */
function ruleText(rule: Record<string, unknown>): string {
  const { name: _name, ...rest } = rule;
  return JSON.stringify(rest);
}

/** The picker's value for "no scenario" (no loaded scenario has an empty name). */
const NONE = '';

/**
 * The loaded scenarios (`GET /__mock/scenarios`), the chosen one's rules (`GET /__mock/scenarios/<name>`), and
 * the default: set (`PUT /__mock/scenario` `{"name": ...}`) or cleared (`{"name": null}`). The picker starts at the
 * default, which is "none" when there is none (normal answers), and moves to it whenever it changes, here or elsewhere
 * (the admin API, another page, a reset); a default set by its definition (`{"scenario": {...}}`), which the list of
 * loaded scenarios does not hold, gets an option of its own.
 */
export function ScenarioPanel({ feed, open }: { feed: Feed; open: boolean }) {
  const [list, setList] = useState<ScenarioList>();
  /** The picked scenario's name, {@link NONE}, or `undefined` before the list came. */
  const [picked, setPicked] = useState<string>();
  const [detail, setDetail] = useState<ScenarioDetail>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const resets = feed.resets;
  const current = feed.defaultScenario !== undefined ? feed.defaultScenario : (list?.default ?? null);
  /** The default when the list does not hold it: one set by its definition. */
  const unlisted = current !== null && list !== undefined && !list.scenarios.some((s) => s.name === current) ? current : undefined;
  // What the picker shows: the pick while it is still an option (a default set by its definition stops being one once
  // the default changes again), else none. A select given a value none of its options has shows nothing at all.
  const chosen = picked !== undefined && (picked === unlisted || list?.scenarios.some((s) => s.name === picked)) ? picked : NONE;
  /** The default this page just set itself: its own status line then stays when the default changes to it. */
  const ownChange = useRef<string | null | undefined>(undefined);

  // The picker follows the default whenever it changes; a change made elsewhere clears this page's last status line,
  // which spoke of the default before it.
  useEffect(() => {
    if (!list) return;
    setPicked(current ?? NONE);
    if (ownChange.current !== current) setStatus('');
    ownChange.current = undefined;
  }, [current, list]);

  useEffect(() => {
    const controller = new AbortController();
    api<ScenarioList>('/scenarios', { signal: controller.signal })
      .then((loaded) => {
        setList(loaded);
        feed.setDefaultScenario(loaded.default);
        setPicked((was) => was ?? loaded.default ?? NONE);
      })
      .catch((error: unknown) => !controller.signal.aborted && setStatus(message(error)));
    return () => controller.abort();
  }, [feed, resets]);

  useEffect(() => {
    setDetail(undefined);
    if (chosen === NONE) return;
    const controller = new AbortController();
    api<ScenarioDetail>(`/scenarios/${encodeURIComponent(chosen)}`, { signal: controller.signal })
      .then(setDetail)
      .catch(() => undefined); // an older server lists only the number of rules
    return () => controller.abort();
  }, [chosen]);

  const setDefault = async (name: string | null) => {
    setBusy(true);
    try {
      const answer = await api<DefaultScenario>('/scenario', { method: 'PUT', body: { name } });
      ownChange.current = answer.default;
      feed.setDefaultScenario(answer.default);
      setStatus(answer.default === null ? 'No default scenario: normal answers.' : `Default scenario: ${answer.default}.`);
    } catch (error) {
      setStatus(message(error));
    } finally {
      setBusy(false);
    }
  };

  const listed = list?.scenarios.find((s) => s.name === chosen);
  const summary = listed ?? (detail && detail.name === chosen ? { description: detail.description, source: detail.source ?? 'set by its definition (PUT /__mock/scenario)', rules: detail.rules.length } : undefined);
  const rules = detail?.rules;
  return (
    <details class="card" open={open}>
      <summary>
        <h2>Scenario</h2>
        <span class="summary-note">
          default: <strong data-testid="default-scenario">{current ?? 'none'}</strong>
        </span>
      </summary>
      <label for="scenario-select">Loaded scenarios</label>
      <select id="scenario-select" value={chosen} disabled={!list} onChange={(e) => setPicked(e.currentTarget.value)}>
        <option value={NONE}>none{current === null ? ' (default)' : ''}</option>
        {list?.scenarios.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
            {s.name === current ? ' (default)' : ''}
          </option>
        ))}
        {unlisted !== undefined && <option value={unlisted}>{unlisted} (default, set by its definition)</option>}
      </select>
      {list && chosen === NONE && (
        <div class="scenario-detail">
          <p>
            Normal answers. A request can still ask for a scenario with the header <code>X-Mock-Scenario</code>.
          </p>
        </div>
      )}
      {summary && (
        <div class="scenario-detail">
          {summary.description && <p>{summary.description}</p>}
          <p class="muted">
            {summary.source} · {summary.rules} rule{summary.rules === 1 ? '' : 's'}
          </p>
          {rules && rules.length > 0 && (
            <ol class="rules">
              {rules.map((rule, i) => (
                <li key={i}>
                  <strong>{typeof rule.name === 'string' ? rule.name : `rule ${i + 1}`}</strong> <code>{ruleText(rule)}</code>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
      <div class="buttons">
        <button type="button" class="primary" disabled={busy || chosen === NONE || chosen === current} onClick={() => void setDefault(chosen)}>
          Set as default
        </button>
        <button type="button" disabled={busy || current === null} onClick={() => void setDefault(null)}>
          Clear default
        </button>
      </div>
      <p class="status" role="status">
        {status}
      </p>
    </details>
  );
}

const UNITS = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNITS;

/** `2026-01-01 00:00:00` of epoch ms: the "Set to" field's form, 24-hour UTC (the gateway's clock is UTC). */
function setText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The time typed in "Set to" as ISO 8601 UTC (`2026-01-01T00:00:00Z`), or `undefined` when it is none:
 * `YYYY-MM-DD HH:MM`, with `:SS` and `.mmm` optional, a `T` or a space between, and an optional `Z`.
 */
function typedIso(typed: string): string | undefined {
  const match = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(:\d\d(?:\.\d{1,3})?)?Z?$/i.exec(typed.trim());
  if (!match) return undefined;
  const iso = `${match[1]}T${match[2]}${match[3] ?? ':00'}Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

/** The simulator's clock now, ticking on the page when it runs. */
function clockNow(feed: Feed): number | undefined {
  const clock = feed.clock;
  if (!clock) return undefined;
  return clock.frozen ? clock.nowMs : clock.nowMs + (performance.now() - clock.readAt);
}

/**
 * The clock (`GET /__mock/clock`): shown, running or frozen, advanced by an amount or set to a time (`POST /__mock/clock`:
 * a running clock runs on from the time set, a frozen one stays at it).
 */
export function ClockPanel({ feed, open }: { feed: Feed; open: boolean }) {
  const [amount, setAmount] = useState('60');
  const [unit, setUnit] = useState<Unit>('s');
  /**
   * What "Set to" holds of its own, or `undefined` while it shows the clock's time, ticking with it: the time it
   * showed when it took the focus (so the text does not change under the cursor), then what was typed, until the
   * clock moves or it loses the focus unchanged.
   */
  const [held, setHeld] = useState<{ text: string; typed: boolean }>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [, tick] = useState(0);
  const clock = feed.clock;
  const resets = feed.resets;

  useEffect(() => {
    api<ClockState>('/clock')
      .then((state) => feed.setClock(state))
      .catch((error: unknown) => setStatus(message(error)));
  }, [feed, resets]);

  useEffect(() => {
    if (!clock || clock.frozen) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [clock]);

  // Each move of the clock (Advance, Set, another client's, a reset's re-read) lets "Set to" follow it again.
  useEffect(() => setHeld((was) => (was?.typed ? undefined : was)), [clock]);

  const move = async (body: { advance_ms: number } | { now: string }, done: string) => {
    setBusy(true);
    try {
      feed.setClock(await api<ClockState>('/clock', { method: 'POST', body }));
      setHeld(undefined);
      setStatus(done);
    } catch (error) {
      setStatus(message(error));
    } finally {
      setBusy(false);
    }
  };

  const advance = (event: Event) => {
    event.preventDefault();
    const n = Number(amount);
    if (!Number.isFinite(n) || n < 0) {
      setStatus('Give an amount of 0 or more.');
      return;
    }
    const ms = Math.round(n * UNITS[unit]);
    void move({ advance_ms: ms }, `Advanced by ${amount} ${unit}.`);
  };

  const now = clockNow(feed);
  const at = held?.text ?? (now === undefined ? '' : setText(now));

  const setTime = (event: Event) => {
    event.preventDefault();
    const iso = typedIso(at);
    if (iso === undefined) {
      setStatus('Give a date and time in UTC: YYYY-MM-DD HH:MM:SS.');
      return;
    }
    void move({ now: iso }, clock?.frozen ? `Set to ${iso}, frozen.` : `Set to ${iso}; the clock runs on from there.`);
  };

  return (
    <details class="card" open={open}>
      <summary>
        <h2>Clock</h2>
        <span class="summary-note clock-now">
          <time data-testid="clock-now" dateTime={now === undefined ? undefined : new Date(now).toISOString()}>
            {now === undefined ? '…' : utcTime(now)}
          </time>{' '}
          {clock && <span class={`pill ${clock.frozen ? 'frozen' : 'running'}`}>{clock.frozen ? 'frozen' : 'running'}</span>}
        </span>
      </summary>
      <form class="row" onSubmit={advance}>
        <label for="advance-amount">Advance by</label>
        <input id="advance-amount" type="number" min="0" step="any" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        <select id="advance-unit" aria-label="Unit" value={unit} onChange={(e) => setUnit(e.currentTarget.value as Unit)}>
          {(Object.keys(UNITS) as Unit[]).map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
        <button type="submit" class="primary" disabled={busy}>
          Advance
        </button>
      </form>
      <form class="row set-time" onSubmit={setTime}>
        <label for="set-at">
          Set to <span id="set-at-form">(UTC, YYYY-MM-DD HH:MM:SS)</span>
        </label>
        <input
          id="set-at"
          type="text"
          inputMode="numeric"
          spellcheck={false}
          autoComplete="off"
          placeholder="YYYY-MM-DD HH:MM:SS"
          aria-describedby="set-at-form"
          value={at}
          onFocus={() => setHeld((was) => was ?? { text: at, typed: false })}
          onBlur={() => setHeld((was) => (was?.typed ? was : undefined))}
          onInput={(e) => setHeld({ text: e.currentTarget.value, typed: true })}
        />
        <button type="submit" disabled={busy}>
          Set
        </button>
      </form>
      <p class="status" role="status">
        {status}
      </p>
    </details>
  );
}
