/**
 * The journal reads a live view needs, in every mode: paging (`after`, `limit`, `last_seq`), one entry, how each
 * answer ended (`response_bytes`, `body_end`), the error envelope and the rendered audio an entry records, and the
 * audio rendered again byte for byte. The standalone server answers them under `/__mock/` (`GET /__mock/requests`,
 * `/__mock/requests/<seq>`, `/__mock/requests/<seq>/audio`, `/__mock/scenarios/<name>`); in-process the same reads
 * are `gateway.journal.after/get/lastSeq` and `gateway.audioOf`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/base/error-envelope.js';
import type { JournalEntry } from '../src/core/journal/journal.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { auth, modeTitle, modes, MSW_MAJOR, type Mode, type RunningMode } from './support/modes.js';
import { adminFetch } from './support/admin.js';
import { rawHttp } from './support/raw-http.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const IGNORES_SPEED = 'mistralai/voxtral-mini-tts-2603';

/** The reads, over HTTP for the standalone server and through the gateway in-process. */
interface Reads {
  page(query?: { after?: number; limit?: number }): Promise<{ requests: JournalEntry[]; last_seq: number }>;
  entry(seq: number): Promise<JournalEntry | undefined>;
  audio(seq: number): Promise<{ contentType: string; bytes: Uint8Array } | undefined>;
}

