/**
 * The words page (bundled by test/browser/words.test.ts): `mockrouter/browser` behind msw's service worker with
 * speech in words, as an app's dev page would set it up, and functions the test calls in the page
 * (`window.wordsPage`), each doing its request with the page's own `fetch` to `https://openrouter.ai/api/v1/...` and
 * reporting what the page saw. The seed comes from the page's query (`?seed=7`); with `?flite=<url>`, the gateway
 * has `speech: 'words'` and `fliteWasm: <url>` (the page fetches the engine from there on the first words), else it
 * has neither (tones, and no engine).
 */
import { setupWorker } from 'msw/browser';
import { createMockRouter } from 'mockrouter/browser';
import { postSpeech } from '../../support/speech-request.js';

const BASE = 'https://openrouter.ai/api/v1';
const KEY = 'sk-browser';

const query = new URL(location.href).searchParams;
const seed = Number(query.get('seed') ?? '0');
const flite = query.get('flite');
const mock = createMockRouter(flite === null ? { seed } : { seed, speech: 'words', fliteWasm: flite });
const worker = setupWorker(...mock.handlers);

/** A speech answer as page script saw it. */
export interface SpeechSeen {
  status: number;
  contentType: string | null;
  bytes: number;
  sha256: string;
  /** The body as text when the status is not 200 (an error envelope), else `undefined`. */
  text?: string;
  /** ms from the request to the end of the body. */
  ms: number;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const api = {
  /** Resolves once the worker serves this page. */
  ready: worker.start({ onUnhandledRequest: 'bypass', quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } }).then(() => undefined),

  /** POST /audio/speech with `body` (and `headers`), read whole and hashed in the page. */
  async speech(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<SpeechSeen> {
    const sent = performance.now();
    const res = await postSpeech(BASE, body, { Authorization: `Bearer ${KEY}`, ...headers });
    const data = await res.arrayBuffer();
    const ms = performance.now() - sent;
    const sha256 = hex(await crypto.subtle.digest('SHA-256', data));
    const out: SpeechSeen = { status: res.status, contentType: res.headers.get('content-type'), bytes: data.byteLength, sha256, ms };
    if (res.status !== 200) out.text = new TextDecoder().decode(data);
    return out;
  },

  /** What the page's journal recorded for each speech request, oldest first: its status and how it sounded (`null` without audio). */
  speechJournal(): { status: number; speech: string | null }[] {
    return mock.journal
      .list()
      .filter((e) => e.operation === 'speech')
      .map((e) => ({ status: e.status, speech: e.audio?.speech ?? null }));
  },
};

export type WordsPage = typeof api;

(globalThis as unknown as { wordsPage: WordsPage }).wordsPage = api;
