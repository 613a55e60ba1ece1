import { ModelResponse$inboundSchema } from '@openrouter/sdk/models';
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../src/core/catalog/catalog.js';
import { EXTENDED_CONTEXT_FACTOR, ONLINE_WEB_SEARCH_PRICE, VARIANTS } from '../../src/core/catalog/variants.js';
import type { ResolvedModel } from '../../src/core/catalog/catalog.js';
import { loadFixtures } from '../../src/node-platform/fixtures.js';

const fixtures = loadFixtures();
const catalog = createCatalog(fixtures);

function resolved(id: string): ResolvedModel {
  const r = catalog.resolve(id);
  if (!r) throw new Error(`${id} did not resolve`);
  return r;
}

/** Every id the catalog answers: base ids, aliases, and each of them with every variant. */
const allIds = [...catalog.ids(), ...fixtures.aliases.map((a) => a.alias)].flatMap((id) => [id, ...VARIANTS.map((v) => `${id}:${v}`)]);

describe('catalog', () => {
  it('lists the base ids in file order', () => {
    expect(catalog.ids()).toEqual(fixtures.models.map((m) => m.id));
  });

  it('answers every base id, variant and alias with a record the SDK accepts', () => {
    expect(allIds.length).toBe((fixtures.models.length + fixtures.aliases.length) * (VARIANTS.length + 1));
    for (const id of allIds) {
      const r = resolved(id);
      const body = catalog.body(id);
      expect(body, id).toBe(JSON.stringify({ data: r.record }));
      const parsed = ModelResponse$inboundSchema.parse(JSON.parse(body ?? ''));
      expect(parsed.data.canonicalSlug, id).toBe(fixtures.models.find((m) => m.id === r.baseId)?.canonical_slug);
    }
  });

  it('returns base records unchanged, with no variant', () => {
    for (const m of fixtures.models) {
      const r = resolved(m.id);
      expect(r.record).toEqual(m);
      expect(r.baseId).toBe(m.id);
      expect(r.variant).toBeNull();
      expect(r.speech).toEqual(fixtures.speech[m.id] ?? null);
      expect(r.transcription).toEqual(fixtures.transcription?.[m.id] ?? null);
    }
  });

  it('memoizes bodies and freezes records', () => {
    expect(catalog.body('openai/gpt-4o:free')).toBe(catalog.body('openai/gpt-4o:free'));
    expect(catalog.resolve('openai/gpt-4o:free')).toBe(catalog.resolve('openai/gpt-4o:free'));
    const r = resolved('openai/gpt-4o');
    expect(Object.isFrozen(r.record)).toBe(true);
    expect(Object.isFrozen(r.record.pricing)).toBe(true);
    expect(() => { (r.record as { name: string }).name = 'x'; }).toThrow(TypeError);
  });

  it('keeps memoizing within a bounded cache', () => {
    const small = createCatalog(fixtures, { cacheSize: 2 });
    for (const id of allIds) expect(small.body(id)).toBe(catalog.body(id));
    expect(small.body('openai/gpt-4o:nitro')).toBe(catalog.body('openai/gpt-4o:nitro'));
  });

  it('does not modify the fixtures it is given', () => {
    const copy = structuredClone(fixtures);
    createCatalog(fixtures).resolve('openai/gpt-4o:free');
    expect(fixtures).toEqual(copy);
    expect(Object.isFrozen(fixtures.models[0])).toBe(false);
  });
});

describe('listed variant ids (a saved real catalog)', () => {
  it('serves a listed author/slug:free record as listed, and as the free variant (its limit applies)', () => {
    const base = fixtures.models.find((m) => m.id === 'openai/gpt-4o')!;
    const listed = { ...base, id: 'openai/gpt-4o:free', name: 'OpenAI: GPT-4o (free)', pricing: { ...base.pricing, prompt: '0', completion: '0' } };
    const saved = createCatalog({ ...fixtures, models: [...fixtures.models, listed] });
    const resolved = saved.resolve('openai/gpt-4o:free')!;
    expect(resolved.record).toEqual(listed);
    expect(resolved.variant).toBe('free');
    expect(saved.resolve('openai/gpt-4o')!.variant).toBeNull();
  });
});

