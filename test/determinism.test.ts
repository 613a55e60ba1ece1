/**
 * Determinism: with a seed and a frozen clock, the same request sequence gives byte-identical responses (ids,
 * timestamps, costs, audio, rate-limit headers) across runs and across every mode (msw, server, express). A fixed list of 50 mixed
 * requests (speech in pcm and mp3 over several models, voices and inputs; model lookups with variants,
 * aliases and an unknown id; lookups of earlier generations, ready or not (`generationDelayMs: 'realistic'`),
 * and of unknown ids; auth, validation, credit and rate-limit errors) runs against a fresh mock twice in each
 * mode; each run is hashed (sha256 of status, selected headers and body bytes per response) and all four
 * hashes must be equal.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MockRouterOptions } from '../src/index.js';
import { modes, type Mode } from './support/modes.js';
import { USER_AGENT } from './support/stateful.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';

const KOKORO = 'hexgrad/kokoro-82m';
const GROK = 'x-ai/grok-voice-tts-1.0';
const GEMINI = 'google/gemini-3.1-flash-tts-preview';
const VOXTRAL = 'mistralai/voxtral-mini-tts-2603';
const ORPHEUS = 'canopylabs/orpheus-3b-0.1-ft';
/** A record of `fixtures/generations.json`: always found. */
const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';

const OPTIONS: MockRouterOptions = {
  seed: 1234,
  clock: '2026-03-04T05:06:07Z',
  generationDelayMs: 'realistic',
  keys: ['sk-det', { key: 'sk-lim', rate_limit: { requests: 4, interval_s: 60 } }, { key: 'sk-poor', credits: 0.00002 }],
};

