/**
 * The request pipeline (src/core/gateway/pipeline.ts) called as a function, on a gateway context built here from the
 * core's own factories: the order of its checks (route 404/405, then auth 401, then the scenario and the
 * operation), the session of each request, the scenario rule it applies (per session), and the rule's effects on a
 * new response (`X-Mock-Applied`, delay, cut audio). Every failure is an envelope; the pipeline never throws. What a
 * client sees of the same, through every mode, is in test/contract.test.ts and test/scenario-headers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Accounts } from '../../src/core/accounts/accounts.js';
import { createAudioRenderer } from '../../src/core/audio/renderer.js';
import { createCatalog } from '../../src/core/catalog/catalog.js';
import { Clock } from '../../src/core/base/clock.js';
import type { GatewayContext } from '../../src/core/operations/context.js';
import { createGenerationStore } from '../../src/core/generations/known-generations.js';
import { Journal } from '../../src/core/journal/journal.js';
import { createMemoryStore } from '../../src/core/store/memory-store.js';
import { createPipeline, type Pipeline } from '../../src/core/gateway/pipeline.js';
import { ScenarioEngine } from '../../src/core/scenarios/engine.js';
import { scenarioRegistry } from '../../src/core/scenarios/parse.js';
import { StreamCut, type CoreBody, type CoreRequest, type CoreResponse } from '../../src/core/base/types.js';
import { loadFixtures } from '../../src/node-platform/fixtures.js';
import { loadBuiltinScenarios } from '../../src/node-platform/scenarios.js';
import { createHeardAudio } from '../../src/core/transcription/heard-audio.js';
import { decodeBase64WithAtob } from '../../src/core/transcription/request-body.js';
import { sha256Hex } from '../../src/core/transcription/said-audio.js';
import { createSaidIndex } from '../../src/core/transcription/said-index.js';
import { TTS } from '../support/speech-model.js';
import { coreSpeechRequest } from '../support/speech-request.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const fixtures = loadFixtures();

/** A pipeline over a fresh context (seed 5, the clock frozen at {@link NOW}), and its parts. */
function setup(): { pipeline: Pipeline; ctx: GatewayContext; scenarios: ScenarioEngine } {
  const store = createMemoryStore({ journal: new Journal(), maxGenerations: 100, replica: 'unit' });
  const ctx: GatewayContext = {
    catalog: createCatalog(fixtures),
    generations: createGenerationStore(fixtures.generations, store),
    audio: createAudioRenderer(),
    store,
    speech: 'tones',
    seed: 5,
    clock: new Clock(() => NOW, NOW),
    accounts: new Accounts(undefined, store),
    generationDelay: 0,
    said: createSaidIndex(
      store,
      (error) => {
        throw error;
      },
      sha256Hex,
    ),
    heard: createHeardAudio(),
    sha256: sha256Hex,
    decodeBase64: decodeBase64WithAtob,
  };
  const scenarios = new ScenarioEngine(() => scenarioRegistry(loadBuiltinScenarios()), 5, (slot) => store.countRule(slot));
  return { pipeline: createPipeline(ctx, scenarios), ctx, scenarios };
}

/** A request: `GET` of `path` with the bearer key `sk-unit` unless `headers` says otherwise. */
function request(path: string, init: { method?: string; query?: string; headers?: Record<string, string>; body?: unknown } = {}): CoreRequest {
  return {
    method: init.method ?? 'GET',
    path,
    query: init.query ?? '',
    headers: { authorization: 'Bearer sk-unit', ...init.headers },
    body: init.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(init.body)),
  };
}

/** A speech request with `body` (and `headers`). */
function speech(body: Record<string, unknown>, headers: Record<string, string> = {}): CoreRequest {
  return coreSpeechRequest(body, { authorization: 'Bearer sk-unit', 'content-type': 'application/json', ...headers });
}

/** The whole body, however it is given. */
async function bytesOf(body: CoreBody | null): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The envelope of an error response, checked: JSON, `error.code` equal to the status. */
async function envelope(response: CoreResponse, status: number): Promise<{ code: number; message: string }> {
  expect(response.status).toBe(status);
  expect(response.headers['Content-Type']).toMatch(/^application\/json/);
  const { error } = JSON.parse(new TextDecoder().decode(await bytesOf(response.body))) as { error: { code: number; message: string } };
  expect(error.code).toBe(status);
  return error;
}

