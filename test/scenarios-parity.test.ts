/**
 * Every built-in scenario through the three ways of running mockrouter: msw `setupServer`, the standalone server,
 * and `createMiddleware` of `mockrouter/express` mounted in an express 4 app. Each mode first checks the
 * scenario does what its file says (statuses, envelopes, headers, audio); the last block checks all modes gave
 * the same statuses, headers that matter and bodies.
 *
 * A fixed clock makes `X-RateLimit-Reset` and the generation ids' timestamps equal across modes; reset values
 * are still written relative to that clock (`<now+60s>`) so a difference would show.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modes, auth, modeTitle, MSW_MAJOR, MSW_VERSION, mswMiddlewareMode, type Mode, type RunningMode } from './support/modes.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const NOW_S = Math.floor(NOW / 1000);
/** Short, so `slow-audio` (real-time pacing) stays short. */
const INPUT = 'Hi.';
/** A record of `fixtures/generations.json`: always found. */
const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';
const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

type Op = 'speech' | 'model' | 'generation';

/** What a client saw for one request, reduced to what must be equal across modes. */
interface Outcome {
  op: Op;
  /** HTTP status, or `network-error` when `fetch` rejected (no answer at all). */
  status: number | 'network-error';
  /** The headers that matter, lower-case; `null` when absent. */
  headers: Record<string, string | null>;
  /** JSON envelopes parsed (reset values normalised), HTML as text, audio as `{ bytes, sha256 }` (or `{ bytes, error }`). */
  body: unknown;
}

/** Timings of one request, ms (not compared across modes). */
interface Timing {
  headersMs: number;
  totalMs: number;
}