/** The response headers that go into the hash (besides status and body). */
const HASHED_HEADERS = ['content-type', 'x-generation-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'allow'];

type Step =
  | { speech: Record<string, unknown>; key?: string }
  | { model: string; key?: string }
  /** A generation lookup: the id of the response to request #n (1-based), or a literal id. */
  | { generation: number | string; key?: string }
  | { raw: { method: string; path: string; body?: string; headers?: Record<string, string> } }
  /** Not a request: moves the clock. */
  | { advance: number };

const speech = (model: string, voice: string, input: string, extra: Record<string, unknown> = {}): Step => ({
  speech: { model, voice, input, ...extra },
});

const STEPS: Step[] = [
  /* 1 */ speech(TTS, 'alloy', 'Hello there, world.'),
  /* 2 */ speech(TTS, 'nova', 'Determinism, tested by hashing.', { response_format: 'mp3' }),
  /* 3 */ speech(KOKORO, 'af_bella', 'Kokoro speaks softly.'),
  /* 4 */ speech(GROK, 'eve', 'Grok voice check.', { response_format: 'mp3' }),
  /* 5 */ speech(GEMINI, 'Kore', 'Gemini is PCM only.', { response_format: 'pcm' }),
  /* 6 */ speech(VOXTRAL, 'en_paul_happy', 'Bonjour, hello!', { response_format: 'mp3' }),
  /* 7 */ speech(ORPHEUS, 'tara', 'Orpheus ignores speed.', { speed: 1.5 }),
  /* 8 */ speech(TTS, 'coral', 'Twice as fast.', { response_format: 'mp3', speed: 2 }),
  /* 9 */ { generation: 1 }, // not ready yet: 404
  /* 10 */ { model: 'openai/gpt-4o-mini' },
  /* 11 */ { model: 'openai/gpt-4o-mini%3Afree' },
  /* 12 */ { model: 'anthropic/claude-3-5-sonnet' },
  /* 13 */ { model: '~anthropic/claude-sonnet-latest' },
  /* 14 */ { model: `${TTS}%3Anitro` },
  /* 15 */ { model: 'nobody/nothing' },
  /* 16 */ { generation: 'gen-tts-0-nothing' },
  /* 17 */ { raw: { method: 'GET', path: '/generation' } },
  { advance: 2_500 },
  /* 18 */ { generation: 1 },
  /* 19 */ { generation: 2 },
  /* 20 */ { generation: 3 },
  /* 21 */ { generation: 4 },
  /* 22 */ { generation: 5 },
  /* 23 */ { generation: 6 },
  /* 24 */ { generation: 7 },
  /* 25 */ { generation: 8 },
  /* 26 */ speech('nobody/nothing', 'alloy', 'Unknown model.'),
  /* 27 */ speech(TTS, 'alloy', 'No wav.', { response_format: 'wav' }),
  /* 28 */ speech(TTS, 'Kore', 'Wrong voice.'),
  /* 29 */ speech(GEMINI, 'Kore', 'No mp3 here.', { response_format: 'mp3' }),
  /* 30 */ { speech: { model: TTS, voice: 'alloy' } },
  /* 31 */ { raw: { method: 'POST', path: '/audio/speech', body: '{"model": ' } },
  /* 32 */ { raw: { method: 'GET', path: `/model/${TTS}`, headers: { Authorization: '' } } },
  /* 33 */ { model: TTS, key: 'sk-nobody' },
  /* 34 */ { raw: { method: 'GET', path: '/audio/speech' } },
  /* 35 */ { raw: { method: 'GET', path: '/chat/nothing-here' } },
  /* 36 */ { model: TTS, key: 'sk-lim' },
  /* 37 */ { model: KOKORO, key: 'sk-lim' },
  /* 38 */ { generation: 2, key: 'sk-lim' },
  /* 39 */ { ...speech(GROK, 'ara', 'Limited key.'), key: 'sk-lim' },
  /* 40 */ { model: GROK, key: 'sk-lim' },
  /* 41 */ { ...speech(TTS, 'ash', 'Poor.'), key: 'sk-poor' },
  /* 42 */ { ...speech(GROK, 'rex', 'Too dear for this key.'), key: 'sk-poor' },
  /* 43 */ { ...speech(`${TTS}:free`, 'sage', 'Free is fine.'), key: 'sk-poor' },
  { advance: 1_000 },
  /* 44 */ speech(TTS, 'echo', 'Hello there, world.', { response_format: 'mp3' }),
  /* 45 */ { generation: 44 },
  { advance: 2_000 },
  /* 46 */ { generation: 44 },
  /* 47 */ { generation: 43, key: 'sk-poor' },
  /* 48 */ { generation: 41, key: 'sk-poor' },
  /* 49 */ speech(TTS, 'alloy', 'Hello there, world.'),
  /* 50 */ { generation: FIXTURE_GENERATION },
];

interface Run {
  /** sha256 over every response. */
  hash: string;
  /** Per request: `status content-type ... sha256(body)`, for a readable diff when runs differ. */
  lines: string[];
  statuses: number[];
}

async function run(mode: Mode): Promise<Run> {
  const mock = await mode.start(OPTIONS);
  const ids: (string | null)[] = [];
  const lines: string[] = [];
  const statuses: number[] = [];
  const total = createHash('sha256');
  try {
    for (const step of STEPS) {
      if ('advance' in step) {
        mock.gateway.clock.advance(step.advance);
        continue;
      }
      const key = 'key' in step && step.key ? step.key : 'sk-det';
      const headers: Record<string, string> = { Authorization: `Bearer ${key}`, 'User-Agent': USER_AGENT };
      let method = 'GET';
      let path: string;
      let body: string | undefined;
      if ('speech' in step) {
        method = 'POST';
        path = '/audio/speech';
        body = JSON.stringify(step.speech);
        headers['Content-Type'] = 'application/json';
      } else if ('model' in step) {
        path = `/model/${step.model}`;
      } else if ('generation' in step) {
        const id = typeof step.generation === 'number' ? ids[step.generation - 1] : step.generation;
        expect(id, `step ${ids.length + 1}: request #${String(step.generation)} left no generation id`).toBeTruthy();
        path = `/generation?id=${encodeURIComponent(id!)}`;
      } else {
        ({ method, path, body } = step.raw);
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        Object.assign(headers, step.raw.headers);
        if (headers.Authorization === '') delete headers.Authorization;
      }
      const res = await fetch(`${mock.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const bytes = new Uint8Array(await res.arrayBuffer());
      ids.push(res.headers.get('x-generation-id'));
      statuses.push(res.status);
      const head = [String(res.status), ...HASHED_HEADERS.map((name) => `${name}=${res.headers.get(name) ?? ''}`)].join(' ');
      lines.push(`#${ids.length} ${method} ${path} → ${head} body=${sha256Hex(bytes)}`);
      total.update(`${head}\n`).update(bytes).update('\n');
    }
  } finally {
    await mock.stop();
  }
  return { hash: total.digest('hex'), lines, statuses };
}

describe('determinism', () => {
  it('a seeded, clock-fixed run of 50 mixed requests hashes the same twice, in-process and standalone', async () => {
    expect(STEPS.filter((s) => !('advance' in s))).toHaveLength(50);
    const runs: Run[] = [];
    for (const mode of modes) {
      runs.push(await run(mode));
      runs.push(await run(mode));
    }
    const [first] = runs;
    // The sequence exercises what it claims to: successes and each kind of error.
    expect(first!.statuses).toHaveLength(50);
    const count = (status: number) => first!.statuses.filter((s) => s === status).length;
    expect(count(200)).toBeGreaterThanOrEqual(30);
    for (const status of [400, 401, 402, 404, 405, 429]) expect(count(status), `responses with ${status}`).toBeGreaterThan(0);
    expect(first!.statuses[8]).toBe(404); // #9: generation #1 before its readiness delay
    expect(first!.statuses[17]).toBe(200); // #18: the same after it
    expect(first!.statuses.slice(35, 40)).toEqual([200, 200, 200, 200, 429]); // sk-lim: 4 a minute
    expect(first!.statuses.slice(40, 43)).toEqual([200, 402, 200]); // sk-poor: paid, too dear, free

    for (const [i, other] of runs.entries()) {
      expect(other.lines, `run ${i + 1} (${modes[Math.floor(i / 2)]!.name}) differs from run 1`).toEqual(first!.lines);
    }
    expect(new Set(runs.map((r) => r.hash)).size).toBe(1);
  });
});