function readsOf(mock: RunningMode): Reads {
  const admin = mock.adminUrl;
  if (admin === undefined) {
    const { journal } = mock.gateway;
    return {
      page: async (query = {}) => ({
        requests: query.after === undefined && query.limit === undefined ? journal.list() : journal.after(query.after ?? 0, query.limit),
        last_seq: journal.lastSeq,
      }),
      entry: async (seq) => journal.get(seq),
      // None is a 404 GatewayError, as over HTTP: both read as `undefined` here.
      audio: (seq) =>
        mock.gateway.audioOf(seq).catch((error: unknown) => {
          if (error instanceof GatewayError && error.status === 404) return undefined;
          throw error;
        }),
    };
  }
  return {
    async page(query = {}) {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const res = await fetch(`${admin}/__mock/requests${params.size > 0 ? `?${params}` : ''}`);
      expect(res.status).toBe(200);
      return (await res.json()) as { requests: JournalEntry[]; last_seq: number };
    },
    async entry(seq) {
      const res = await fetch(`${admin}/__mock/requests/${seq}`);
      if (res.status === 404) return undefined;
      expect(res.status).toBe(200);
      return (await res.json()) as JournalEntry;
    },
    async audio(seq) {
      const res = await fetch(`${admin}/__mock/requests/${seq}/audio`);
      if (res.status === 404) return undefined;
      expect(res.status).toBe(200);
      return { contentType: res.headers.get('content-type')!, bytes: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}

function speech(base: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return postSpeech(base, { model: TTS, voice: 'alloy', ...body }, { ...auth(), ...headers });
}

/** The bytes of a body, read until it ends or fails; `failed` says whether it failed. */
async function readAll(res: Response): Promise<{ bytes: Uint8Array; failed: boolean }> {
  const chunks: Uint8Array[] = [];
  let failed = false;
  try {
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch {
    failed = true;
  }
  return { bytes: Buffer.concat(chunks), failed };
}

/** The journal entry `seq` once its body ended (the server learns of it when the socket closes). */
async function ended(mock: RunningMode, seq: number): Promise<JournalEntry> {
  for (let i = 0; i < 500; i++) {
    const entry = await mock.gateway.sharedJournal.get(seq);
    if (entry?.body_end != null) return entry;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`journal entry ${seq} never ended: ${JSON.stringify(await mock.gateway.sharedJournal.get(seq))}`);
}

for (const mode of modes as Mode[]) {
  describe(modeTitle('journal reads', mode), () => {
    let mock: RunningMode;
    let reads: Reads;
    beforeAll(async () => {
      mock = await mode.start({ seed: 11, journalSize: 50 });
      reads = readsOf(mock);
      await mock.gateway.warmUp();
    });
    afterAll(() => mock.stop());

    it('pages through the journal: seq > after, oldest first, at most limit; last_seq is the highest seq assigned', async () => {
      mock.gateway.reset();
      const first = (await mock.gateway.sharedJournal.lastSeq());
      for (let i = 1; i <= 5; i++) await (await fetch(`${mock.baseUrl}/generation?id=gen-page-${i}`, { headers: auth() })).arrayBuffer();
      const seqs = (page: { requests: JournalEntry[] }) => page.requests.map((e) => e.seq - first);
      const all = await reads.page();
      expect(seqs(all)).toEqual([1, 2, 3, 4, 5]);
      expect(all.last_seq).toBe(first + 5);
      expect(seqs(await reads.page({ after: first, limit: 2 }))).toEqual([1, 2]);
      expect(seqs(await reads.page({ after: first + 2, limit: 2 }))).toEqual([3, 4]);
      expect(seqs(await reads.page({ after: first + 4 }))).toEqual([5]);
      const none = await reads.page({ after: first + 5, limit: 10 });
      expect(none).toEqual({ requests: [], last_seq: first + 5 });
      // A reset clears the journal but sequence numbers keep counting.
      mock.gateway.reset();
      expect(await reads.page({ after: 0 })).toEqual({ requests: [], last_seq: first + 5 });
    });

    it('reads one entry by seq; none for a seq never made or dropped by the bound', async () => {
      await (await fetch(`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: auth() })).arrayBuffer();
      const seq = (await mock.gateway.sharedJournal.lastSeq());
      const entry = await reads.entry(seq);
      expect(entry).toMatchObject({ seq, operation: 'model', status: 200, body_end: 'complete', error: null, audio: null });
      expect(entry!.response_bytes).toBeGreaterThan(100);
      expect(await reads.entry(seq + 1)).toBeUndefined();
      // journalSize 50: 50 more requests drop it.
      for (let i = 0; i < 50; i++) await (await fetch(`${mock.baseUrl}/generation?id=gen-drop-${i}`, { headers: auth() })).arrayBuffer();
      expect(await reads.entry(seq)).toBeUndefined();
      expect(await reads.entry(seq + 1)).toMatchObject({ seq: seq + 1 });
    });

    it('a complete speech answer: response_bytes are the bytes received, body_end complete, audio says what was rendered', async () => {
      const res = await speech(mock.baseUrl, { input: 'The whole answer.', response_format: 'mp3', speed: 1.5 });
      const { bytes, failed } = await readAll(res);
      expect(failed).toBe(false);
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry).toMatchObject({
        status: 200,
        response_bytes: bytes.byteLength,
        body_end: 'complete',
        error: null,
        audio: { format: 'mp3', content_type: 'audio/mpeg', voice: 'alloy', speed: 1.5 },
      });
      expect(entry.audio!.duration_ms).toBeGreaterThan(500);
      expect(entry.duration_ms).toEqual(expect.any(Number));
      expect(await reads.entry(entry.seq)).toEqual(entry);
    });

    it('records speed 1 for a model that ignores speed, and pcm by default', async () => {
      const res = await speech(mock.baseUrl, { model: IGNORES_SPEED, voice: 'en_paul_neutral', input: 'No hurry.', speed: 2 });
      await res.arrayBuffer();
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry.audio).toMatchObject({ format: 'pcm', content_type: 'audio/pcm;rate=24000;channels=1', voice: 'en_paul_neutral', speed: 1 });
    });

    it('truncated-audio: body_end cut, response_bytes the bytes before the cut, and still status 200', async () => {
      const res = await speech(mock.baseUrl, { input: 'Cut me in half, please, right in the middle.', response_format: 'mp3' }, { 'X-Mock-Scenario': 'truncated-audio' });
      expect(res.status).toBe(200);
      const { bytes, failed } = await readAll(res);
      // msw 3 ends a mocked body cleanly when its stream errors (`docs/scenarios.md`, "Truncated audio in-process under msw 3").
      expect(failed).toBe(!(mode.name === 'msw' && MSW_MAJOR >= 3));
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry).toMatchObject({ status: 200, scenario: 'truncated-audio', body_end: 'cut', response_bytes: bytes.byteLength, error: null });
      expect(entry.audio).toMatchObject({ format: 'mp3' });
      // truncate: 0.5 of the whole body.
      const whole = await reads.audio(entry.seq);
      expect(bytes.byteLength).toBe(Math.floor(whole!.bytes.byteLength * 0.5));
    });

    it('connection-reset: status 0, body_end reset, no bytes', async () => {
      await expect(speech(mock.baseUrl, { input: 'Never answered.' }, { 'X-Mock-Scenario': 'connection-reset' })).rejects.toThrow();
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry).toMatchObject({ status: 0, body_end: 'reset', response_bytes: 0, error: null, audio: null });
    });

    it('records the error envelope of an error answer; not a raw HTML body', async () => {
      const res = await fetch(`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: { ...auth(), 'X-Mock-Status': '429' } });
      const text = await res.text();
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry.error).toEqual(JSON.parse(text));
      expect(entry.error).toMatchObject({ error: { code: 429, message: 'Rate limit exceeded', metadata: { error_type: 'rate_limit_exceeded' } } });
      expect(entry).toMatchObject({ status: 429, body_end: 'complete', response_bytes: Buffer.byteLength(text) });

      const html = await fetch(`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: { ...auth(), 'X-Mock-Scenario': 'edge-timeout-html' } });
      expect(html.status).toBe(524);
      const page = await html.text();
      const htmlEntry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(htmlEntry).toMatchObject({ status: 524, error: null, body_end: 'complete', response_bytes: Buffer.byteLength(page) });
    });

    it.each(['mp3', 'pcm'] as const)('renders the audio of a speech 200 again, byte for byte (%s)', async (format) => {
      const res = await speech(mock.baseUrl, { input: `Say it again in ${format}.`, response_format: format, voice: 'nova' });
      const original = new Uint8Array(await res.arrayBuffer());
      const seq = (await ended(mock, (await mock.gateway.sharedJournal.lastSeq()))).seq;
      const again = await reads.audio(seq);
      expect(again?.contentType).toBe(res.headers.get('content-type'));
      expect(Buffer.compare(Buffer.from(again!.bytes), Buffer.from(original))).toBe(0);
    });

    it('no audio for an entry that is not a speech 200, or whose body was not kept (over 64 KiB)', async () => {
      await (await fetch(`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: auth() })).arrayBuffer();
      expect(await reads.audio((await mock.gateway.sharedJournal.lastSeq()))).toBeUndefined();
      await (await speech(mock.baseUrl, { input: 'x', voice: 'nobody' })).arrayBuffer();
      expect(mock.gateway.journal.last()?.status).toBe(400);
      expect(await reads.audio((await mock.gateway.sharedJournal.lastSeq()))).toBeUndefined();
      // Unknown fields are ignored by the gateway, so a 200 can have a body too large to keep.
      const big = await speech(mock.baseUrl, { input: 'Big body.', padding: 'x'.repeat(70_000) });
      expect(big.status).toBe(200);
      await big.arrayBuffer();
      const entry = await ended(mock, (await mock.gateway.sharedJournal.lastSeq()));
      expect(entry.body).toMatch(/^<\d+ bytes, not kept>$/);
      expect(entry.audio).not.toBeNull();
      expect(await reads.audio(entry.seq)).toBeUndefined();
      expect(await reads.audio((await mock.gateway.sharedJournal.lastSeq()) + 10)).toBeUndefined();
      // In-process, the 404 names why, as the admin API's envelope does.
      await expect(mock.gateway.audioOf(entry.seq)).rejects.toMatchObject({ status: 404, message: `Journal entry ${entry.seq} did not keep its request body (over 64 KiB), so its audio cannot be rendered again` });
      const none = (await mock.gateway.sharedJournal.lastSeq()) + 10;
      await expect(mock.gateway.audioOf(none)).rejects.toMatchObject({ status: 404, message: `No journal entry ${none}` });
    });
  });
}

describe('standalone: the admin API answers of the journal reads', () => {
  let server: RunningServer;
  const admin = adminFetch(() => server);
  async function envelope(res: Response, status: number): Promise<string> {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(status);
    return body.error.message;
  }
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 2 });
  });
  afterAll(() => server.close());

  it('GET requests keeps its filters with paging, and answers last_seq without paging too', async () => {
    for (const status of ['429', '503', '429']) await (await fetch(`${server.baseUrl}/model/a/b`, { headers: { ...auth(), 'X-Mock-Status': status } })).arrayBuffer();
    await (await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: auth() })).arrayBuffer();
    const all = (await (await admin('requests')).json()) as { requests: JournalEntry[]; last_seq: number };
    expect(all.requests.map((e) => e.status)).toEqual([429, 503, 429, 200]);
    expect(all.last_seq).toBe(4);
    const page = (await (await admin('requests?status=429&after=1&limit=5')).json()) as { requests: JournalEntry[]; last_seq: number };
    expect(page.requests.map((e) => e.seq)).toEqual([3]);
    expect(page.last_seq).toBe(4);
    // Without after, limit gives the newest entries (oldest first among them); with after, it pages forward.
    const seqs = async (query: string) => ((await (await admin(`requests?${query}`)).json()) as { requests: JournalEntry[] }).requests.map((e) => e.seq);
    expect(await seqs('limit=1')).toEqual([4]);
    expect(await seqs('limit=3')).toEqual([2, 3, 4]);
    expect(await seqs('limit=10')).toEqual([1, 2, 3, 4]);
    expect(await seqs('status=429&limit=1')).toEqual([3]);
    expect(await seqs('after=0&limit=2')).toEqual([1, 2]);
    expect(await seqs('after=2&limit=1')).toEqual([3]);
  });

  it.each([
    ['requests?after=-1', /^after: expected a whole number ≥ 0/],
    ['requests?after=abc', /^after: expected a whole number ≥ 0 .*got "abc"/],
    ['requests?limit=0', /^limit: expected a whole number from 1 to 1000, got "0"/],
    ['requests?limit=1001', /^limit: expected a whole number from 1 to 1000, got "1001"/],
    ['requests?limit=2.5', /^limit: /],
    ['requests/abc', /^seq: expected a whole number ≥ 1, got "abc"/],
    ['requests/abc/audio', /^seq: /],
  ])('GET %s: a 400 envelope naming the parameter', async (path, message) => {
    expect(await envelope(await admin(path), 400)).toMatch(message);
  });

  it('GET requests/<seq> and its audio: 404 envelopes saying why', async () => {
    expect(await envelope(await admin('requests/999'), 404)).toBe('No journal entry 999');
    expect(await envelope(await admin('requests/999/audio'), 404)).toBe('No journal entry 999');
    await (await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: auth() })).arrayBuffer();
    const seq = server.gateway.journal.lastSeq;
    expect(await envelope(await admin(`requests/${seq}/audio`), 404)).toBe(`Journal entry ${seq} is not a speech answer with status 200`);
    const big = await speech(server.baseUrl, { input: 'Big body.', padding: 'y'.repeat(70_000) });
    await big.arrayBuffer();
    expect(await envelope(await admin(`requests/${server.gateway.journal.lastSeq}/audio`), 404)).toMatch(/did not keep its request body \(over 64 KiB\)/);
    expect((await admin(`requests/${seq}`)).status).toBe(200);
    const wrongMethod = await admin(`requests/${seq}`, { method: 'DELETE' });
    expect(await envelope(wrongMethod, 405)).toMatch(/use GET/);
  });

  it('GET requests/<seq>/audio serves the audio with its content type', async () => {
    const res = await speech(server.baseUrl, { input: 'Play it back.', response_format: 'pcm' });
    const original = Buffer.from(await res.arrayBuffer());
    const seq = server.gateway.journal.lastSeq;
    const again = await admin(`requests/${seq}/audio`);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
    expect(Buffer.from(await again.arrayBuffer()).equals(original)).toBe(true);
  });

  it('GET scenarios/<name>: the scenario with its rules as loaded; 404 for an unknown name', async () => {
    const res = await admin('scenarios/truncated-audio');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; description: string; source: string; rules: unknown[] };
    expect(body).toMatchObject({ name: 'truncated-audio', rules: [{ name: 'truncated-audio', match: { operation: 'speech' }, audio: { truncate: 0.5 } }] });
    expect(body.description).toEqual(expect.any(String));
    // Relative to the package: no absolute path of the machine.
    expect(body.source).toBe('scenarios/truncated-audio.yaml');
    expect(Object.keys(body)).toEqual(['name', 'description', 'source', 'rules']);
    expect(await envelope(await admin('scenarios/nope'), 404)).toMatch(/^No scenario "nope"; loaded scenarios: bad-gateway, /);
    // A default set by a definition is shown too, with no source.
    const put = await admin('scenario', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario: { name: 'teapot', rules: [{ error: { status: 418 } }] } }),
    });
    expect(put.status).toBe(200);
    const teapot = (await (await admin('scenarios/teapot')).json()) as { source: string | null; rules: unknown[] };
    expect(teapot).toMatchObject({ source: null, rules: [{ error: { status: 418 } }] });
    await admin('scenario', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"name":null}' });
  });

  it('GET scenarios shows each built-in source relative to the package, and a user file as it was given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-sources-'));
    writeFileSync(join(dir, 'teapot.yaml'), 'name: teapot\nrules:\n  - error: { status: 418 }\n');
    const withOwn = await startServer({ port: 0, scenarios: [dir] });
    try {
      const list = (await (await fetch(`${withOwn.url}/__mock/scenarios`)).json()) as { scenarios: { name: string; source: string }[] };
      const sources = Object.fromEntries(list.scenarios.map((s) => [s.name, s.source]));
      expect(sources['rate-limited']).toBe('scenarios/rate-limited.yaml');
      for (const [name, source] of Object.entries(sources)) if (name !== 'teapot') expect(source).toMatch(/^scenarios\/[a-z0-9-]+\.yaml$/);
      expect(sources.teapot).toBe(join(dir, 'teapot.yaml'));
      const text = JSON.stringify(list);
      expect(text).not.toContain(fileURLToPath(new URL('../', import.meta.url)));
      const detail = (await (await fetch(`${withOwn.url}/__mock/scenarios/teapot`)).json()) as { source: string };
      expect(detail.source).toBe(join(dir, 'teapot.yaml'));
    } finally {
      await withOwn.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GET auth says whether the request may use the admin API, 200 also without the token (no 401 for the dashboard)', async () => {
    expect(await (await admin('auth')).json()).toEqual({ authorized: true, token_required: false });
    const guarded = await startServer({ port: 0, adminToken: 'auth-token' });
    try {
      const res = await fetch(`${guarded.url}/__mock/auth`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ authorized: false, token_required: true });
      const signed = await fetch(`${guarded.url}/__mock/auth`, { headers: { Authorization: 'Bearer auth-token' } });
      expect(await signed.json()).toEqual({ authorized: true, token_required: true });
      // Only the token's 401 becomes an answer: the other routes still want it, and other refusals stay refusals.
      expect((await fetch(`${guarded.url}/__mock/requests`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/__mock/auth`, { method: 'POST' })).status).toBe(401);
      const foreignHost = await rawHttp(`${guarded.url}/__mock/auth`, { headers: { Host: 'evil.example' } });
      expect(foreignHost.status).toBe(403);
      const otherSite = await fetch(`${guarded.url}/__mock/auth`, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
      expect(otherSite.status).toBe(403);
    } finally {
      await guarded.close();
    }
  });

  it('the index and the 404 of an unknown admin path list the new endpoints', async () => {
    const index = (await (await fetch(`${server.url}/`)).json()) as { admin: string[] };
    for (const endpoint of ['GET /__mock/auth', 'GET /__mock/requests/{seq}', 'GET /__mock/requests/{seq}/audio', 'GET /__mock/scenarios/{name}', 'GET /__mock/events', 'POST /__mock/login']) {
      expect(index.admin).toContain(endpoint);
    }
    expect(await envelope(await admin('requests/1/nothing'), 404)).toContain('GET /__mock/events');
  });
});
