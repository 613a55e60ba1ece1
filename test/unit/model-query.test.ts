/**
 * The model query (src/core/catalog/model-query.ts) called as functions: `parseModelQuery` (each parameter's
 * parsing and its 400 message) and `selectModels` (each filter, each sort, paging) over a small hand-made list
 * whose answers are known exactly; then the list the catalog gives them (base models only: variants and aliases
 * are answered by lookup). The same query through HTTP, in every mode, is test/model-filters.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCatalog } from '../../src/core/catalog/catalog.js';
import { DEFAULT_LIMIT, MAX_LIMIT, parseModelQuery, selectModels, type ModelFacts, type ModelQuery } from '../../src/core/catalog/model-query.js';
import type { ModelRecord, ProviderEntry } from '../../src/core/formats/fixture-schema.js';
import { GatewayError } from '../../src/core/base/error-envelope.js';
import { loadFixtures } from '../../src/node-platform/fixtures.js';

const DAY_S = 86_400;
/** The clock of every selection: 2026-01-02, unix seconds. */
const NOW_S = Date.UTC(2026, 0, 2) / 1000;

const fixtures = loadFixtures();
const template = fixtures.models.find((model) => model.id === 'openai/gpt-4o-mini')!;

/** A record built from a real one with `id`, `name` and the given changes. */
function record(id: string, changes: { name?: string; days?: number; prompt?: string; completion?: string; context?: number | null; inputs?: string[]; outputs?: string[]; parameters?: string[]; tokenizer?: string }): ModelRecord {
  const base = structuredClone(template);
  return {
    ...base,
    id,
    canonical_slug: id,
    name: changes.name ?? id,
    created: NOW_S - (changes.days ?? 100) * DAY_S,
    context_length: changes.context === undefined ? 100_000 : changes.context,
    pricing: { ...base.pricing, prompt: changes.prompt ?? '0.000001', completion: changes.completion ?? '0.000002' },
    architecture: {
      ...base.architecture,
      input_modalities: (changes.inputs ?? ['text']) as ModelRecord['architecture']['input_modalities'],
      output_modalities: (changes.outputs ?? ['text']) as ModelRecord['architecture']['output_modalities'],
      tokenizer: (changes.tokenizer ?? 'GPT') as ModelRecord['architecture']['tokenizer'],
    },
    supported_parameters: changes.parameters ?? ['max_tokens'],
  };
}

/** Five text models and a speech model; prices are USD per token. */
const RECORDS: ModelRecord[] = [
  record('alpha/one', { name: 'Alpha: One', days: 10, prompt: '0.000001', completion: '0.000004', context: 8_000, parameters: ['max_tokens', 'tools'], inputs: ['text', 'image'] }),
  record('alpha/two', { name: 'Alpha: Two', days: 400, prompt: '0.000010', completion: '0.000030', context: 1_000_000, parameters: ['tools', 'reasoning'], tokenizer: 'Claude' }),
  record('beta/three', { name: 'Beta: Three', days: 50, prompt: '0', completion: '0', context: null }),
  record('beta/four', { name: 'Beta: Four', days: 200, prompt: '0.000002', completion: '0.000002', context: 32_000, inputs: ['text', 'audio', 'image'] }),
  record('gamma/five', { name: 'Gamma: Five', days: 50, prompt: '0.000001', completion: '0.000004', context: 8_000 }),
  record('gamma/voice', { name: 'Gamma: Voice', days: 5, outputs: ['speech'], context: 4_000 }),
];

/** Providers and performance of each record: `alpha/*` served by Acme, the others by Bolt; latency and throughput given. */
const PERFORMANCE: Record<string, { latencyS: number; throughput: number }> = {
  'alpha/one': { latencyS: 0.9, throughput: 50 },
  'alpha/two': { latencyS: 0.3, throughput: 120 },
  'beta/three': { latencyS: 0.5, throughput: 80 },
  'beta/four': { latencyS: 0.3, throughput: 200 },
  'gamma/five': { latencyS: 1.5, throughput: 10 },
  'gamma/voice': { latencyS: 0.2, throughput: 300 },
};
const performance = vi.fn((id: string) => PERFORMANCE[id]!);
function factsOf(model: ModelRecord): ModelFacts {
  const provider: ProviderEntry = model.id.startsWith('alpha/')
    ? { provider_name: 'Acme Cloud', tag: 'acme/fp8', quantization: 'fp8' }
    : { provider_name: 'Bolt', tag: 'bolt', quantization: 'unknown' };
  return { providers: [provider], performance: () => performance(model.id) };
}

/** The ids `query` (a query string) selects from {@link RECORDS}. */
function ids(query: string): string[] {
  return select(query).data.map((model) => model.id);
}
function select(query: string) {
  return selectModels(RECORDS, parseModelQuery(new URLSearchParams(query)), factsOf, NOW_S);
}

/** The message of the 400 `parseModelQuery` throws for `query`. */
function problem(query: string, only?: readonly (keyof ModelQuery)[]): string {
  try {
    parseModelQuery(new URLSearchParams(query), only);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    return (error as GatewayError).message;
  }
  throw new Error(`no error for ${query}`);
}

