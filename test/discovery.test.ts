/**
 * The discovery reads through the official clients, in both modes (`docs/behaviour.md`, "Discovery reads"):
 * `@openrouter/sdk` `models.list` (with and without `outputModalities: 'speech'` or `'transcription'`), `models.count`,
 * `endpoints.list` for every catalog model, and `openai` `models.list()`. The SDK validates every answer with the
 * OpenAPI document's schemas (a wrong shape is a `ResponseValidationError`, which fails the case); its enums are
 * open, so the cases also check each enum value is one the document lists. Every model's `links.details` is
 * followed. Scenario rules and `X-Mock-Status` apply to the new operations as to the others.
 */
import { OpenRouter } from '@openrouter/sdk';
import { OutputModality, Parameter, ProviderName, Quantization } from '@openrouter/sdk/models';
import * as errors from '@openrouter/sdk/models/errors';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { modes, type RunningMode } from './support/modes.js';
import { getJson, speech } from './support/stateful.js';

const KEY = 'sk-discovery';
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const fixtures = loadFixtures();
const speechIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('speech')).map((m) => m.id);
const sttIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('transcription')).map((m) => m.id);
const textIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => m.id);
const values = (e: Record<string, string | number>) => new Set<unknown>(Object.values(e));

/** Fails with the SDK's own explanation when `call` rejects with a validation error; returns its result. */
async function valid<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof errors.ResponseValidationError) expect.fail(`ResponseValidationError: ${error.pretty()}`);
    throw error;
  }
}