describe('the order of the checks', () => {
  it('answers an unknown path with a 404 before looking at the key', async () => {
    const { pipeline } = setup();
    const answered = await pipeline(request('/api/v1/nothing', { headers: { authorization: '' } }));
    expect((await envelope(answered.response, 404)).message).toBe('No route for GET /api/v1/nothing');
    expect(answered).toMatchObject({ route: undefined, applied: undefined });
  });

  it('answers a wrong method with a 405 and Allow, a method served nowhere too, before the key', async () => {
    const { pipeline } = setup();
    const wrong = await pipeline(request('/api/v1/audio/speech', { headers: { authorization: '' } }));
    await envelope(wrong.response, 405);
    expect(wrong.response.headers.Allow).toBe('POST');
    expect(wrong.route).toBeUndefined();
    const connect = await pipeline(request('/api/v1/nothing', { method: 'CONNECT' }));
    await envelope(connect.response, 405);
  });

  it('answers a known path without a key with a 401, in the session no-key (not one derived as if a key were sent)', async () => {
    const { pipeline } = setup();
    const answered = await pipeline(request('/api/v1/model/openai/gpt-4o', { headers: { authorization: '' } }));
    expect((await envelope(answered.response, 401)).message).toBe('No auth credentials found');
    expect(answered.route?.operation).toBe('model');
    expect(answered.session).toBe('no-key');
    expect((await pipeline(request('/api/v1/nothing', { headers: { authorization: '' } }))).session).toBe('no-key');
    expect((await pipeline(request('/api/v1/nothing', { headers: { authorization: '', 'x-mock-session': 'mine' } }))).session).toBe('mine');
  });

  it('gives a request refused before its key was checked (an unknown path) the session of the key it sent', async () => {
    const { pipeline } = setup();
    const accepted = await pipeline(request('/api/v1/model/openai/gpt-4o'));
    expect(accepted.session).toMatch(/^key-[0-9a-f]{12}$/);
    const unknown = await pipeline(request('/api/v1/nothing'));
    await envelope(unknown.response, 404);
    expect(unknown.session).toBe(accepted.session);
  });

  it('takes HEAD for GET, and answers an operation with its own response, untouched by any rule', async () => {
    const { pipeline } = setup();
    for (const method of ['GET', 'HEAD']) {
      const answered = await pipeline(request('/api/v1/model/openai/gpt-4o', { method }));
      expect(answered.response.status).toBe(200);
      expect(answered.response.headers['X-Mock-Applied']).toBeUndefined();
      expect(answered.response.delayMs).toBeUndefined();
      expect(answered.applied).toBeUndefined();
      expect(JSON.parse(new TextDecoder().decode(await bytesOf(answered.response.body))).data.id).toBe('openai/gpt-4o');
    }
  });
});

describe('sessions', () => {
  it('is X-Mock-Session when given, else derived from the key: the same for one key, another for another', async () => {
    const { pipeline } = setup();
    const sessionOf = async (headers: Record<string, string>) => (await pipeline(request('/api/v1/model/openai/gpt-4o', { headers }))).session;
    expect(await sessionOf({ 'x-mock-session': ' mine ' })).toBe('mine');
    expect(await sessionOf({})).toBe(await sessionOf({}));
    expect(await sessionOf({ authorization: 'Bearer sk-other' })).not.toBe(await sessionOf({}));
    expect(await sessionOf({})).not.toContain('sk-unit');
  });
});