describe('parseModelQuery', () => {
  it('reads lists (trimmed, empty items dropped), all, numbers and strings', () => {
    expect(parseModelQuery(new URLSearchParams('output_modalities= text, speech ,&input_modalities=image&supported_parameters=tools,,reasoning&model_authors=A&q=x&context=100&min_price=0.5&max_age_days=7.5&sort=newest&offset=3&limit=10'))).toEqual({
      output_modalities: ['text', 'speech'],
      input_modalities: ['image'],
      supported_parameters: ['tools', 'reasoning'],
      model_authors: ['A'],
      q: 'x',
      context: 100,
      min_price: 0.5,
      max_age_days: 7.5,
      sort: 'newest',
      offset: 3,
      limit: 10,
    });
    expect(parseModelQuery(new URLSearchParams('output_modalities=all'))).toEqual({ output_modalities: 'all' });
    expect(parseModelQuery(new URLSearchParams('nothing=1&category=legal&min_intelligence_index=-3'))).toEqual({ category: 'legal', min_intelligence_index: -3 });
  });

  it.each([
    ['limit=0', `limit: expected a whole number from 1 to ${MAX_LIMIT}, got "0"`],
    [`limit=${MAX_LIMIT + 1}`, `limit: expected a whole number from 1 to ${MAX_LIMIT}, got "${MAX_LIMIT + 1}"`],
    ['offset=-1', 'offset: expected a whole number from 0, got "-1"'],
    ['context=1.5', 'context: expected a whole number from 0, got "1.5"'],
    ['min_price=cheap', 'min_price: expected a number ≥ 0, got "cheap"'],
    ['max_output_price=', 'max_output_price: expected a number ≥ 0, got ""'],
    ['output_modalities=smell', 'output_modalities: unknown value "smell"; expected a comma-separated list of text, image, embeddings, audio, video, rerank, decisions, speech, transcription, or "all"'],
    ['input_modalities=,', 'input_modalities: empty; expected a comma-separated list of text, image, audio, file, video'],
    ['region=asia', 'region: expected one of eu, us, got "asia"'],
    ['limit=1&limit=2', 'limit: expected one value, got 2 (a repeated query parameter)'],
  ])('%s is a 400: %s', (query, message) => {
    expect(problem(query)).toBe(message);
  });

  it('reads only the parameters it is given (listModelsCount takes output_modalities alone)', () => {
    expect(parseModelQuery(new URLSearchParams('output_modalities=speech&limit=0&q=x'), ['output_modalities'])).toEqual({ output_modalities: ['speech'] });
    expect(problem('output_modalities=smell&limit=0', ['output_modalities'])).toMatch(/^output_modalities: /);
  });
});