describe.each(modes)('discovery through the official clients ($name)', (mode) => {
  let mock: RunningMode;
  let openRouter: OpenRouter;

  beforeAll(async () => {
    mock = await mode.start({ seed: 3, now: () => NOW });
    openRouter = new OpenRouter({ serverURL: mock.baseUrl, apiKey: KEY, retryConfig: { strategy: 'none' } });
  });
  afterAll(() => mock.stop());

  it('models.list() lists the text models, in catalog order, and no speech or speech-to-text model', async () => {
    const list = (await valid(openRouter.models.list())).result;
    expect(list.data.map((m) => m.id)).toEqual(textIds);
    for (const id of [...speechIds, ...sttIds]) expect(list.data.map((m) => m.id)).not.toContain(id);
    expect(list.totalCount).toBe(textIds.length);
    expect(list.links.next).toBeNull();
    for (const m of list.data) for (const o of m.architecture.outputModalities) expect(values(OutputModality).has(o), `${m.id} ${o}`).toBe(true);
  });

  it("models.list({ outputModalities: 'speech' }) lists exactly the speech models, each with its voices and only Parameter values", async () => {
    const list = (await valid(openRouter.models.list({ outputModalities: 'speech' }))).result;
    expect(list.data.map((m) => m.id)).toEqual(speechIds);
    for (const m of list.data) {
      const record = fixtures.models.find((r) => r.id === m.id)!;
      expect(m.supportedVoices).toEqual(record.supported_voices);
      // null: the provider takes any voice id (speech model discovery lists the voice as {type: "unknown"}).
      expect(m.supportedVoices === null || m.supportedVoices.length > 0, m.id).toBe(true);
      for (const p of m.supportedParameters) expect(values(Parameter).has(p), `${m.id} ${p}`).toBe(true);
    }
  });

  it('models.list pages by offset and limit, and its iterator follows the pages to the end', async () => {
    const first = await valid(openRouter.models.list({ limit: 10 }));
    expect(first.result.data.map((m) => m.id)).toEqual(textIds.slice(0, 10));
    expect(first.result.totalCount).toBe(textIds.length);
    expect(first.result.links.next).toBe('/api/v1/models?limit=10&offset=10');
    const ids: string[] = [];
    for await (const page of first) ids.push(...page.result.data.map((m) => m.id));
    expect(ids).toEqual(textIds);
  });

  it('models.count() counts what models.list() lists, for each output modality', async () => {
    expect((await valid(openRouter.models.count())).data.count).toBe(textIds.length);
    expect((await valid(openRouter.models.count({ outputModalities: 'speech' }))).data.count).toBe(speechIds.length);
    expect((await valid(openRouter.models.count({ outputModalities: 'transcription' }))).data.count).toBe(sttIds.length);
    expect(sttIds.length).toBeGreaterThanOrEqual(6);
    expect((await valid(openRouter.models.count({ outputModalities: 'all' }))).data.count).toBe(fixtures.models.length);
  });

  it('endpoints.list answers every catalog model with its providers, its pricing and plausible measures', async () => {
    for (const record of fixtures.models) {
      const [author, slug] = [record.id.slice(0, record.id.indexOf('/')), record.id.slice(record.id.indexOf('/') + 1)];
      const { data } = await valid(openRouter.endpoints.list({ author, slug }));
      expect(data.id).toBe(record.id);
      expect(data.name).toBe(record.name);
      expect(data.created).toBe(record.created);
      const providers = fixtures.providers?.[record.id] ?? [];
      expect(data.endpoints.map((e) => e.providerName), record.id).toEqual(providers.map((p) => p.provider_name));
      for (const e of data.endpoints) {
        expect(values(ProviderName).has(e.providerName), `${record.id} ${e.providerName}`).toBe(true);
        expect(e.quantization === null || values(Quantization).has(e.quantization), `${record.id} ${e.quantization}`).toBe(true);
        for (const p of e.supportedParameters) expect(values(Parameter).has(p), `${record.id} ${p}`).toBe(true);
        expect(e.pricing.prompt).toBe(record.pricing.prompt);
        expect(e.pricing.completion).toBe(record.pricing.completion);
        expect(e.modelName).toBe(record.name);
        // A speech-to-text record without a context length (null) has an endpoint of 0: PublicEndpoint requires a number.
        expect(e.contextLength).toBe(record.context_length ?? 0);
        expect(e.status).toBe(0);
        const l = e.latencyLast30m!;
        expect(l.p50).toBeGreaterThan(0);
        expect(l.p50 <= l.p75 && l.p75 <= l.p90 && l.p90 <= l.p99, `${record.id} latency ${JSON.stringify(l)}`).toBe(true);
        const t = e.throughputLast30m!;
        expect(t.p50 >= t.p75 && t.p75 >= t.p90 && t.p90 >= t.p99 && t.p99 > 0, `${record.id} throughput ${JSON.stringify(t)}`).toBe(true);
        for (const u of [e.uptimeLast30m, e.uptimeLast5m, e.uptimeLast1d]) expect(u! > 90 && u! <= 100).toBe(true);
      }
    }
  });

  it("a speech model's endpoint names the provider its generation records carry", async () => {
    for (const id of speechIds) {
      const record = fixtures.models.find((r) => r.id === id)!;
      const format = fixtures.speech[id]!.response_formats[0]!;
      const { res, id: generationId } = await speech(mock.baseUrl, { model: id, input: 'Hi.', voice: record.supported_voices?.[0] ?? 'any-voice-id', response_format: format }, KEY);
      expect(res.status).toBe(200);
      const generation = await valid(openRouter.generations.getGeneration({ id: generationId! }));
      const { data } = await valid(openRouter.endpoints.list({ author: id.split('/')[0]!, slug: id.split('/')[1]! }));
      expect(data.endpoints[0]!.providerName).toBe(generation.data.providerName);
      expect(data.endpoints[0]!.supportsVoiceCloning).toBe(fixtures.speech[id]!.input_modalities?.includes('audio') === true);
    }
  });

  it('variants and aliases resolve as in the model lookup; an unknown model is the 404 envelope', async () => {
    const free = await valid(openRouter.endpoints.list({ author: 'openai', slug: 'gpt-4o:free' }));
    expect(free.data.id).toBe('openai/gpt-4o:free');
    for (const e of free.data.endpoints) expect([e.pricing.prompt, e.pricing.completion]).toEqual(['0', '0']);
    const alias = await valid(openRouter.endpoints.list({ author: '~anthropic', slug: 'claude-sonnet-latest' }));
    expect(alias.data.id).toBe('~anthropic/claude-sonnet-latest');
    expect(alias.data.endpoints.map((e) => e.providerName)).toEqual(['Anthropic', 'Amazon Bedrock', 'Google']);
    const error = await openRouter.endpoints.list({ author: 'openai', slug: 'no-such-model' }).then(
      () => expect.fail('expected a 404'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(errors.NotFoundResponseError);
    expect((error as errors.NotFoundResponseError).data$.error.message).toBe('Model openai/no-such-model not found');
  });

  it("every model's links.details answers 200 (base models, variants and aliases)", async () => {
    const ids = [...fixtures.models.map((m) => m.id), 'openai/gpt-4o:free', 'meta-llama/llama-3.3-70b-instruct:nitro', ...fixtures.aliases.map((a) => a.alias)];
    for (const id of ids) {
      const model = await getJson<{ data: { links: { details: string } } }>(mock.baseUrl, `/model/${id}`, KEY);
      expect(model.res.status, id).toBe(200);
      const path = model.body.data.links.details;
      expect(path.startsWith('/api/v1/')).toBe(true);
      const details = await getJson<{ data: { id: string; endpoints: unknown[] } }>(mock.baseUrl, path.slice('/api/v1'.length), KEY);
      expect(details.res.status, path).toBe(200);
      expect(details.body.data.endpoints.length).toBeGreaterThan(0);
    }
  });

  it("openai models.list() pages through the same text models", async () => {
    const openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(textIds);
  });

  it('needs the bearer key like every other operation', async () => {
    for (const path of ['/models', '/models/count', '/models/openai/gpt-4o/endpoints', '/key', '/credits']) {
      const res = await fetch(`${mock.baseUrl}${path}`);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe('No auth credentials found');
    }
  });

  it('a wrong method is a 405 naming GET', async () => {
    const res = await fetch(`${mock.baseUrl}/models`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

describe.each(modes)('scenarios on the discovery and account reads ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 3, now: () => NOW });
  });
  afterAll(() => mock.stop());

  /** `GET path` with extra headers; the status, the headers that matter and the envelope. */
  async function get(path: string, headers: Record<string, string>) {
    const res = await fetch(`${mock.baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}`, ...headers } });
    const pick = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((h) => [h, res.headers.get(h)]);
    return { status: res.status, headers: Object.fromEntries(pick) as Record<string, string | null>, body: (await res.json()) as { error: { message: string; metadata: unknown } } };
  }

  it.for([
    [429, 'rate-limited'],
    [503, 'service-unavailable'],
  ] as const)('X-Mock-Status: %i carries the same Retry-After and rate-limit headers as the built-in %s scenario', async ([status, scenario]) => {
    for (const path of ['/models', '/models/count', '/models/openai/gpt-4o/endpoints', '/key', '/credits', '/model/openai/gpt-4o']) {
      const byStatus = await get(path, { 'X-Mock-Status': String(status) });
      const byScenario = await get(path, { 'X-Mock-Scenario': scenario });
      expect(byStatus.status).toBe(status);
      expect(byStatus.headers['retry-after'], path).toBe(status === 429 ? '60' : '30');
      expect(byStatus.headers, path).toEqual(byScenario.headers);
      expect(byStatus.body, path).toEqual(byScenario.body);
    }
  });

  it('match.operation and match.model select the new operations, and the journal names them', async () => {
    mock.gateway.useScenario({ name: 'no-openai-endpoints', rules: [{ match: { operation: 'endpoints', model: 'openai/*' }, error: { status: 404, message: 'gone' } }] });
    try {
      expect((await get('/models/openai/gpt-4o/endpoints', {})).status).toBe(404);
      expect((await get('/models/x-ai/grok-4/endpoints', {})).status).toBe(200);
      expect((await get('/model/openai/gpt-4o', {})).status).toBe(200);
    } finally {
      mock.gateway.useScenario(null);
    }
    for (const path of ['/models', '/models/count', '/models/openai/gpt-4o/endpoints', '/key', '/credits']) await get(path, {});
    const entries = (await mock.gateway.sharedJournal.list()).slice(-5);
    expect(entries.map((e) => e.operation)).toEqual(['models', 'models-count', 'endpoints', 'key', 'credits']);
  });
});

describe('seeded endpoint measures', () => {
  /** The endpoints of `id` on a fresh gateway of `seed`. */
  async function endpoints(seed: number, id: string): Promise<unknown> {
    const gateway = createGateway({ seed });
    const response = await gateway.handle({ method: 'GET', path: `/api/v1/models/${id}/endpoints`, query: '', headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    return JSON.parse(String(response.body)) as unknown;
  }

  it('are the same for one seed and differ for another', async () => {
    const a = await endpoints(1, 'meta-llama/llama-3.3-70b-instruct');
    expect(await endpoints(1, 'meta-llama/llama-3.3-70b-instruct')).toEqual(a);
    expect(await endpoints(2, 'meta-llama/llama-3.3-70b-instruct')).not.toEqual(a);
  });
});