describe('scenarios', () => {
  const model = (headers: Record<string, string>) => request('/api/v1/model/openai/gpt-4o', { headers });

  it('answers X-Mock-Status with its envelope, naming what was applied', async () => {
    const { pipeline } = setup();
    const answered = await pipeline(model({ 'x-mock-status': '503' }));
    await envelope(answered.response, 503);
    expect(answered.response.headers['Retry-After']).toBe('30');
    expect(answered.response.headers['X-Mock-Applied']).toBe('x-mock-status/503');
    expect(answered.applied).toMatchObject({ scenario: 'x-mock-status', ruleName: '503' });
  });

  it('answers a malformed X-Mock-Status or an unknown X-Mock-Scenario with a 400, never a throw', async () => {
    const { pipeline } = setup();
    expect((await envelope((await pipeline(model({ 'x-mock-status': '200' }))).response, 400)).message).toMatch(/^X-Mock-Status: /);
    expect((await envelope((await pipeline(model({ 'x-mock-scenario': 'nothing' }))).response, 400)).message).toMatch(/^X-Mock-Scenario: unknown scenario "nothing"/);
  });

  it('counts a rule per session: rate-limited-then-ok gives each session two 429s, then the answer', async () => {
    const { pipeline } = setup();
    const statuses = async (session: string, count: number) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await pipeline(model({ 'x-mock-scenario': 'rate-limited-then-ok', 'x-mock-session': session }))).response.status);
      return seen;
    };
    expect(await statuses('a', 3)).toEqual([429, 429, 200]);
    expect(await statuses('b', 1)).toEqual([429]);
    expect(await statuses('a', 1)).toEqual([200]);
    expect(await statuses('b', 2)).toEqual([429, 200]);
  });

  it('applies the default scenario to requests without headers; a header overrides it', async () => {
    const { pipeline, scenarios } = setup();
    scenarios.useScenario(scenarios.find('server-error')!);
    expect((await pipeline(model({}))).response.status).toBe(500);
    expect((await pipeline(model({ 'x-mock-scenario': 'not-found' }))).response.status).toBe(404);
    expect((await pipeline(model({ 'x-mock-status': '502' }))).response.status).toBe(502);
  });

  it("puts a rule's delay and X-Mock-Applied on a new response around the operation's answer", async () => {
    const { pipeline, scenarios } = setup();
    scenarios.useScenario(scenarios.parse({ name: 'slow', rules: [{ name: 'wait', delay: { ms: 1500 } }] }, 'test'));
    const answered = await pipeline(model({}));
    expect(answered.response).toMatchObject({ status: 200, delayMs: 1500, headers: { 'X-Mock-Applied': 'slow/wait', 'Content-Type': 'application/json' } });
    expect(JSON.parse(new TextDecoder().decode(await bytesOf(answered.response.body))).data.id).toBe('openai/gpt-4o');
  });
});

describe('speech', () => {
  const body = { model: TTS, input: 'The pipeline, called as a function.', voice: 'alloy' };

  it('answers the audio the renderer makes, with what the journal records of it', async () => {
    const { pipeline, ctx } = setup();
    const answered = await pipeline(speech(body));
    expect(answered.response.status).toBe(200);
    expect(answered.response.headers['Content-Type']).toBe('audio/pcm;rate=24000;channels=1');
    expect(answered.response.headers['X-Generation-Id']).toMatch(/^gen-tts-\d{10}-[A-Za-z0-9]{20}$/);
    const bytes = await bytesOf(answered.response.body);
    const whole = ctx.audio.render({ input: body.input, voice: 'alloy', speed: 1, seed: 5, format: 'pcm' });
    expect(answered.audio).toEqual({ format: 'pcm', content_type: 'audio/pcm;rate=24000;channels=1', duration_ms: whole.durationMs, voice: 'alloy', model: TTS, speed: 1, speech: 'tones' });
    expect(Buffer.from(bytes).equals(Buffer.from(whole.bytes))).toBe(true);
  });

  it('answers a bad body with a 400 naming the field, and no audio', async () => {
    const { pipeline } = setup();
    const answered = await pipeline(speech({ model: TTS, voice: 'alloy' }));
    expect((await envelope(answered.response, 400)).message).toMatch(/^input: required/);
    expect(answered.audio).toBeUndefined();
  });

  it("cuts the audio of a truncate rule after exactly its share of the bytes (StreamCut); the operation's answer is whole", async () => {
    const { pipeline, scenarios } = setup();
    const whole = await bytesOf((await pipeline(speech(body))).response.body);
    scenarios.useScenario(scenarios.parse({ name: 'cut', rules: [{ name: 'half', match: { operation: 'speech' }, audio: { truncate: 0.5 } }] }, 'test'));
    const answered = await pipeline(speech(body));
    expect(answered.response.headers['X-Mock-Applied']).toBe('cut/half');
    const received: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const chunk of answered.response.body as AsyncIterable<Uint8Array>) received.push(chunk.slice());
      })(),
    ).rejects.toThrow(StreamCut);
    const cut = Buffer.concat(received);
    expect(cut.byteLength).toBe(Math.floor(whole.byteLength * 0.5));
    expect(cut.equals(Buffer.from(whole.subarray(0, cut.byteLength)))).toBe(true);
  });
});
