/** The dashboard: header, the side panels, the journal with its filters, and the detail of the open request. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, onUnauthorized, type AdminAuth } from './api.js';
import { ClockPanel, ScenarioPanel } from './controls.js';
import { Detail } from './detail.js';
import type { Connection, Feed } from './feed.js';
import { Journal, focusRow } from './journal.js';
import { Login } from './login.js';

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

/** Whether the page may use the admin API: not known yet, yes, or not without signing in. */
type Access = 'checking' | 'allowed' | 'login';

/**
 * The dashboard: the connection state, the controls (scenario, clock, reset), the journal with its filters and the
 * entry opened from it, all fed by `feed` (the admin API's event stream, polling when it is down); the login form
 * instead when the admin API wants its token. Nothing is read before `GET /__mock/auth` says the page may (it
 * answers 200 either way), so a browser shows the form with no 401 in its console; a 401 later (a restarted server
 * forgot the login) switches to the form too.
 */
export function App({ feed }: { feed: Feed }) {
  useFeed(feed);
  const [access, setAccess] = useState<Access>('checking');
  const unauthorized = access === 'login';
  const [openSeq, setOpenSeq] = useState<number>();
  const [resetting, setResetting] = useState(false);
  const [notice, setNotice] = useState('');
  const lastOpened = useRef<number | undefined>(undefined);
  // On a phone the panels start folded, so the journal is on the first screen.
  const [wide] = useState(() => !window.matchMedia('(max-width: 640px)').matches);

  useEffect(() => onUnauthorized(() => setAccess('login')), []);
  useEffect(() => {
    const controller = new AbortController();
    api<AdminAuth>('/auth', { signal: controller.signal })
      .then((auth) => setAccess((was) => (was === 'checking' ? (auth.authorized ? 'allowed' : 'login') : was)))
      // Not reachable: go on, and the page says so (the feed's connection state).
      .catch(() => !controller.signal.aborted && setAccess((was) => (was === 'checking' ? 'allowed' : was)));
    return () => controller.abort();
  }, []);
  useEffect(() => {
    if (access !== 'allowed') return;
    feed.start();
    return () => feed.stop();
  }, [feed, access]);

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
  if (access === 'checking') return null;
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
