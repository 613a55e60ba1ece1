/**
 * What the HTTP bench sends: the requests, the cases of the throughput table, the mixed loads, and the load of
 * the memory run.
 *
 * @module
 */
import type autocannon from 'autocannon';
import { fixed, type Load } from './load.js';
import type { BenchRequest } from './targets.js';
import { paragraph, sentence } from './texts.js';

const AUTH = { Authorization: 'Bearer sk-bench' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

/** The speech model of every speech request (OpenRouter's id, in the built-in catalog). */
export const SPEECH_MODEL = 'openai/gpt-4o-mini-tts-2025-12-15';
/** The fixture generation (fixtures/generations.json) the generation lookups ask for. */
export const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';

export const MODEL_LOOKUP: BenchRequest = { method: 'GET', path: '/api/v1/model/openai/gpt-4o-mini', headers: AUTH };
/** aimock's own model-list route (OpenRouter's `GET /api/v1/models`); its one fixture makes it list one model. */
export const AIMOCK_MODEL_LIST: BenchRequest = { method: 'GET', path: '/api/v1/models', headers: AUTH };
export const GENERATION_LOOKUP: BenchRequest = { method: 'GET', path: `/api/v1/generation?id=${FIXTURE_GENERATION}`, headers: AUTH };

export type Format = 'pcm' | 'mp3';
export type Length = 'sentence' | 'paragraph';
const TEXT: Record<Length, (n: number) => string> = { sentence, paragraph };

const speechBody = (format: Format, input: string) => JSON.stringify({ model: SPEECH_MODEL, input, voice: 'alloy', response_format: format });

/** A speech request for `input` (voice alloy, speed 1). */
export function speechOf(format: Format, input: string, headers: Record<string, string> = {}): BenchRequest {
  return { method: 'POST', path: '/api/v1/audio/speech', headers: { ...JSON_AUTH, ...headers }, body: speechBody(format, input) };
}

/** A speech request; `n` picks the input (0: the cached one, see bench/texts.ts). */
export function speechRequest(format: Format, length: Length, n = 0, headers: Record<string, string> = {}): BenchRequest {
  return speechOf(format, TEXT[length](n), headers);
}

let nextDistinct = 1;
/** A number no other speech input of this process used (from 1; 0 is the cached input). */
export function distinct(): number {
  return nextDistinct++;
}

/** A speech request whose input is new each time it is sent (autocannon `setupRequest`), so it is never cached. */
export function coldSpeech(format: Format, length: Length, headers: Record<string, string> = {}): autocannon.Request {
  return {
    ...fixed(speechRequest(format, length, 0, headers)),
    setupRequest: (request) => ({ ...request, body: speechBody(format, TEXT[length](distinct())) }),
  };
}

export type ServerName = 'mockrouter' | 'bare' | 'aimock';

/** One row group of the throughput table. */
export interface HttpCase {
  name: string;
  kind: 'model' | 'generation' | 'cached' | 'cold' | 'mix';
  format?: Format;
  length?: Length;
  connections: number;
  /** Seconds autocannon waits for a response. */
  timeout: number;
  /** What the bare server replays: the mock's response to `response`, and per `X-Bench-Case` value to `routes`. */
  record: { response: () => BenchRequest; routes?: Record<string, BenchRequest> };
  /** The load per server; servers without one are not run. mockrouter first. */
  loads: Partial<Record<ServerName, Load>>;
  /** Request checked once on aimock before its runs (must answer 200). */
  aimockRequest?: BenchRequest;
}

/** The mixed load: one cycle of 20 requests, by `X-Bench-Case` name (the header only the bare server gets). */
const MIX_KINDS: Record<string, BenchRequest> = {
  model: MODEL_LOOKUP,
  generation: GENERATION_LOOKUP,
  'speech-pcm': speechRequest('pcm', 'sentence'),
  'speech-mp3': speechRequest('mp3', 'sentence'),
  'speech-429': speechRequest('pcm', 'sentence', 0, { 'X-Mock-Status': '429' }),
};
/** 8 model lookups, 6 generation lookups, 2 cached PCM, 3 cached MP3, 1 speech call answered 429 by scenario. */
const MIX_CYCLE = [
  'model', 'generation', 'speech-mp3', 'model', 'generation', 'speech-pcm', 'model', 'speech-mp3', 'generation', 'model',
  'speech-429', 'model', 'generation', 'speech-mp3', 'model', 'generation', 'speech-pcm', 'model', 'generation', 'model',
];
/** Share of the mix's requests meant to answer 429. */
export const MIX_429_SHARE = MIX_CYCLE.filter((k) => k === 'speech-429').length / MIX_CYCLE.length;

function mixLoad(forBare: boolean): Load {
  return MIX_CYCLE.map((kind) => {
    const request = MIX_KINDS[kind]!;
    return fixed(forBare ? { ...request, headers: { ...request.headers, 'X-Bench-Case': kind } } : request);
  });
}

/** The cases, in the order they run. */
export function httpCases(options: { connections: number; coldConnections: number; mixConnections: number[] }): HttpCase[] {
  const { connections, coldConnections } = options;
  const cases: HttpCase[] = [
    {
      name: 'model lookup',
      kind: 'model',
      connections,
      timeout: 10,
      record: { response: () => MODEL_LOOKUP },
      loads: { mockrouter: [fixed(MODEL_LOOKUP)], bare: [fixed(MODEL_LOOKUP)], aimock: [fixed(AIMOCK_MODEL_LIST)] },
      aimockRequest: AIMOCK_MODEL_LIST,
    },
    {
      name: 'generation lookup',
      kind: 'generation',
      connections,
      timeout: 10,
      record: { response: () => GENERATION_LOOKUP },
      loads: { mockrouter: [fixed(GENERATION_LOOKUP)], bare: [fixed(GENERATION_LOOKUP)] },
    },
  ];
  for (const format of ['pcm', 'mp3'] as const) {
    for (const length of ['sentence', 'paragraph'] as const) {
      const request = speechRequest(format, length);
      cases.push({
        name: `speech ${format} ${length}, cached`,
        kind: 'cached',
        format,
        length,
        connections,
        timeout: 30,
        record: { response: () => request },
        loads: { mockrouter: [fixed(request)], bare: [fixed(request)] },
      });
    }
  }
  for (const format of ['pcm', 'mp3'] as const) {
    for (const length of ['sentence', 'paragraph'] as const) {
      cases.push({
        name: `speech ${format} ${length}, cold`,
        kind: 'cold',
        format,
        length,
        connections: coldConnections,
        timeout: 60,
        // The bare server replays one representative cold response; both servers get distinct inputs.
        record: { response: () => speechRequest(format, length, distinct()) },
        loads: { mockrouter: [coldSpeech(format, length)], bare: [coldSpeech(format, length)] },
      });
    }
  }
  for (const n of options.mixConnections) {
    cases.push({
      name: `mix (${MIX_CYCLE.length}-request cycle)`,
      kind: 'mix',
      connections: n,
      timeout: 30,
      record: { response: () => MODEL_LOOKUP, routes: MIX_KINDS },
      loads: { mockrouter: mixLoad(false), bare: mixLoad(true) },
    });
  }
  return cases;
}

/** Kinds of request in the memory run and how many of each per 1,000. */
export const MEMORY_MIX: ReadonlyArray<{ kind: string; per1000: number; request: () => autocannon.Request }> = [
  { kind: 'model lookup', per1000: 450, request: () => fixed(MODEL_LOOKUP) },
  { kind: 'generation lookup', per1000: 363, request: () => fixed(GENERATION_LOOKUP) },
  { kind: 'speech answered 429 (X-Mock-Status)', per1000: 50, request: () => fixed(MIX_KINDS['speech-429']!) },
  { kind: 'speech pcm sentence, cached', per1000: 15, request: () => fixed(speechRequest('pcm', 'sentence')) },
  { kind: 'speech mp3 sentence, cached', per1000: 100, request: () => fixed(speechRequest('mp3', 'sentence')) },
  { kind: 'speech pcm sentence, distinct', per1000: 20, request: () => coldSpeech('pcm', 'sentence') },
  { kind: 'speech pcm paragraph, distinct', per1000: 1, request: () => coldSpeech('pcm', 'paragraph') },
  { kind: 'speech mp3 sentence, distinct', per1000: 1, request: () => coldSpeech('mp3', 'sentence') },
];

/** The memory run's cycle of 1,000 requests, each kind spread evenly over it. */
export function memoryLoad(): Load {
  const total = MEMORY_MIX.reduce((sum, k) => sum + k.per1000, 0);
  if (total !== 1000) throw new Error(`MEMORY_MIX adds up to ${total}, not 1000`);
  const slots: Array<{ at: number; request: autocannon.Request }> = [];
  for (const k of MEMORY_MIX) {
    for (let i = 0; i < k.per1000; i++) slots.push({ at: (i + 0.5) / k.per1000, request: k.request() });
  }
  return slots.sort((a, b) => a.at - b.at).map((s) => s.request);
}
