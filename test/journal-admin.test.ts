/**
 * The control surface: per-request headers (`X-Mock-Status`, `X-Mock-Scenario`, `X-Mock-Session`), what a
 * response says was applied, the journal (in-process `mock.journal`) and the standalone admin API under
 * `/__mock/`.
 */
import { setupServer, type SetupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockRouter, GatewayError, ScenarioError, STATUS_DEFAULTS, type JournalEntry, type MockRouter } from '../src/index.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { adminFetch } from './support/admin.js';
import { rawHttp } from './support/raw-http.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const SECRET = 'sk-or-v1-journal-secret-0123456789abcdef';
const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';
const BUILTINS = [
  'bad-gateway', 'bad-request', 'connection-reset', 'edge-timeout', 'edge-timeout-html', 'generation-pending',
  'insufficient-credits', 'not-found', 'overloaded-then-ok', 'payload-too-large', 'provider-overloaded', 'provider-requirement',
  'rate-limited', 'rate-limited-then-ok', 'server-error', 'service-unavailable', 'slow-audio', 'truncated-audio', 'unauthorized',
];

type Op = 'speech' | 'model' | 'generation';

/** One request of `op` against `base`, with `headers` (plus a bearer key unless given). */
function request(base: string, op: Op, headers: Record<string, string> = {}): Promise<Response> {
  const all = { ...auth(), ...headers };
  if (op === 'speech') {
    return postSpeech(base, { model: TTS, input: 'Journal me.', voice: 'alloy' }, all);
  }
  if (op === 'model') return fetch(`${base}/model/openai/gpt-4o-mini`, { headers: all });
  return fetch(`${base}/generation?id=${FIXTURE_GENERATION}`, { headers: all });
}

