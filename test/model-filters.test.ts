/**
 * `GET /models` filters, sorts and pages, in both modes (operation `getModels`; `docs/behaviour.md`, "Discovery
 * reads"; docs/api.md "Discovery and account reads"). Each answered filter has a case with a model it includes and
 * one it excludes; each accepted-but-unanswered filter leaves the list as it is; each malformed value is a 400
 * envelope naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { modes, type RunningMode } from './support/modes.js';
import { getJson } from './support/stateful.js';

const KEY = 'sk-filters';
/** 2026-01-02: `anthropic/claude-sonnet-4.5` (2025-09-29) is about 95 days old, `openai/gpt-4o` (2024-05-13) about 600. */
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const fixtures = loadFixtures();
const textIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => m.id);

interface ListedModel {
  id: string;
  created: number;
  context_length: number | null;
  pricing: { prompt: string; completion: string };
}
interface ModelList {
  data: ListedModel[];
  links: { next: string | null };
  total_count: number;
}

/**
 * Each answered filter: its query, a model it must include and one it must exclude (both are in the catalog).
 */
const FILTERS: [query: string, includes: string, excludes: string][] = [
  ['output_modalities=speech', 'hexgrad/kokoro-82m', 'openai/gpt-4o'],
  ['output_modalities=embeddings', 'openai/text-embedding-3-small', 'openai/gpt-4o'],
  ['output_modalities=text,speech', 'hexgrad/kokoro-82m', 'openai/text-embedding-3-small'],
  ['input_modalities=image', 'openai/gpt-4o', 'meta-llama/llama-3.3-70b-instruct'],
  ['input_modalities=audio,image', 'google/gemini-2.5-flash', 'openai/gpt-4o'],
  ['supported_parameters=tools,reasoning', 'anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
  ['q=CLAUDE', 'anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
  ['q=llama-3.3', 'meta-llama/llama-3.3-70b-instruct', 'meta-llama/llama-3.1-8b-instruct'],
  ['model_authors=anthropic,x-ai', 'x-ai/grok-4', 'openai/gpt-4o'],
  ['providers=Groq', 'meta-llama/llama-3.3-70b-instruct', 'anthropic/claude-sonnet-4.5'],
  ['providers=amazon-bedrock', 'anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
  ['arch=claude', 'anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
  ['context=1000000', 'openai/gpt-4.1', 'openai/gpt-4o'],
  ['min_price=1', 'openai/gpt-4o', 'openai/gpt-4o-mini'],
  ['max_price=1', 'openai/gpt-4o-mini', 'openai/gpt-4o'],
  ['min_output_price=10', 'openai/gpt-4o', 'openai/gpt-4o-mini'],
  ['max_output_price=1', 'openai/gpt-4o-mini', 'openai/gpt-4o'],
  ['max_age_days=200', 'anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
  ['min_age_days=200', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.5'],
];

/** Filters the catalog has no data for: accepted, answered with the unfiltered list. */
const UNANSWERED = ['category=programming', 'distillable=true', 'zdr=true', 'region=eu', 'use_rss=true', 'min_intelligence_index=60', 'max_coding_index=30', 'min_tool_success_rate=0.9'];

/** Malformed values: the 400 message starts with the parameter. */
const MALFORMED: [query: string, parameter: string][] = [
  ['limit=0', 'limit'],
  ['limit=1001', 'limit'],
  ['limit=ten', 'limit'],
  ['offset=-1', 'offset'],
  ['context=lots', 'context'],
  ['min_price=cheap', 'min_price'],
  ['max_output_price=-1', 'max_output_price'],
  ['sort=best', 'sort'],
  ['output_modalities=smell', 'output_modalities'],
  ['input_modalities=text,smell', 'input_modalities'],
  ['region=asia', 'region'],
  ['distillable=maybe', 'distillable'],
  ['category=poetry', 'category'],
];

describe.each(modes)('GET /models filters ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 3, now: () => NOW });
  });
  afterAll(() => mock.stop());

  async function list(query: string): Promise<ModelList> {
    const { res, body } = await getJson<ModelList>(mock.baseUrl, `/models?${query}`, KEY);
    expect(res.status, query).toBe(200);
    return body;
  }

  it.for(FILTERS)('%s includes %s and excludes %s', async ([query, includes, excludes]) => {
    const unfiltered = (await list('output_modalities=all')).data.map((m) => m.id);
    expect(unfiltered).toContain(includes);
    expect(unfiltered).toContain(excludes);
    const ids = (await list(query)).data.map((m) => m.id);
    expect(ids).toContain(includes);
    expect(ids).not.toContain(excludes);
  });

  it.for(UNANSWERED)('%s is accepted and leaves the list as it is', async (query) => {
    expect((await list(query)).data.map((m) => m.id)).toEqual(textIds);
  });

  it.for(MALFORMED)('%s is a 400 naming %s', async ([query, parameter]) => {
    const { res, body } = await getJson<{ error: { code: number; message: string } }>(mock.baseUrl, `/models?${query}`, KEY);
    expect(res.status).toBe(400);
    expect(body.error.code).toBe(400);
    expect(body.error.message.startsWith(`${parameter}: `), body.error.message).toBe(true);
  });

  it('answers an age filter by the clock of each request, the same query before and after a move (lists are memoized, age filters not)', async () => {
    expect((await list('max_age_days=200')).data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4.5');
    expect((await list('max%5Fage_days=200')).data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4.5');
    mock.gateway.clock.advance(400 * 86_400_000);
    try {
      expect((await list('max_age_days=200')).data.map((m) => m.id)).not.toContain('anthropic/claude-sonnet-4.5');
      // The same parameter percent-encoded is the same filter (the query's reader decodes names).
      expect((await list('max%5Fage_days=200')).data.map((m) => m.id)).not.toContain('anthropic/claude-sonnet-4.5');
    } finally {
      mock.gateway.clock.set(NOW);
    }
    expect((await list('max_age_days=200')).data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4.5');
  });

  it('GET /models/count takes output_modalities only, and refuses a malformed one', async () => {
    const count = async (query: string) => (await getJson<{ data: { count: number } }>(mock.baseUrl, `/models/count?${query}`, KEY)).body.data.count;
    expect(await count('')).toBe(textIds.length);
    expect(await count('output_modalities=speech&limit=1&q=kokoro')).toBe(Object.keys(fixtures.speech).length);
    const { res, body } = await getJson<{ error: { message: string } }>(mock.baseUrl, '/models/count?output_modalities=smell', KEY);
    expect(res.status).toBe(400);
    expect(body.error.message).toMatch(/^output_modalities: unknown value "smell"/);
  });

  it('offset and limit page the list; without both the whole list comes back', async () => {
    expect((await list('')).data.map((m) => m.id)).toEqual(textIds);
    const page = await list('limit=5&offset=5');
    expect(page.data.map((m) => m.id)).toEqual(textIds.slice(5, 10));
    expect(page.total_count).toBe(textIds.length);
    expect(page.links.next).toBe('/api/v1/models?limit=5&offset=10');
    expect((await list('offset=25')).data.map((m) => m.id)).toEqual(textIds.slice(25));
    const last = await list(`offset=${textIds.length - 2}&limit=5`);
    expect(last.data).toHaveLength(2);
    expect(last.links.next).toBeNull();
    expect((await list('limit=1000')).data).toHaveLength(textIds.length);
  });

  it('sort orders by creation, price and context, and keeps the catalog order for sorts without data', async () => {
    const created = (await list('sort=newest')).data.map((m) => m.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const average = (m: ListedModel) => (Number(m.pricing.prompt) + Number(m.pricing.completion)) / 2;
    const low = (await list('sort=pricing-low-to-high')).data.map(average);
    expect(low).toEqual([...low].sort((a, b) => a - b));
    const high = (await list('sort=pricing-high-to-low')).data.map(average);
    expect(high).toEqual([...high].sort((a, b) => b - a));
    const context = (await list('sort=context-high-to-low')).data.map((m) => m.context_length ?? 0);
    expect(context).toEqual([...context].sort((a, b) => b - a));
    for (const sort of ['most-popular', 'top-weekly', 'intelligence-high-to-low', 'design-arena-elo-high-to-low']) {
      expect((await list(`sort=${sort}`)).data.map((m) => m.id), sort).toEqual(textIds);
    }
  });

  it("sort by latency and throughput follows each model's best endpoint", async () => {
    const best = async (id: string) => {
      const { body } = await getJson<{ data: { endpoints: { latency_last_30m: { p50: number }; throughput_last_30m: { p50: number } }[] } }>(mock.baseUrl, `/models/${id}/endpoints`, KEY);
      return {
        latency: Math.min(...body.data.endpoints.map((e) => e.latency_last_30m.p50)),
        throughput: Math.max(...body.data.endpoints.map((e) => e.throughput_last_30m.p50)),
      };
    };
    const latency = await Promise.all((await list('sort=latency-low-to-high')).data.map(async (m) => (await best(m.id)).latency));
    expect(latency).toEqual([...latency].sort((a, b) => a - b));
    const throughput = await Promise.all((await list('sort=throughput-high-to-low')).data.map(async (m) => (await best(m.id)).throughput));
    expect(throughput).toEqual([...throughput].sort((a, b) => b - a));
    expect(new Set(latency).size).toBeGreaterThan(10);
  });
});