describe('selectModels: filters', () => {
  it('lists text models by default, all of them with output_modalities=all, in list order', () => {
    expect(ids('')).toEqual(['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five']);
    expect(ids('output_modalities=all')).toEqual(RECORDS.map((model) => model.id));
    expect(ids('output_modalities=speech')).toEqual(['gamma/voice']);
    expect(ids('output_modalities=speech,text')).toEqual(RECORDS.map((model) => model.id));
  });

  it('lists a speech-to-text model only when transcription (or all) is asked for', () => {
    const ears = record('delta/ears', { name: 'Delta: Ears', days: 5, outputs: ['transcription'], inputs: ['audio'], context: null, parameters: ['temperature'] });
    const records = [...RECORDS, ears];
    const listed = (query: string) => selectModels(records, parseModelQuery(new URLSearchParams(query)), factsOf, NOW_S).data.map((model) => model.id);
    expect(listed('')).toEqual(['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five']);
    expect(listed('output_modalities=transcription')).toEqual(['delta/ears']);
    expect(listed('output_modalities=transcription,speech')).toEqual(['gamma/voice', 'delta/ears']);
    expect(listed('output_modalities=all')).toEqual(records.map((model) => model.id));
    expect(listed('output_modalities=transcription&input_modalities=audio')).toEqual(['delta/ears']);
  });

  it.each([
    ['input_modalities=image', ['alpha/one', 'beta/four']],
    ['input_modalities=image,audio', ['beta/four']],
    ['supported_parameters=tools', ['alpha/one', 'alpha/two']],
    ['supported_parameters=tools,reasoning', ['alpha/two']],
    ['q=ALPHA', ['alpha/one', 'alpha/two']],
    ['q=%20three%20', ['beta/three']],
    ['q=a/t', ['alpha/two', 'beta/three']],
    ['model_authors=Beta,gamma', ['beta/three', 'beta/four', 'gamma/five']],
    ['providers=acme cloud', ['alpha/one', 'alpha/two']],
    ['providers=ACME', ['alpha/one', 'alpha/two']],
    ['providers=bolt', ['beta/three', 'beta/four', 'gamma/five']],
    ['arch=claude', ['alpha/two']],
    ['context=32000', ['alpha/two', 'beta/four']],
    ['min_price=2', ['alpha/two', 'beta/four']],
    ['max_price=1', ['alpha/one', 'beta/three', 'gamma/five']],
    ['min_output_price=4&max_output_price=4', ['alpha/one', 'gamma/five']],
    ['max_age_days=50', ['alpha/one', 'beta/three', 'gamma/five']],
    ['min_age_days=200', ['alpha/two', 'beta/four']],
    ['min_age_days=40&max_age_days=60', ['beta/three', 'gamma/five']],
    ['category=legal&distillable=true&zdr=true&region=eu&use_rss=false&min_coding_index=99&max_tool_success_rate=0', ['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five']],
  ])('%s selects %j', (query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  it('counts the matches over all pages', () => {
    expect(select('model_authors=alpha,beta&limit=1')).toMatchObject({ total: 4, limit: 1, nextOffset: 1 });
  });
});

describe('selectModels: sorts', () => {
  it.each([
    ['newest', ['alpha/one', 'beta/three', 'gamma/five', 'beta/four', 'alpha/two']],
    ['pricing-low-to-high', ['beta/three', 'beta/four', 'alpha/one', 'gamma/five', 'alpha/two']],
    ['pricing-high-to-low', ['alpha/two', 'alpha/one', 'gamma/five', 'beta/four', 'beta/three']],
    ['context-high-to-low', ['alpha/two', 'beta/four', 'alpha/one', 'gamma/five', 'beta/three']],
    ['throughput-high-to-low', ['beta/four', 'alpha/two', 'beta/three', 'alpha/one', 'gamma/five']],
    ['latency-low-to-high', ['alpha/two', 'beta/four', 'beta/three', 'alpha/one', 'gamma/five']],
    ['most-popular', ['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five']],
    ['intelligence-high-to-low', ['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five']],
  ])('sort=%s orders %j (ties and sorts without data keep the list order; no context goes last)', (sort, expected) => {
    expect(ids(`sort=${sort}`)).toEqual(expected);
  });

  it('asks for performance only to sort by it', () => {
    performance.mockClear();
    ids('sort=newest&q=a');
    expect(performance).not.toHaveBeenCalled();
    ids('sort=latency-low-to-high');
    expect(performance).toHaveBeenCalledTimes(5);
  });
});

describe('selectModels: paging', () => {
  const all = ['alpha/one', 'alpha/two', 'beta/three', 'beta/four', 'gamma/five'];

  it('gives the whole list without offset and limit', () => {
    expect(select('')).toEqual({ data: expect.any(Array), total: 5, nextOffset: null, limit: null });
  });

  it('gives limit models from offset, and the next offset until the last page', () => {
    expect(select('limit=2')).toMatchObject({ total: 5, nextOffset: 2, limit: 2 });
    expect(ids('limit=2&offset=2')).toEqual(all.slice(2, 4));
    expect(select('limit=2&offset=2')).toMatchObject({ nextOffset: 4 });
    expect(ids('limit=2&offset=4')).toEqual(['gamma/five']);
    expect(select('limit=2&offset=4')).toMatchObject({ nextOffset: null });
    expect(select('limit=5')).toMatchObject({ nextOffset: null });
    expect(select('offset=9')).toMatchObject({ data: [], total: 5, nextOffset: null });
  });

  it(`takes ${DEFAULT_LIMIT} models when only offset is given, and pages after sorting`, () => {
    expect(select('offset=1')).toMatchObject({ limit: DEFAULT_LIMIT, nextOffset: null });
    expect(ids('offset=1')).toEqual(all.slice(1));
    expect(ids('sort=newest&limit=2&offset=1')).toEqual(['beta/three', 'gamma/five']);
  });
});

describe('the catalog list: base models only', () => {
  const catalog = createCatalog(fixtures);
  const everything = selectModels(catalog.models(), parseModelQuery(new URLSearchParams('output_modalities=all')), () => ({ providers: [], performance: () => ({ latencyS: 0, throughput: 0 }) }), NOW_S);

  it('lists every base model once, in file order, and no variant or alias', () => {
    expect(everything.data.map((model) => model.id)).toEqual(fixtures.models.map((model) => model.id));
    const aliases = new Set(fixtures.aliases.map((alias) => alias.alias));
    for (const model of everything.data) {
      expect(aliases.has(model.id)).toBe(false);
      expect(catalog.resolve(model.id)).toMatchObject({ baseId: model.id, variant: null, record: model });
    }
  });

  it("answers a listed model's variants and aliases by lookup, from the listed record", () => {
    const listed = everything.data.find((model) => model.id === 'openai/gpt-4o')!;
    const free = catalog.resolve('openai/gpt-4o:free')!;
    expect(free).toMatchObject({ baseId: 'openai/gpt-4o', variant: 'free' });
    expect(free.record.canonical_slug).toBe(listed.canonical_slug);
    expect(everything.data.some((model) => model.id === free.record.id)).toBe(false);
    for (const alias of fixtures.aliases) {
      const resolved = catalog.resolve(alias.alias)!;
      expect(resolved.baseId).toBe(alias.target);
      expect(everything.data.map((model) => model.id)).toContain(alias.target);
    }
  });
});