/** Statuses of `ops` in order, read to the end. */
async function statuses(base: string, ops: Op[], headers: Record<string, string> = {}): Promise<number[]> {
  const out: number[] = [];
  for (const op of ops) {
    const res = await request(base, op, headers);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

async function envelope(res: Response): Promise<{ error: { code: number; message: string; metadata: Record<string, unknown> | null } }> {
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { error: { code: number; message: string; metadata: Record<string, unknown> | null } };
  expect(body.error.code).toBe(res.status);
  return body;
}

/**
 * Statuses undici's fetch handles itself instead of returning them: 407 becomes a network error (the Fetch
 * standard reserves it for proxy authentication), and 421 is retried on a new connection, which fails for a request
 * whose body was already sent. Over a socket that is any real client; in-process msw 2 hands fetch the response as
 * is, while msw 3 intercepts at the socket, so undici sees these too.
 */
const FETCH_HANDLED = new Set([407, 421]);

/**
 * Every status from 400 to 599 on every operation answers with that status, its envelope and X-Mock-Applied.
 * `journal` is the gateway's: where fetch cannot show a {@link FETCH_HANDLED} status, the journal must.
 */
async function sweepStatuses(base: string, journal: MockRouter['journal']): Promise<void> {
  const failures: string[] = [];
  const check = async (status: number, op: Op) => {
    const headers = { 'X-Mock-Status': String(status) };
    let got: { status: number; type: string | null; applied: string | null; text: string };
    try {
      if (status === 407 && base.startsWith('http://')) {
        // Over a socket, undici's fetch turns any 407 into a network error ("fetch failed"), as the Fetch standard
        // reserves 407 for proxy authentication; so read this one with node:http. (In-process, msw hands fetch the
        // 407 response as is.)
        const all = { ...auth(), ...headers, 'Content-Type': 'application/json' };
        const url = op === 'speech' ? `${base}/audio/speech` : op === 'model' ? `${base}/model/openai/gpt-4o-mini` : `${base}/generation?id=${FIXTURE_GENERATION}`;
        const raw = await rawHttp(url, { method: op === 'speech' ? 'POST' : 'GET', headers: all, body: op === 'speech' ? JSON.stringify({ model: TTS, input: 'x', voice: 'alloy' }) : undefined });
        got = { status: raw.status, type: String(raw.headers['content-type']), applied: String(raw.headers['x-mock-applied']), text: raw.text };
      } else {
        const res = await request(base, op, headers);
        got = { status: res.status, type: res.headers.get('content-type'), applied: res.headers.get('x-mock-applied'), text: await res.text() };
      }
    } catch (error) {
      const answered = journal.list({ operation: op, status }).some((e) => e.response_headers['X-Mock-Applied'] === `x-mock-status/${status}`);
      if (!FETCH_HANDLED.has(status) || !answered) failures.push(`${op} ${status}: ${String(error)}`);
      return;
    }
    let code: unknown;
    try {
      code = (JSON.parse(got.text) as { error: { code: unknown } }).error.code;
    } catch {
      code = `not JSON: ${got.text.slice(0, 40)}`;
    }
    if (got.status !== status || code !== status || got.applied !== `x-mock-status/${status}` || got.type !== 'application/json') {
      failures.push(`${op} ${status}: got ${got.status}, code ${String(code)}, ${got.type}, X-Mock-Applied ${got.applied}`);
    }
  };
  for (let status = 400; status <= 599; status += 20) {
    const batch: Promise<void>[] = [];
    for (let s = status; s < status + 20; s++) for (const op of ['speech', 'model', 'generation'] as const) batch.push(check(s, op));
    await Promise.all(batch);
  }
  expect(failures).toEqual([]);
}

describe('in-process: headers, journal, reset', () => {
  let mock: MockRouter;
  let server: SetupServer;
  const BASE = 'https://openrouter.ai/api/v1';

  beforeAll(() => {
    mock = createMockRouter({ seed: 4, now: () => NOW, scenario: 'overloaded-then-ok' });
    server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
  });
  afterEach(() => mock.reset());
  afterAll(() => server.close());

  it('records every request: time, session, method, path, query, redacted headers, JSON body, scenario, rule, status, duration', async () => {
    mock.useScenario(null);
    const speech = await request(BASE, 'speech', { ...auth(SECRET), 'X-Mock-Session': 'journal-1', 'X-Api-Key': SECRET });
    await speech.arrayBuffer();
    await (await request(BASE, 'model', auth(SECRET))).arrayBuffer();
    await (await request(BASE, 'generation', { ...auth(SECRET), 'X-Mock-Status': '503' })).arrayBuffer();
    await (await fetch(`${BASE}/nothing/here?x=1`, { headers: auth(SECRET) })).arrayBuffer();

    const entries = mock.journal.list();
    expect(entries).toHaveLength(4);
    const [s, m, g, unknown] = entries as [JournalEntry, JournalEntry, JournalEntry, JournalEntry];
    for (const e of entries) {
      expect(e.time).toBe(NOW);
      expect(e.time_iso).toBe('2026-01-02T03:04:05.000+00:00');
      expect(e.headers.authorization).toBe('Bearer [redacted]');
      expect(e.duration_ms).toEqual(expect.any(Number));
      expect(e.duration_ms!).toBeGreaterThanOrEqual(0);
    }
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b));

    expect(s).toMatchObject({
      session: 'journal-1',
      method: 'POST',
      path: '/api/v1/audio/speech',
      query: {},
      body: { model: TTS, input: 'Journal me.', voice: 'alloy' },
      operation: 'speech',
      scenario: null,
      rule: null,
      status: 200,
      generation_id: speech.headers.get('x-generation-id'),
    });
    expect(s.headers['x-api-key']).toBe('[redacted]');
    expect(s.headers['x-mock-session']).toBe('journal-1');
    expect(s.headers['content-type']).toBe('application/json');

    expect(m).toMatchObject({ method: 'GET', path: '/api/v1/model/openai/gpt-4o-mini', query: {}, body: null, operation: 'model', status: 200, generation_id: null });
    // Without X-Mock-Session, the session is derived from the key, never the key itself.
    expect(m.session).toMatch(/^key-[0-9a-f]{12}$/);

    expect(g).toMatchObject({ path: '/api/v1/generation', query: { id: FIXTURE_GENERATION }, operation: 'generation', scenario: 'x-mock-status', rule: '503', status: 503 });
    expect(g.headers['x-mock-status']).toBe('503');
    expect(unknown).toMatchObject({ path: '/api/v1/nothing/here', query: { x: '1' }, operation: null, status: 404 });

    // The key appears nowhere in the journal.
    expect(JSON.stringify(mock.journal.list())).not.toContain(SECRET);
    expect(JSON.stringify([...mock.journal])).not.toContain(SECRET);
    expect(JSON.stringify(mock.journal.list())).not.toContain('journal-secret');
  });

  it('filters by operation, status and session', async () => {
    mock.useScenario(null);
    await statuses(BASE, ['model', 'generation'], { 'X-Mock-Session': 'f-a' });
    await statuses(BASE, ['model'], { 'X-Mock-Session': 'f-b', 'X-Mock-Status': '429' });
    await statuses(BASE, ['speech', 'model'], { 'X-Mock-Session': 'f-b' });
    await (await fetch(`${BASE}/nowhere`, { headers: auth() })).arrayBuffer();
    const seqs = (list: JournalEntry[]) => list.map((e) => `${e.session}:${e.operation}:${e.status}`);
    expect(seqs(mock.journal.list({ operation: 'model' }))).toEqual(['f-a:model:200', 'f-b:model:429', 'f-b:model:200']);
    expect(seqs(mock.journal.list({ status: 429 }))).toEqual(['f-b:model:429']);
    expect(seqs(mock.journal.list({ session: 'f-b' }))).toEqual(['f-b:model:429', 'f-b:speech:200', 'f-b:model:200']);
    expect(seqs(mock.journal.list({ session: 'f-b', operation: 'model', status: 200 }))).toEqual(['f-b:model:200']);
    expect(mock.journal.list({ operation: null }).map((e) => e.path)).toEqual(['/api/v1/nowhere']);
    expect(mock.journal.last()?.path).toBe('/api/v1/nowhere');
  });

  it('X-Mock-Status: a bad status is a 400 envelope saying what is expected', async () => {
    for (const bad of ['abc', '200', '302', '600', '42', '4044', '']) {
      const res = await request(BASE, 'model', { 'X-Mock-Status': bad });
      expect(res.status, `X-Mock-Status: "${bad}"`).toBe(400);
      const { error } = await envelope(res);
      expect(error.message).toBe(`X-Mock-Status: expected an HTTP error status from 400 to 599, got "${bad}"`);
      expect(res.headers.get('x-mock-applied')).toBeNull();
    }
  });

  it('an unknown scenario name is a 400 envelope listing the loaded scenarios', async () => {
    const res = await request(BASE, 'speech', { 'X-Mock-Scenario': 'no-such-thing' });
    expect(res.status).toBe(400);
    const { error } = await envelope(res);
    expect(error.message).toBe(`X-Mock-Scenario: unknown scenario "no-such-thing"; loaded scenarios: ${BUILTINS.join(', ')}`);
  });

  it('X-Mock-Applied names <scenario>/<rule>, rule-<n> for unnamed rules; unmatched requests get none', async () => {
    const chosen = mock.useScenario({
      name: 'applied',
      rules: [
        { match: { operation: 'model' }, error: { status: 418 } },
        { name: 'gen-451', match: { operation: 'generation' }, error: { status: 451, message: 'Unavailable here' } },
      ],
    });
    // The scenario set, validated, as the gateway's useScenario returns it.
    expect(await chosen).toMatchObject({ name: 'applied', rules: [{ error: { status: 418 } }, { name: 'gen-451' }] });
    expect(mock.gateway.scenarios.defaultScenario).toBe(await chosen);
    const model = await request(BASE, 'model');
    expect(model.status).toBe(418);
    expect(model.headers.get('x-mock-applied')).toBe('applied/rule-1');
    const generation = await request(BASE, 'generation');
    expect(generation.status).toBe(451);
    expect(generation.headers.get('x-mock-applied')).toBe('applied/gen-451');
    expect((await envelope(generation)).error.message).toBe('Unavailable here');
    const speech = await request(BASE, 'speech');
    expect(speech.status).toBe(200);
    expect(speech.headers.get('x-mock-applied')).toBeNull();
    await speech.arrayBuffer();
    expect(mock.journal.list().map((e) => [e.scenario, e.rule])).toEqual([['applied', 'rule-1'], ['applied', 'gen-451'], [null, null]]);
  });

  it('the request header wins over the default scenario; X-Mock-Status wins over X-Mock-Scenario', async () => {
    mock.useScenario('server-error');
    expect(await statuses(BASE, ['model'])).toEqual([500]);
    const byScenario = await request(BASE, 'model', { 'X-Mock-Scenario': 'not-found' });
    expect(byScenario.status).toBe(404);
    expect(byScenario.headers.get('x-mock-applied')).toBe('not-found/not-found');
    const byStatus = await request(BASE, 'model', { 'X-Mock-Status': '402' });
    expect(byStatus.status).toBe(402);
    expect((await envelope(byStatus)).error.message).toBe(STATUS_DEFAULTS[402]!.message);
    const both = await request(BASE, 'model', { 'X-Mock-Status': '503', 'X-Mock-Scenario': 'not-found' });
    expect(both.status).toBe(503);
    expect(both.headers.get('x-mock-applied')).toBe('x-mock-status/503');
  });

  it('reset() clears counters and the journal and returns to the initial default scenario', async () => {
    // The initial default (option `scenario`) is overloaded-then-ok.
    expect(await statuses(BASE, ['model', 'model', 'model'])).toEqual([529, 529, 200]);
    // Header-selected scenarios count too.
    expect(await statuses(BASE, ['generation', 'generation', 'generation'], { 'X-Mock-Scenario': 'rate-limited-then-ok' })).toEqual([429, 429, 200]);
    mock.useScenario('not-found');
    expect(mock.journal.size).toBe(6);
    mock.reset();
    expect(mock.journal.size).toBe(0);
    expect(mock.journal.list()).toEqual([]);
    expect(await statuses(BASE, ['model', 'model', 'model'])).toEqual([529, 529, 200]);
    expect(await statuses(BASE, ['generation'], { 'X-Mock-Scenario': 'rate-limited-then-ok' })).toEqual([429]);
  });

  it('useScenario() restarts the counters', async () => {
    mock.useScenario('rate-limited-then-ok');
    expect(await statuses(BASE, ['model', 'model', 'model'])).toEqual([429, 429, 200]);
    mock.useScenario('rate-limited-then-ok');
    expect(await statuses(BASE, ['model'])).toEqual([429]);
  });

  it('useScenario() rejects an unknown name (listing the loaded ones) and an invalid definition (naming the path)', () => {
    let error: unknown;
    try {
      mock.useScenario('nope');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toBe(`useScenario(): unknown scenario "nope"; loaded scenarios: ${BUILTINS.join(', ')}`);
    expect(() => mock.useScenario({ name: 'bad', rules: [{ error: { status: 200 } }] })).toThrow(ScenarioError);
    expect(() => mock.useScenario({ name: 'bad', rules: [{ error: { status: 200 } }] })).toThrow(/^useScenario\(\): rules\[0\]\.error\.status: .*400/);
    expect(() => mock.useScenario({ name: 'bad', rules: [] })).toThrow(/^useScenario\(\): rules: .*1/);
    // A failed call leaves the previous default in place.
    expect(mock.gateway.scenarios.defaultScenario?.name).toBe('overloaded-then-ok');
  });

  it('is bounded: journalSize 5 keeps the last 5 requests', async () => {
    const small = createMockRouter({ journalSize: 5 });
    // A second handler set on the same msw server, ahead of the first; msw uses the first that answers.
    server.use(...small.handlers);
    try {
      for (let i = 1; i <= 8; i++) await (await fetch(`${BASE}/generation?id=gen-${i}`, { headers: auth() })).arrayBuffer();
    } finally {
      server.resetHandlers();
    }
    expect(small.journal.size).toBe(5);
    expect(small.journal.list().map((e) => e.query.id)).toEqual(['gen-4', 'gen-5', 'gen-6', 'gen-7', 'gen-8']);
    expect(small.journal.list().map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(mock.journal.size).toBe(0);
  });
});

describe('standalone: admin API under /__mock/', () => {
  let server: RunningServer;
  const admin = adminFetch(() => server);
  const put = (body: unknown) => admin('scenario', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const journal = async (query = '') => ((await (await admin(`requests${query}`)).json()) as { requests: JournalEntry[] }).requests;

  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 4 });
  });
  afterEach(async () => {
    await admin('reset', { method: 'POST' });
  });
  afterAll(() => server.close());

  it('GET health', async () => {
    const res = await admin('health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET requests with filters; admin requests are not journaled; the key never appears', async () => {
    await statuses(server.baseUrl, ['speech', 'model'], { ...auth(SECRET), 'X-Mock-Session': 'adm-a' });
    await statuses(server.baseUrl, ['generation'], { ...auth(SECRET), 'X-Mock-Session': 'adm-b', 'X-Mock-Status': '502' });
    await (await fetch(`${server.baseUrl}/nope`, { headers: auth(SECRET) })).arrayBuffer();
    await admin('health');
    await admin('scenarios');

    const res = await admin('requests');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const all = (JSON.parse(text) as { requests: JournalEntry[] }).requests;
    expect(all.map((e) => [e.operation, e.status])).toEqual([['speech', 200], ['model', 200], ['generation', 502], [null, 404]]);
    expect(all[0]).toMatchObject({ session: 'adm-a', method: 'POST', body: { model: TTS }, headers: { authorization: 'Bearer [redacted]' } });
    expect(all[2]).toMatchObject({ scenario: 'x-mock-status', rule: '502', query: { id: FIXTURE_GENERATION } });
    expect(all.every((e) => typeof e.time === 'number' && typeof e.duration_ms === 'number')).toBe(true);

    expect((await journal('?operation=model')).map((e) => e.operation)).toEqual(['model']);
    expect((await journal('?status=502')).map((e) => e.status)).toEqual([502]);
    expect((await journal('?session=adm-a')).map((e) => e.operation)).toEqual(['speech', 'model']);
    expect((await journal('?session=adm-a&operation=speech&status=200')).map((e) => e.operation)).toEqual(['speech']);
    expect((await journal('?operation=none')).map((e) => e.path)).toEqual(['/api/v1/nope']);
    expect(await journal('?session=nobody')).toEqual([]);

    const badOperation = await admin('requests?operation=chat');
    expect(badOperation.status).toBe(400);
    expect((await envelope(badOperation)).error.message).toMatch(/^operation: expected speech, transcription, model, generation, models, models-count, endpoints, key, credits, speech-models, speech-model or none/);
    const badStatus = await admin('requests?status=abc');
    expect(badStatus.status).toBe(400);
    expect((await envelope(badStatus)).error.message).toMatch(/^status: expected an HTTP status code/);
  });

  it('DELETE requests clears the journal', async () => {
    await statuses(server.baseUrl, ['model', 'model']);
    expect(await journal()).toHaveLength(2);
    const res = await admin('requests', { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await journal()).toEqual([]);
    await statuses(server.baseUrl, ['model']);
    expect(await journal()).toHaveLength(1);
  });

  it('GET scenarios lists the built-ins and the default', async () => {
    const res = await admin('scenarios');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { default: string | null; scenarios: { name: string; description: string | null; rules: number; source: string }[] };
    expect(body.default).toBeNull();
    expect(body.scenarios.map((s) => s.name).sort()).toEqual(BUILTINS);
    for (const s of body.scenarios) {
      expect(s.source).toMatch(new RegExp(`scenarios[\\\\/]${s.name}\\.yaml$`));
      expect(s.description).toEqual(expect.any(String));
      expect(s.rules).toBe(1);
    }
  });

  it('PUT scenario sets, replaces and clears the default; bad input is a 400 saying what exists or what is wrong', async () => {
    const set = await put({ name: 'not-found' });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ default: 'not-found' });
    expect(await statuses(server.baseUrl, ['model', 'speech'])).toEqual([404, 404]);
    expect(((await (await admin('scenarios')).json()) as { default: string }).default).toBe('not-found');

    const custom = await put({ scenario: { name: 'teapot', rules: [{ match: { operation: 'model' }, error: { status: 418, message: 'short and stout' } }] } });
    expect(custom.status).toBe(200);
    expect(await custom.json()).toEqual({ default: 'teapot' });
    const teapot = await request(server.baseUrl, 'model');
    expect(teapot.status).toBe(418);
    expect(teapot.headers.get('x-mock-applied')).toBe('teapot/rule-1');
    expect((await envelope(teapot)).error.message).toBe('short and stout');
    expect(await statuses(server.baseUrl, ['generation'])).toEqual([200]);

    const cleared = await put({ name: null });
    expect(await cleared.json()).toEqual({ default: null });
    expect(await statuses(server.baseUrl, ['model'])).toEqual([200]);

    const unknown = await put({ name: 'no-such' });
    expect(unknown.status).toBe(400);
    expect((await envelope(unknown)).error.message).toBe(`name: unknown scenario "no-such"; loaded scenarios: ${BUILTINS.join(', ')}`);

    const invalid = await put({ scenario: { name: 'broken', rules: [{ error: { status: 700 } }] } });
    expect(invalid.status).toBe(400);
    expect((await envelope(invalid)).error.message).toMatch(/rules\[0\]\.error\.status: .*599/);
    const strict = await put({ scenario: { name: 'broken', rules: [{ eror: { status: 500 } }] } });
    expect(strict.status).toBe(400);
    expect((await envelope(strict)).error.message).toMatch(/rules\[0\].*eror/);

    const notObject = await put(['not-found']);
    expect(notObject.status).toBe(400);
    const noName = await put({ name: 42 });
    expect(noName.status).toBe(400);
    // None of the failures changed the default.
    expect(((await (await admin('scenarios')).json()) as { default: string | null }).default).toBeNull();
  });

  it('POST reset clears counters and the journal', async () => {
    const headers = { 'X-Mock-Scenario': 'overloaded-then-ok', 'X-Mock-Session': 'reset-me' };
    expect(await statuses(server.baseUrl, ['model', 'model', 'model'], headers)).toEqual([529, 529, 200]);
    const res = await admin('reset', { method: 'POST' });
    expect(res.status).toBe(204);
    expect(await journal()).toEqual([]);
    expect(await statuses(server.baseUrl, ['model'], headers)).toEqual([529]);
  });

  it('X-Mock-Status answers any status from 400 to 599 on every operation', async () => {
    await sweepStatuses(server.baseUrl, server.gateway.journal);
    const entries = await journal('?status=599');
    expect(entries.map((e) => e.operation).sort()).toEqual(['generation', 'model', 'speech']);
  });

  it('the openai client with its default retries passes rate-limited-then-ok set by PUT /__mock/scenario', async () => {
    expect((await put({ name: 'rate-limited-then-ok' })).status).toBe(200);
    const openai = new OpenAI({ baseURL: server.baseUrl, apiKey: 'sk-admin-retry' });
    const response = await openai.audio.speech.create({ model: TTS, input: 'Retried over HTTP.', voice: 'alloy' });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const entries = await journal('?operation=speech');
    expect(entries.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(entries.map((e) => e.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    const [a, b, c] = entries.map((e) => e.time) as [number, number, number];
    // Spaced by at least Retry-After (1 s), with a few ms of timer and rounding slack.
    expect(b - a).toBeGreaterThanOrEqual(995);
    expect(c - b).toBeGreaterThanOrEqual(995);
    expect(c - a).toBeLessThan(10_000); // not the 60 s of rate-limited; loose, as a busy machine is slow
  });

  it('is bounded: journalSize 5 keeps the last 5 requests', async () => {
    const small = await startServer({ port: 0, journalSize: 5 });
    try {
      for (let i = 1; i <= 7; i++) await (await fetch(`${small.baseUrl}/generation?id=gen-${i}`, { headers: auth() })).arrayBuffer();
      const body = (await (await fetch(`${small.url}/__mock/requests`)).json()) as { requests: JournalEntry[] };
      expect(body.requests.map((e) => e.query.id)).toEqual(['gen-3', 'gen-4', 'gen-5', 'gen-6', 'gen-7']);
    } finally {
      await small.close();
    }
  });
});

describe('in-process: every status on every operation', () => {
  it('X-Mock-Status answers any status from 400 to 599 on every operation', async () => {
    const mock = createMockRouter();
    const server = setupServer(...mock.handlers);
    server.listen(errorOnUnhandled());
    try {
      await sweepStatuses('https://openrouter.ai/api/v1', mock.journal);
      expect(mock.journal.list({ status: 451 }).map((e) => e.rule)).toEqual(['451', '451', '451']);
    } finally {
      server.close();
    }
  });
});