describe('variants', () => {
  it('keep the suffix in id, the base canonical_slug, and suffix the name', () => {
    for (const base of fixtures.models) {
      for (const variant of VARIANTS) {
        const r = resolved(`${base.id}:${variant}`);
        expect(r.variant).toBe(variant);
        expect(r.baseId).toBe(base.id);
        expect(r.record.id).toBe(`${base.id}:${variant}`);
        expect(r.record.canonical_slug).toBe(base.canonical_slug);
        expect(r.record.name).toBe(`${base.name} (${variant})`);
        expect(r.record.links.details).toBe(`/api/v1/models/${base.id}:${variant}/endpoints`);
        expect(r.speech).toEqual(fixtures.speech[base.id] ?? null);
        expect(r.transcription).toEqual(fixtures.transcription?.[base.id] ?? null);
        expect(r.record.supported_voices).toEqual(base.supported_voices);
      }
    }
  });

  it(':free zeroes every price', () => {
    const r = resolved('openai/gpt-4o-mini:free');
    expect(r.record.pricing).toEqual({ prompt: '0', completion: '0', request: '0', image: '0' });
    expect(r.record.name).toBe('OpenAI: GPT-4o-mini (free)');
    const tts = resolved('x-ai/grok-voice-tts-1.0:free');
    expect(Object.values(tts.record.pricing).every((v) => v === '0')).toBe(true);
  });

  it(':extended multiplies the context length', () => {
    const base = resolved('openai/gpt-4o-mini').record;
    const r = resolved('openai/gpt-4o-mini:extended').record;
    expect(r.context_length).toBe(128000 * EXTENDED_CONTEXT_FACTOR);
    expect(r.top_provider.context_length).toBe(128000 * EXTENDED_CONTEXT_FACTOR);
    expect(r.pricing).toEqual(base.pricing);
  });

  it(':online adds web_search pricing unless the base has it', () => {
    const r = resolved('openai/gpt-4o-mini:online').record;
    expect(r.pricing.web_search).toBe(ONLINE_WEB_SEARCH_PRICE);
    expect(r.supported_parameters).toContain('web_search_options');
    expect(resolved('openai/gpt-5:online').record.pricing.web_search).toBe(resolved('openai/gpt-5').record.pricing.web_search);
  });

  it(':thinking ensures a mandatory reasoning object', () => {
    const plain = resolved('openai/gpt-4o-mini:thinking').record;
    expect(resolved('openai/gpt-4o-mini').record.reasoning).toBeUndefined();
    expect(plain.reasoning).toMatchObject({ mandatory: true, default_enabled: true });
    expect(plain.supported_parameters).toEqual(expect.arrayContaining(['reasoning', 'include_reasoning']));
    const sonnet = resolved('anthropic/claude-sonnet-4.5:thinking').record;
    expect(sonnet.reasoning).toEqual({ ...resolved('anthropic/claude-sonnet-4.5').record.reasoning, mandatory: true, default_enabled: true });
  });

  it(':nitro, :floor and :exacto change only id, name and link', () => {
    const base = resolved('meta-llama/llama-3.3-70b-instruct').record;
    for (const variant of ['nitro', 'floor', 'exacto']) {
      const r = resolved(`meta-llama/llama-3.3-70b-instruct:${variant}`).record;
      const { id: _id, name: _name, links: _links, ...rest } = r;
      const { id: _bid, name: _bname, links: _blinks, ...baseRest } = base;
      expect(rest).toEqual(baseRest);
    }
  });

  it('apply to speech models too', () => {
    expect(catalog.speechModel('google/gemini-3.1-flash-tts-preview:nitro')?.response_formats).toEqual(['pcm']);
    expect(resolved('openai/gpt-4o-mini-tts-2025-12-15:floor').speech?.supports_speed).toBe(true);
  });
});

describe('aliases', () => {
  it('a plain alias answers with the target record unchanged', () => {
    const r = resolved('anthropic/claude-3-5-sonnet');
    expect(r.record).toBe(resolved('anthropic/claude-3.5-sonnet').record);
    expect(r.record.id).toBe('anthropic/claude-3.5-sonnet');
    expect(r.baseId).toBe('anthropic/claude-3.5-sonnet');
    expect(r.variant).toBeNull();
    expect(catalog.body('anthropic/claude-3-5-sonnet')).toBe(catalog.body('anthropic/claude-3.5-sonnet'));
  });

  it('a plain alias with a variant answers with the target variant', () => {
    expect(resolved('anthropic/claude-3-5-sonnet:free').record).toEqual(resolved('anthropic/claude-3.5-sonnet:free').record);
  });

  it('a ~latest alias keeps its own id and carries alias_target', () => {
    const target = resolved('anthropic/claude-sonnet-4.5').record;
    const r = resolved('~anthropic/claude-sonnet-latest');
    expect(r.baseId).toBe('anthropic/claude-sonnet-4.5');
    expect(r.record.id).toBe('~anthropic/claude-sonnet-latest');
    expect(r.record.alias_target).toEqual({ slug: 'anthropic/claude-sonnet-4.5', name: target.name });
    const { id: _id, alias_target: _at, links: _links, ...rest } = r.record;
    const { id: _tid, links: _tlinks, ...targetRest } = target;
    expect(rest).toEqual(targetRest);
    const parsed = ModelResponse$inboundSchema.parse(JSON.parse(catalog.body('~anthropic/claude-sonnet-latest') ?? ''));
    expect(parsed.data.aliasTarget).toEqual({ slug: 'anthropic/claude-sonnet-4.5', name: 'Anthropic: Claude Sonnet 4.5' });
  });

  it('a ~latest alias with a variant names the concrete variant', () => {
    const r = resolved('~anthropic/claude-sonnet-latest:free');
    expect(r.record.id).toBe('~anthropic/claude-sonnet-latest:free');
    expect(r.variant).toBe('free');
    expect(r.record.pricing.prompt).toBe('0');
    expect(r.record.alias_target).toEqual({ slug: 'anthropic/claude-sonnet-4.5:free', name: 'Anthropic: Claude Sonnet 4.5 (free)' });
  });
});

describe('unknown ids', () => {
  it.each([
    'openai/gpt-4o:turbo',
    'openai/gpt-4o:free:nitro',
    'openai/gpt-4o:',
    'openai/gpt-5o',
    'OpenAI/GPT-4o',
    'openai',
    '',
    ':free',
    'anthropic/claude-3-5-sonnet:bogus',
    '~anthropic/claude-opus-latest',
    'openai/gpt-4o%3Afree',
  ])('%j resolves to undefined', (id) => {
    expect(catalog.resolve(id)).toBeUndefined();
    expect(catalog.body(id)).toBeUndefined();
    expect(catalog.speechModel(id)).toBeUndefined();
  });

  it('speechModel is undefined for chat models', () => {
    expect(catalog.speechModel('openai/gpt-4o-mini')).toBeUndefined();
    expect(catalog.speechModel('openai/gpt-4o-mini-tts-2025-12-15')).toEqual(fixtures.speech['openai/gpt-4o-mini-tts-2025-12-15']);
  });
});
