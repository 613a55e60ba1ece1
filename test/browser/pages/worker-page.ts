/**
 * The worker page (bundled by test/browser/worker.test.ts): `mockrouter/browser` behind msw's service worker, as an
 * app's dev page would use it, and functions the test calls in the page (`window.workerPage`), each doing its
 * requests with the page's own `fetch` to `https://openrouter.ai/api/v1/...` and reporting what the page saw.
 * The seed comes from the page's query (`?seed=7`); with `?log`, msw logs each request (its default, which clones
 * each mocked response and reads the clone), else it is `quiet`.
 */
import { setupWorker } from 'msw/browser';
import { createMockRouter } from 'mockrouter/browser';
import { postSpeech } from '../../support/speech-request.js';

const BASE = 'https://openrouter.ai/api/v1';
const KEY = 'sk-browser';

const query = new URL(location.href).searchParams;
const seed = Number(query.get('seed') ?? '0');
const mock = createMockRouter({ seed });
const worker = setupWorker(...mock.handlers);

/** A response as page script sees it: the status and the headers it can read (names lower-case). */
export interface Seen {
  status: number;
  /** `Response.type`: `cors` would mean the headers are filtered to the exposed ones. */
  type: ResponseType;
  headers: Record<string, string>;
}

/** What the page read of a body: its bytes in order, chunk by chunk, and how the read ended. */
export interface BodyRead extends Seen {
  /** ms from the request to the response headers. */
  headersAfter: number;
  bytes: number;
  /** Each chunk's size and arrival, ms after the response headers. */
  chunks: { size: number; at: number }[];
  /** The rejection of `reader.read()`, if the body failed: `name: message`. */
  error?: string;
}

export interface SpeechMp3 extends Seen {
  bytes: number;
  sha256: string;
  /** `AudioContext.decodeAudioData` of the whole body, in a 24 kHz context (so no resampling). */
  decoded: { frames: number; sampleRate: number; duration: number; channels: number };
}

export interface TruncatedRuns {
  /** Length of the same speech without the scenario. */
  full: number;
  /** `floor(full / 2)`: what `truncated-audio` promises before the cut. */
  promised: number;
  runs: { bytes: number; error?: string; status: number; applied: string | null }[];
}

function seen(res: Response): Seen {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, type: res.type, headers };
}

async function read(request: Promise<Response>): Promise<BodyRead> {
  const sent = performance.now();
  const res = await request;
  const started = performance.now();
  const out: BodyRead = { ...seen(res), headersAfter: started - sent, bytes: 0, chunks: [] };
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out;
      if (value.byteLength === 0) continue;
      out.bytes += value.byteLength;
      out.chunks.push({ size: value.byteLength, at: performance.now() - started });
    }
  } catch (error) {
    out.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return out;
  }
}

function speech(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return postSpeech(BASE, body, { Authorization: `Bearer ${KEY}`, ...headers });
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const api = {
  /** Resolves once the worker serves this page. */
  ready: worker.start({ onUnhandledRequest: 'bypass', quiet: !query.has('log'), serviceWorker: { url: '/mockServiceWorker.js' } }).then(() => undefined),

  /** POST /audio/speech as MP3, read whole, hashed and decoded. */
  async speechMp3(body: Record<string, unknown>): Promise<SpeechMp3> {
    const res = await speech({ ...body, response_format: 'mp3' });
    const data = await res.arrayBuffer();
    const sha256 = hex(await crypto.subtle.digest('SHA-256', data));
    const bytes = data.byteLength;
    const context = new AudioContext({ sampleRate: 24_000 });
    try {
      const audio = await context.decodeAudioData(data);
      return { ...seen(res), bytes, sha256, decoded: { frames: audio.length, sampleRate: audio.sampleRate, duration: audio.duration, channels: audio.numberOfChannels } };
    } finally {
      await context.close();
    }
  },

  /**
   * POST /audio/speech as MP3, then that MP3 uploaded to POST /audio/transcriptions as a multipart `file` (`model`
   * `stt`, `verbose_json` with word timestamps): what the page sees, with the JSON body.
   */
  async hearBack(body: Record<string, unknown>, stt: string): Promise<Seen & { body: unknown }> {
    const mp3 = await (await speech({ ...body, response_format: 'mp3' })).arrayBuffer();
    const form = new FormData();
    form.append('model', stt);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('file', new File([mp3], 'speech.mp3', { type: 'audio/mpeg' }));
    const res = await fetch(`${BASE}/audio/transcriptions`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` }, body: form });
    return { ...seen(res), body: await res.json() };
  },

  /** A GET with the key: what the page sees, with the JSON body. */
  async getJson(path: string, headers: Record<string, string> = {}): Promise<Seen & { body: unknown }> {
    const res = await fetch(`${BASE}${path}`, { headers: { Authorization: `Bearer ${KEY}`, ...headers } });
    return { ...seen(res), body: await res.json() };
  },

  /** POST /audio/speech, read chunk by chunk. */
  async speechRead(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<BodyRead> {
    return read(speech(body, headers));
  },

  /** The same PCM speech once whole, then `runs` times with `X-Mock-Scenario: truncated-audio`, one after another. */
  async truncatedRuns(body: Record<string, unknown>, runs: number): Promise<TruncatedRuns> {
    const pcm = { ...body, response_format: 'pcm' };
    const whole = await read(speech(pcm));
    if (whole.error !== undefined) throw new Error(`the whole speech failed: ${whole.error}`);
    const out: TruncatedRuns = { full: whole.bytes, promised: Math.floor(whole.bytes / 2), runs: [] };
    for (let i = 0; i < runs; i++) {
      const cut = await read(speech(pcm, { 'X-Mock-Scenario': 'truncated-audio' }));
      out.runs.push({ bytes: cut.bytes, status: cut.status, applied: cut.headers['x-mock-applied'] ?? null, ...(cut.error === undefined ? {} : { error: cut.error }) });
    }
    return out;
  },

  /** The journal of the page's mock (what a page could show): each request's operation, headers as received, status and generation id. */
  journal(): { operation: string | null; headers: Record<string, string>; status: number; generationId: string | null }[] {
    return mock.journal.list().map((e) => ({ operation: e.operation, headers: e.headers, status: e.status, generationId: e.generation_id }));
  },
};

export type WorkerPage = typeof api;

(globalThis as unknown as { workerPage: WorkerPage }).workerPage = api;