const COMPARED_HEADERS = ['content-type', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-mock-applied', 'x-generation-id'];

/** `X-RateLimit-Reset` (unix ms) relative to the fixed clock, e.g. `<now+60s>`. */
function normaliseReset(value: string): string {
  return /^\d+$/.test(value) ? `<now+${(Number(value) - NOW) / 1000}s>` : value;
}

/** A generation id of the fixed clock's second has its random part replaced, so only its format is compared. */
function normaliseGenerationId(value: string): string {
  return new RegExp(`^gen-tts-${NOW_S}-[A-Za-z0-9]{20}$`).test(value) ? `gen-tts-${NOW_S}-<20 alphanumerics>` : value;
}

function normaliseEnvelope(body: unknown): unknown {
  const headers = (body as { error?: { metadata?: { headers?: Record<string, string> } } }).error?.metadata?.headers;
  if (headers?.['X-RateLimit-Reset'] !== undefined) headers['X-RateLimit-Reset'] = normaliseReset(headers['X-RateLimit-Reset']);
  return body;
}

/** Reads a body chunk by chunk; a read that rejects is recorded, not thrown. */
async function readBody(res: Response): Promise<{ bytes: Uint8Array; error?: unknown }> {
  const chunks: Uint8Array[] = [];
  const reader = res.body!.getReader();
  let error: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (e) {
    error = e;
  }
  return { bytes: Buffer.concat(chunks), ...(error === undefined ? {} : { error }) };
}

async function call(mock: RunningMode, op: Op, headers: Record<string, string>): Promise<{ outcome: Outcome; timing: Timing }> {
  const started = performance.now();
  const request: [string, RequestInit] =
    op === 'speech'
      ? [`${mock.baseUrl}/audio/speech`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ model: TTS, input: INPUT, voice: 'alloy' }) }]
      : op === 'model'
        ? [`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: { ...auth(), ...headers } }]
        : [`${mock.baseUrl}/generation?id=${FIXTURE_GENERATION}`, { headers: { ...auth(), ...headers } }];
  let res: Response;
  try {
    res = await fetch(...request);
  } catch {
    const ms = performance.now() - started;
    return { outcome: { op, status: 'network-error', headers: {}, body: null }, timing: { headersMs: ms, totalMs: ms } };
  }
  const headersMs = performance.now() - started;
  const picked: Record<string, string | null> = {};
  for (const name of COMPARED_HEADERS) picked[name] = res.headers.get(name);
  if (picked['x-ratelimit-reset']) picked['x-ratelimit-reset'] = normaliseReset(picked['x-ratelimit-reset']);
  if (picked['x-generation-id']) picked['x-generation-id'] = normaliseGenerationId(picked['x-generation-id']);
  const contentType = picked['content-type'] ?? '';
  const { bytes, error } = await readBody(res);
  let body: unknown;
  if (contentType.startsWith('application/json')) body = normaliseEnvelope(JSON.parse(Buffer.from(bytes).toString('utf8')));
  else if (contentType.startsWith('text/')) body = Buffer.from(bytes).toString('utf8');
  else body = error === undefined ? { bytes: bytes.byteLength, sha256: sha256Hex(bytes) } : { bytes: bytes.byteLength, error: true };
  return { outcome: { op, status: res.status, headers: picked, body }, timing: { headersMs, totalMs: performance.now() - started } };
}

/** The gateway's envelope of an "every request" scenario. */
interface ErrorCase {
  status: number;
  message: string;
  errorType: string;
  headers?: Record<string, string>;
}

const ERROR_SCENARIOS: Record<string, ErrorCase> = {
  'bad-request': { status: 400, message: 'Invalid request parameters', errorType: 'invalid_request' },
  unauthorized: { status: 401, message: 'User not found.', errorType: 'authentication' },
  'insufficient-credits': { status: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits', errorType: 'payment_required' },
  'not-found': { status: 404, message: 'Resource not found', errorType: 'not_found' },
  'rate-limited': {
    status: 429,
    message: 'Rate limit exceeded',
    errorType: 'rate_limit_exceeded',
    headers: { 'retry-after': '60', 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '<now+60s>' },
  },
  'server-error': { status: 500, message: 'Internal Server Error', errorType: 'server' },
  'bad-gateway': { status: 502, message: 'Provider returned error', errorType: 'provider_unavailable' },
  'service-unavailable': { status: 503, message: 'Service temporarily unavailable', errorType: 'provider_unavailable', headers: { 'retry-after': '30' } },
  'edge-timeout': { status: 524, message: 'Request timed out. Please try again later.', errorType: 'timeout' },
  'provider-overloaded': { status: 529, message: 'Provider returned error', errorType: 'provider_overloaded' },
};

const ALL_OPS: Op[] = ['speech', 'model', 'generation'];

/** The requests each case sends, in order, in one session. `baseline` runs with no scenario. */
const SCRIPTS: Record<string, Op[]> = {
  baseline: ALL_OPS,
  ...Object.fromEntries(Object.keys(ERROR_SCENARIOS).map((name) => [name, ALL_OPS])),
  'edge-timeout-html': ALL_OPS,
  'connection-reset': ALL_OPS,
  'rate-limited-then-ok': ['speech', 'model', 'generation', 'model'],
  'overloaded-then-ok': ['speech', 'model', 'generation', 'model'],
  'generation-pending': ['speech', 'model', 'generation', 'generation', 'generation', 'generation'],
  'slow-audio': ['speech', 'model'],
  'truncated-audio': ['speech', 'model'],
  'provider-requirement': ['speech', 'model'],
  'payload-too-large': ['speech', 'model'],
};

/** The scenarios that answer speech with an error and leave other operations normal. */
const SPEECH_ERROR_SCENARIOS: Record<string, ErrorCase> = {
  'provider-requirement': {
    status: 403,
    message: 'Provider requirement not accepted: this endpoint routes only after you accept its self-attestation. Accept the requirement in your OpenRouter settings, or choose another provider.',
    errorType: 'permission_denied',
  },
  'payload-too-large': { status: 413, message: 'Request payload too large', errorType: 'payload_too_large' },
};

/**
 * Cases that cannot run with the MSW handlers mounted through `@mswjs/http-middleware` 0.10.3 (msw 2 users' way of
 * mounting them in express; the express mode uses `createMiddleware`, which runs them): it crashes the whole
 * process (shown in a child process by the last block of this file, with support/express-crash-probe.ts):
 *
 * - `truncated-audio`: the handler's body stream errors mid-way (that is how the cut reaches the client); the
 *   middleware pipes `Readable.fromWeb(body)` into the response without an `error` listener, so the stream error
 *   is an unhandled `'error'` event: `StreamCut: audio cut after 44800 of 89600 bytes ... Emitted 'error' event
 *   on Readable instance`, exit code 1.
 * - `connection-reset`: the handler answers `HttpResponse.error()` (status 0); the middleware copies the status
 *   into `res.statusCode` and calls `res.end()` inside msw's `onMockedResponse`, which throws
 *   `RangeError [ERR_HTTP_INVALID_STATUS_CODE]: Invalid status code: 0` out of the async callback, uncaught: exit
 *   code 1.
 */
const CANNOT_MOUNT = ['truncated-audio', 'connection-reset'] as const;

const builtinNames = readdirSync(SCENARIOS_DIR)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.replace(/\.yaml$/, ''))
  .sort();
const htmlPage = (parseYaml(readFileSync(`${SCENARIOS_DIR}edge-timeout-html.yaml`, 'utf8')) as { rules: [{ raw: { body: string } }] }).rules[0].raw.body;

const NO_EXTRA_HEADERS = { 'retry-after': null, 'x-ratelimit-limit': null, 'x-ratelimit-remaining': null, 'x-ratelimit-reset': null };
const GENERATION_ID = `gen-tts-${NOW_S}-<20 alphanumerics>`;

/** A normal answer of `op` (no scenario effect). */
function expectNormal(outcome: Outcome | undefined, op: Op, fullAudioBytes?: number): void {
  expect(outcome?.op).toBe(op);
  expect(outcome?.status).toBe(200);
  expect(outcome?.headers).toMatchObject({ ...NO_EXTRA_HEADERS, 'x-mock-applied': null });
  if (op === 'speech') {
    expect(outcome?.headers['content-type']).toBe('audio/pcm;rate=24000;channels=1');
    expect(outcome?.headers['x-generation-id']).toBe(GENERATION_ID);
    expect(outcome?.body).toMatchObject({ bytes: fullAudioBytes ?? expect.any(Number), sha256: expect.any(String) });
  } else {
    expect(outcome?.headers['content-type']).toBe('application/json');
    expect(outcome?.headers['x-generation-id']).toBeNull();
    const data = (outcome?.body as { data: { id: string } }).data;
    expect(data.id).toBe(op === 'model' ? 'openai/gpt-4o-mini' : FIXTURE_GENERATION);
  }
}

/** The gateway's envelope for `c`, applied by `<scenario>/<rule>`. */
function expectEnvelope(outcome: Outcome | undefined, c: ErrorCase, applied: string): void {
  expect(outcome?.status).toBe(c.status);
  expect(outcome?.headers).toEqual({
    ...NO_EXTRA_HEADERS,
    ...c.headers,
    'content-type': 'application/json',
    'x-mock-applied': applied,
    'x-generation-id': null,
  });
  const metadata: Record<string, unknown> = { error_type: c.errorType };
  if (c.status === 429) {
    metadata.headers = {
      'X-RateLimit-Limit': c.headers?.['x-ratelimit-limit'],
      'X-RateLimit-Remaining': c.headers?.['x-ratelimit-remaining'],
      'X-RateLimit-Reset': c.headers?.['x-ratelimit-reset'],
    };
  }
  const expected: Record<string, unknown> = { error: { code: c.status, message: c.message, metadata } };
  if (c.status === 402) expected.user_id = expect.stringMatching(/^user_[a-z0-9]{27}$/);
  expect(outcome?.body).toEqual(expected);
}

/** What each case must show in every mode. */
async function expectScenario(name: string, outcomes: Outcome[], timings: Timing[], mock: RunningMode, fullAudioBytes: number, mode: Mode): Promise<void> {
  const errorCase = ERROR_SCENARIOS[name];
  if (errorCase) {
    outcomes.forEach((o, i) => {
      expect(o.op).toBe(ALL_OPS[i]);
      expectEnvelope(o, errorCase, `${name}/${name}`);
    });
    // Every 402 of one session carries the same user id.
    if (errorCase.status === 402) expect(new Set(outcomes.map((o) => (o.body as { user_id: string }).user_id)).size).toBe(1);
    return;
  }
  const speechError = SPEECH_ERROR_SCENARIOS[name];
  if (speechError) {
    expectEnvelope(outcomes[0], speechError, `${name}/${name}`);
    expectNormal(outcomes[1], 'model');
    return;
  }
  switch (name) {
    case 'baseline':
      outcomes.forEach((o, i) => expectNormal(o, ALL_OPS[i]!));
      return;
    case 'edge-timeout-html':
      for (const o of outcomes) {
        expect(o.status).toBe(524);
        expect(o.headers).toEqual({ ...NO_EXTRA_HEADERS, 'content-type': 'text/html; charset=UTF-8', 'x-mock-applied': 'edge-timeout-html/edge-timeout-html', 'x-generation-id': null });
        expect(o.body).toBe(htmlPage);
      }
      expect(htmlPage).toMatch(/^<!DOCTYPE html>/);
      return;
    case 'connection-reset':
      for (const o of outcomes) expect(o.status).toBe('network-error');
      // The journal still records each dropped request, with status 0.
      expect((await mock.gateway.sharedJournal.list({ session: 'parity-connection-reset' })).map((e) => [e.operation, e.status, e.rule])).toEqual(
        ALL_OPS.map((op) => [op, 0, 'connection-reset']),
      );
      return;
    case 'rate-limited-then-ok':
    case 'overloaded-then-ok': {
      const c = name === 'rate-limited-then-ok'
        ? { status: 429, message: 'Rate limit exceeded', errorType: 'rate_limit_exceeded', headers: { 'retry-after': '1', 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '<now+1s>' } }
        : { status: 529, message: 'Provider returned error', errorType: 'provider_overloaded' };
      const rule = name === 'rate-limited-then-ok' ? 'rate-limited' : 'overloaded';
      // The counter is per session across operations: the first two requests fail, whatever they ask.
      expectEnvelope(outcomes[0], c, `${name}/${rule}`);
      expectEnvelope(outcomes[1], c, `${name}/${rule}`);
      expectNormal(outcomes[2], 'generation');
      expectNormal(outcomes[3], 'model');
      return;
    }
    case 'generation-pending':
      expectNormal(outcomes[0], 'speech', fullAudioBytes);
      expectNormal(outcomes[1], 'model');
      for (const o of outcomes.slice(2, 5)) {
        expectEnvelope(o, { status: 404, message: 'Generation not found', errorType: 'not_found' }, 'generation-pending/generation-pending');
      }
      expectNormal(outcomes[5], 'generation');
      return;
    case 'slow-audio': {
      const [speech, model] = outcomes;
      expect(speech?.status).toBe(200);
      expect(speech?.headers).toMatchObject({ 'content-type': 'audio/pcm;rate=24000;channels=1', 'x-mock-applied': 'slow-audio/slow-audio', 'x-generation-id': GENERATION_ID });
      // Same bytes as without the scenario, only later and slower.
      expect((speech?.body as { bytes: number }).bytes).toBe(fullAudioBytes);
      const audioMs = (fullAudioBytes / 2 / 24000) * 1000;
      expect(timings[0]!.headersMs).toBeGreaterThanOrEqual(790);
      // Paced at real time: one chunk every 100 ms, the first at once.
      expect(timings[0]!.totalMs - timings[0]!.headersMs).toBeGreaterThanOrEqual((Math.ceil(audioMs / 100) - 1) * 100 - 20);
      expectNormal(model, 'model');
      expect(timings[1]!.totalMs).toBeLessThan(700); // not held back by the speech rule's 800 ms delay
      return;
    }
    case 'truncated-audio': {
      // Half the audio, then a body error. Under msw 3 the in-process body ends cleanly instead of erroring (msw 3
      // intercepts at the socket and swallows the stream error); the bytes are the same.
      const [speech, model] = outcomes;
      expect(speech?.status).toBe(200);
      expect(speech?.headers).toMatchObject({ 'content-type': 'audio/pcm;rate=24000;channels=1', 'x-mock-applied': 'truncated-audio/truncated-audio' });
      const cleanCut = mode.name === 'msw' && MSW_MAJOR >= 3;
      expect(speech?.body).toEqual(cleanCut ? { bytes: Math.floor(0.5 * fullAudioBytes), sha256: expect.any(String) } : { bytes: Math.floor(0.5 * fullAudioBytes), error: true });
      expectNormal(model, 'model');
      return;
    }
    default:
      expect.fail(`no expectations written for scenario ${name}`);
  }
}

/** Outcomes by mode, then by case. */
const results = new Map<Mode['name'], Map<string, Outcome[]>>();

it('has a parity case for every built-in scenario', () => {
  expect(Object.keys(SCRIPTS).filter((name) => name !== 'baseline').sort()).toEqual(builtinNames);
});

for (const mode of modes) {
  describe.skipIf(mode.unsupported !== undefined)(modeTitle('built-in scenarios', mode), () => {
    let mock: RunningMode;
    let fullAudioBytes = 0;
    const seen = new Map<string, Outcome[]>();
    beforeAll(async () => {
      mock = await mode.start({ seed: 5, now: () => NOW });
      results.set(mode.name, seen);
    });
    afterAll(() => mock.stop());

    it.for(Object.keys(SCRIPTS))('%s', async (name) => {
      const headers: Record<string, string> = { 'X-Mock-Session': `parity-${name}` };
      if (name !== 'baseline') headers['X-Mock-Scenario'] = name;
      const outcomes: Outcome[] = [];
      const timings: Timing[] = [];
      for (const op of SCRIPTS[name]!) {
        const { outcome, timing } = await call(mock, op, headers);
        outcomes.push(outcome);
        timings.push(timing);
      }
      // Kept before the checks, so the parity block shows how the modes differ even when a check here fails.
      seen.set(name, outcomes);
      if (name === 'baseline') fullAudioBytes = (outcomes[0]!.body as { bytes: number }).bytes;
      expect(fullAudioBytes).toBeGreaterThan(1000);
      await expectScenario(name, outcomes, timings, mock, fullAudioBytes, mode);
    });
  });
}

/** Under msw 3 the in-process cut ends cleanly (see expectScenario): compare the bytes only. */
function comparable(name: string, outcomes: unknown): unknown {
  if (name !== 'truncated-audio' || MSW_MAJOR < 3 || !Array.isArray(outcomes)) return outcomes;
  return outcomes.map((o: { body?: { bytes?: number } }) => ({ ...o, body: { bytes: o.body?.bytes } }));
}

describe('parity across msw, standalone and express', () => {
  it.for(Object.keys(SCRIPTS))('%s gives the same statuses, headers and bodies in every mode', (name) => {
    const reference = results.get('msw')?.get(name);
    expect(reference, 'the msw run of this case did not complete').toBeDefined();
    expect(comparable(name, results.get('server')?.get(name)), 'standalone (expected) vs msw').toEqual(comparable(name, reference));
    expect(comparable(name, results.get('express')?.get(name)), 'express (expected) vs msw').toEqual(comparable(name, reference));
  });
});

/** Runs support/express-crash-probe.ts for `scenario` in a child process. */
function probe(scenario: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = fileURLToPath(new URL('./support/express-crash-probe.ts', import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, scenario], { timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

// Why CANNOT_MOUNT cannot run through the MSW handlers mounted with @mswjs/http-middleware (docs/express.md), as
// evidence that fails once it stops crashing. A scenario it survives is the control.
describe(`@mswjs/http-middleware 0.10.3 with msw ${MSW_VERSION} (child processes)`, () => {
  it.skipIf(mswMiddlewareMode.unsupported !== undefined)('crashes the process on truncated-audio and connection-reset, and survives edge-timeout-html', async () => {
    const [truncated, reset, control] = await Promise.all([probe(CANNOT_MOUNT[0]), probe(CANNOT_MOUNT[1]), probe('edge-timeout-html')]);

    expect(control.stdout).toContain('SPEECH 524');
    expect(control.stdout).toContain('NEXT 200');
    expect(control.stdout).toContain('SURVIVED');
    expect(control.code).toBe(0);

    // The body stream's error reaches the Readable the middleware pipes into the response, with no listener. (The
    // probe's own client is in the process that dies, so it never gets to print what it saw.)
    expect(truncated.code).toBe(1);
    expect(truncated.stdout).not.toContain('SURVIVED');
    expect(truncated.stderr).toMatch(/StreamCut: audio cut after \d+ of \d+ bytes/);
    expect(truncated.stderr).toContain("Emitted 'error' event on Readable instance");

    // HttpResponse.error() has status 0, which the middleware copies into res.statusCode before res.end().
    expect(reset.code).toBe(1);
    expect(reset.stdout).not.toContain('SURVIVED');
    expect(reset.stderr).toContain('ERR_HTTP_INVALID_STATUS_CODE');
    expect(reset.stderr).toContain('Invalid status code: 0');
    expect(reset.stderr).toContain('@mswjs/http-middleware/lib/middleware.js');
  });

  // The reason that mount is documented for msw 2 only.
  it.runIf(mswMiddlewareMode.unsupported !== undefined)('fails every request with msw 3: it calls the handleRequest msw 3 removed', async () => {
    const control = await probe('edge-timeout-html');
    expect(control.stdout).not.toContain('SURVIVED');
    expect(control.stderr).toContain('handleRequest) is not a function');
  });
});
