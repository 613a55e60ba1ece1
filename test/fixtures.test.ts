import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiType,
  DataRegion,
  GenerationResponse$inboundSchema,
  InputModality,
  InstructType,
  ModelGroup,
  ModelResponse$inboundSchema,
  OutputModality,
  Parameter,
  ProviderName,
  ProviderResponseProviderName,
  Quantization,
  ReasoningEffort,
} from '@openrouter/sdk/models';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../scripts/generate-fixtures.js';
import { FixtureError } from '../src/core/base/errors.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { DEFAULT_FIXTURES_DIR } from '../src/node-platform/package-files.js';
import type { ModelRecord } from '../src/core/formats/fixture-schema.js';

const fixtures = loadFixtures();
const values = (e: Record<string, string>): Set<string> => new Set(Object.values(e));

/** Keys of a Model record per `docs/behaviour.md` ("Model lookup"). */
const MODEL_KEYS = [
  'id', 'canonical_slug', 'name', 'created', 'pricing', 'context_length', 'architecture', 'top_provider',
  'per_request_limits', 'supported_parameters', 'default_parameters', 'supported_voices', 'links',
  'description', 'hugging_face_id', 'expiration_date', 'knowledge_cutoff',
];

/** Keys of a Generation record per `docs/behaviour.md` ("Generation lookup"). */
const GENERATION_KEYS = [
  'id', 'upstream_id', 'total_cost', 'cache_discount', 'upstream_inference_cost', 'created_at', 'model', 'app_id',
  'streamed', 'cancelled', 'provider_name', 'latency', 'moderation_latency', 'generation_time', 'finish_reason',
  'service_tier', 'tokens_prompt', 'tokens_completion', 'native_tokens_prompt', 'native_tokens_completion',
  'native_tokens_completion_images', 'native_tokens_reasoning', 'native_tokens_cached', 'num_media_prompt',
  'num_input_audio_prompt', 'num_media_completion', 'num_search_results', 'num_fetches', 'web_search_engine', 'origin',
  'usage', 'is_byok', 'native_finish_reason', 'external_user', 'api_type', 'preset_id', 'router',
  'provider_responses', 'user_agent', 'http_referer', 'data_region', 'workspace_id', 'request_id', 'session_id',
];
const NEVER_NULL = ['id', 'created_at', 'model', 'origin', 'total_cost', 'usage', 'is_byok', 'data_region'];

/** The speech table of `docs/behaviour.md` ("Speech models and voices"). */
const FACT_VOICES: Record<string, string[]> = {
  'openai/gpt-4o-mini-tts-2025-12-15': ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
  'mistralai/voxtral-mini-tts-2603': ['en_paul_neutral', 'en_paul_happy', 'en_paul_sad', 'en_paul_excited', 'en_paul_confident', 'en_paul_cheerful', 'en_paul_angry', 'en_paul_frustrated', 'gb_oliver_neutral', 'gb_oliver_confident', 'gb_jane_neutral', 'gb_jane_confident', 'fr_marie_neutral', 'fr_marie_happy'],
  'google/gemini-3.1-flash-tts-preview': ['Zephyr', 'Puck', 'Charon', 'Kore', 'Fenrir', 'Leda', 'Orus', 'Aoede', 'Callirrhoe', 'Autonoe', 'Enceladus', 'Iapetus', 'Umbriel', 'Algieba', 'Despina', 'Erinome', 'Algenib', 'Rasalgethi', 'Laomedeia', 'Achernar', 'Alnilam', 'Schedar', 'Gacrux', 'Pulcherrima', 'Achird', 'Zubenelgenubi', 'Vindemiatrix', 'Sadachbia', 'Sadaltager', 'Sulafat'],
  'x-ai/grok-voice-tts-1.0': ['eve', 'ara', 'rex', 'sal', 'leo'],
  'canopylabs/orpheus-3b-0.1-ft': ['tara', 'leah', 'jess', 'leo', 'dan', 'mia', 'zac'],
};
/**
 * The table of `docs/behaviour.md` ("Transcription models"): provider, billing, price (USD per second, or per
 * token in and out) and what each takes besides base64 audio and `json`.
 */
const TRANSCRIPTION_FACTS: Record<string, { provider: string; price: { second: string } | { prompt: string; completion: string }; verbose: boolean; diarization?: true; keyterms?: true; url?: true }> = {
  'openai/whisper-1': { provider: 'OpenAI', price: { second: '0.0001' }, verbose: true },
  'openai/whisper-large-v3': { provider: 'Groq', price: { second: '0.000025' }, verbose: true },
  'openai/gpt-4o-transcribe': { provider: 'OpenAI', price: { prompt: '0.0000025', completion: '0.00001' }, verbose: false },
  'openai/gpt-4o-mini-transcribe': { provider: 'OpenAI', price: { prompt: '0.00000125', completion: '0.000005' }, verbose: false },
  'mistralai/voxtral-mini-transcribe': { provider: 'Mistral', price: { second: '0.00005' }, verbose: false },
  'google/chirp-3': { provider: 'Google', price: { second: '0.00026667' }, verbose: false },
  'assemblyai/universal-3-5-pro': { provider: 'AssemblyAI', price: { second: '0' }, verbose: true, diarization: true, keyterms: true, url: true },
};
const KOKORO_FACT_VOICES = ['af_alloy', 'af_bella', 'af_nicole', 'am_adam', 'am_michael', 'bf_emma', 'bm_lewis'];

function model(id: string): ModelRecord {
  const found = fixtures.models.find((m) => m.id === id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
}

describe('models.json', () => {
  it('has 20-30 chat models, the thirteen speech models, the seven speech-to-text models and the required ids', () => {
    const ids = fixtures.models.map((m) => m.id);
    const chat = fixtures.models.filter((m) => m.architecture.output_modalities.includes('text'));
    expect(chat.length).toBeGreaterThanOrEqual(20);
    expect(chat.length).toBeLessThanOrEqual(30);
    expect(fixtures.models.filter((m) => m.architecture.output_modalities.includes('speech'))).toHaveLength(13);
    expect(fixtures.models.filter((m) => m.architecture.output_modalities.includes('transcription')).map((m) => m.id)).toEqual(Object.keys(TRANSCRIPTION_FACTS));
    expect(ids).toEqual(expect.arrayContaining([
      'openai/gpt-4o-mini', 'openai/gpt-4o', 'anthropic/claude-3.5-sonnet', 'anthropic/claude-sonnet-4.5',
      'google/gemini-2.5-flash', 'meta-llama/llama-3.3-70b-instruct', 'x-ai/grok-4', ...Object.keys(FACT_VOICES),
      'hexgrad/kokoro-82m',
    ]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every record has every key the gateway\'s Model record has (docs/behaviour.md) and parses with the SDK schema, all enum values known', () => {
    const params = values(Parameter);
    for (const m of fixtures.models) {
      for (const key of MODEL_KEYS) expect(m, `${m.id}.${key}`).toHaveProperty(key);
      expect(() => ModelResponse$inboundSchema.parse({ data: m }), m.id).not.toThrow();
      expect(m.links.details).toBe(`/api/v1/models/${m.id}/endpoints`);
      for (const v of Object.values(m.pricing)) expect(v, m.id).toMatch(/^\d+(\.\d+)?$/);
      for (const x of m.architecture.input_modalities) expect(values(InputModality).has(x), `${m.id} ${x}`).toBe(true);
      for (const x of m.architecture.output_modalities) expect(values(OutputModality).has(x), `${m.id} ${x}`).toBe(true);
      expect(values(ModelGroup).has(m.architecture.tokenizer ?? ''), m.id).toBe(true);
      if (m.architecture.instruct_type != null) expect(values(InstructType).has(m.architecture.instruct_type)).toBe(true);
      // Only values of the OpenAPI document's `Parameter` enum (the SDK's enum is open, so it would not refuse others).
      for (const p of m.supported_parameters) expect(params.has(p), `${m.id} ${p}`).toBe(true);
      for (const e of m.reasoning?.supported_efforts ?? []) expect(values(ReasoningEffort).has(e ?? ''), m.id).toBe(true);
      // A text model lists no voices; a speech model lists them, or null when it takes any voice id.
      const speaks = m.architecture.output_modalities.includes('speech');
      if (!speaks) expect(m.supported_voices, m.id).toBeNull();
      else expect(m.supported_voices === null || m.supported_voices.length > 0, m.id).toBe(true);
    }
  });

  it('keeps the real openai/gpt-4o-mini record (docs/behaviour.md, "Model lookup")', () => {
    const m = model('openai/gpt-4o-mini');
    expect(m).toMatchObject({
      id: 'openai/gpt-4o-mini',
      canonical_slug: 'openai/gpt-4o-mini',
      name: 'OpenAI: GPT-4o-mini',
      created: 1721260800,
      context_length: 128000,
      architecture: { modality: 'text+image->text', input_modalities: ['text', 'image', 'file'], output_modalities: ['text'], tokenizer: 'GPT', instruct_type: null },
      pricing: { prompt: '0.00000015', completion: '0.0000006', request: '0', image: '0.000217' },
      top_provider: { context_length: 128000, max_completion_tokens: 16384, is_moderated: true },
    });
  });

  it('has reasoning on anthropic/claude-sonnet-4.5', () => {
    expect(model('anthropic/claude-sonnet-4.5').reasoning).toMatchObject({ mandatory: false });
  });

  it('has the speech models of docs/behaviour.md, "Speech models and voices", with their exact voices', () => {
    for (const [id, voices] of Object.entries(FACT_VOICES)) {
      const m = model(id);
      expect(m.supported_voices).toEqual(voices);
      expect(m.architecture).toMatchObject({ modality: 'text->speech', input_modalities: ['text'], output_modalities: ['speech'] });
    }
    const kokoro = model('hexgrad/kokoro-82m').supported_voices ?? [];
    expect(kokoro).toEqual(expect.arrayContaining(KOKORO_FACT_VOICES));
    expect(kokoro.length).toBeGreaterThan(KOKORO_FACT_VOICES.length);
    const speechIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('speech')).map((m) => m.id);
    expect(Object.keys(fixtures.speech).sort()).toEqual(speechIds.sort());
  });

  it('gives speed to gpt-4o-mini-tts (0.25–4), MAI-Voice-2 and Seed Audio (0.5–2) only (in their speech entries, not in supported_parameters), refuses it on Gemini TTS, pcm only to Gemini TTS, and grok as the gateway lists it', () => {
    for (const id of Object.keys(fixtures.speech)) {
      expect(fixtures.speech[id]!.supports_speed === true, id).toBe(id === 'openai/gpt-4o-mini-tts-2025-12-15');
      expect(fixtures.speech[id]!.speed_range !== undefined, id).toBe(id === 'microsoft/mai-voice-2' || id === 'bytedance/seed-audio-1.0');
      expect(fixtures.speech[id]!.speed_refusal === true, id).toBe(id === 'google/gemini-3.1-flash-tts-preview');
      expect(model(id).supported_parameters, id).not.toContain('speed');
    }
    expect(fixtures.speech['microsoft/mai-voice-2']?.speed_range).toEqual({ min: 0.5, max: 2 });
    expect(fixtures.speech['bytedance/seed-audio-1.0']).toEqual({ provider_name: 'BytePlus', response_formats: ['mp3', 'pcm'], max_input_chars: 2048, speed_range: { min: 0.5, max: 2 }, input_modalities: ['audio', 'image'] });
    expect(fixtures.speech['google/gemini-3.1-flash-tts-preview']?.response_formats).toEqual(['pcm']);
    expect(fixtures.speech['openai/gpt-4o-mini-tts-2025-12-15']).toEqual({ provider_name: 'OpenAI', response_formats: ['mp3', 'pcm'], max_input_chars: 4096, supports_speed: true, instructions: true });
    expect(model('openai/gpt-4o-mini-tts-2025-12-15').pricing.prompt).toBe('0.0000006');
    const grok = model('x-ai/grok-voice-tts-1.0');
    expect(grok.pricing).toMatchObject({ prompt: '0.000015', completion: '0' });
    expect(grok.context_length).toBe(15000);
    expect(fixtures.speech['x-ai/grok-voice-tts-1.0']?.max_input_chars).toBe(15000);
  });

  it('has the speech-to-text models of docs/behaviour.md, "Transcription models", each with its transcription entry', () => {
    const sttIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('transcription')).map((m) => m.id);
    expect(Object.keys(fixtures.transcription ?? {})).toEqual(sttIds);
    for (const [id, fact] of Object.entries(TRANSCRIPTION_FACTS)) {
      const m = model(id);
      expect(m.architecture, id).toMatchObject({ modality: 'audio->transcription', input_modalities: ['audio'], output_modalities: ['transcription'] });
      expect(m.name, id).toMatch(/^[A-Z][A-Za-z]*: \S/);
      expect(m.supported_voices, id).toBeNull();
      const entry = fixtures.transcription![id]!;
      expect(entry.provider_name, id).toBe(fact.provider);
      if ('second' in fact.price) {
        expect(entry, id).toMatchObject({ priced_by: 'second', price_per_second: fact.price.second });
        expect(m.pricing, id).toMatchObject({ prompt: fact.price.second, completion: '0' });
      } else {
        expect(entry.priced_by, id).toBe('token');
        expect(entry.price_per_second, id).toBeUndefined();
        expect(m.pricing, id).toMatchObject(fact.price);
      }
      expect(entry.verbose_json, id).toBe(fact.verbose);
      expect(entry.diarization === true, id).toBe(fact.diarization === true);
      expect(entry.keyterms === true, id).toBe(fact.keyterms === true);
      expect(entry.url_input === true, id).toBe(fact.url === true);
      // A diarizing model labels speakers on verbose_json's words, so it serves verbose_json.
      if (entry.diarization === true) expect(entry.verbose_json, id).toBe(true);
    }
  });

  it('has the aliases of docs/behaviour.md, targeting base models', () => {
    expect(fixtures.aliases).toEqual(expect.arrayContaining([
      { alias: 'anthropic/claude-3-5-sonnet', target: 'anthropic/claude-3.5-sonnet' },
      { alias: '~anthropic/claude-sonnet-latest', target: 'anthropic/claude-sonnet-4.5', alias_target: true },
    ]));
  });
});

describe('models.json providers', () => {
  const providers = fixtures.providers ?? {};

  it('lists providers for every model, with names and quantizations of the OpenAPI document', () => {
    expect(Object.keys(providers)).toEqual(fixtures.models.map((m) => m.id));
    for (const [id, list] of Object.entries(providers)) {
      expect(list.length, id).toBeGreaterThan(0);
      expect(new Set(list.map((p) => p.tag)).size, `${id}: tags are unique`).toBe(list.length);
      for (const p of list) {
        expect(values(ProviderName).has(p.provider_name), `${id} ${p.provider_name}`).toBe(true);
        expect(p.quantization === null || values(Quantization).has(p.quantization), `${id} ${p.quantization}`).toBe(true);
      }
    }
  });

  it("routes a speech or speech-to-text model to its provider (first), and every generation record's provider serves its model", () => {
    for (const [id, speech] of Object.entries(fixtures.speech)) expect(providers[id]?.[0]?.provider_name, id).toBe(speech.provider_name);
    for (const [id, stt] of Object.entries(fixtures.transcription ?? {})) expect(providers[id]?.[0]?.provider_name, id).toBe(stt.provider_name);
    expect(providers['openai/whisper-large-v3']?.map((p) => p.provider_name)).toEqual(['Groq', 'Together']);
    for (const g of fixtures.generations) {
      const base = g.model.replace(/:[a-z]+$/, '');
      expect(providers[base]?.map((p) => p.provider_name), `${g.id} ${g.model}`).toContain(g.provider_name);
    }
  });
});

describe('generations.json', () => {
  it('has ~10 records of several api types', () => {
    expect(fixtures.generations.length).toBeGreaterThanOrEqual(10);
    expect(new Set(fixtures.generations.map((g) => g.api_type))).toEqual(new Set(['completions', 'tts', 'embeddings']));
  });

  it('has the memorable ids first', () => {
    const ids = fixtures.generations.map((g) => g.id);
    expect(ids[0]).toBe('gen-1773480413-MockrouterFixture001');
    expect(fixtures.generations[0]?.created_at).toBe('2026-03-14T09:26:53.589+00:00');
    expect(ids).toContain('gen-tts-1773480472-MockrouterFixtureTts');
  });

  it('every record has every key, parses with the SDK schema and uses known enum values', () => {
    const providers = values(ProviderResponseProviderName);
    const modelIds = new Set(fixtures.models.map((m) => m.id));
    for (const g of fixtures.generations) {
      for (const key of GENERATION_KEYS) expect(g, `${g.id}.${key}`).toHaveProperty(key);
      for (const key of NEVER_NULL) expect(g[key], `${g.id}.${key}`).not.toBeNull();
      expect(() => GenerationResponse$inboundSchema.parse({ data: g }), g.id).not.toThrow();
      expect(values(ApiType).has(g.api_type ?? '')).toBe(true);
      expect(values(DataRegion).has(g.data_region)).toBe(true);
      for (const r of g.provider_responses ?? []) expect(providers.has(r.provider_name ?? ''), `${g.id} ${r.provider_name}`).toBe(true);
      expect(modelIds.has(g.model.replace(/:[a-z]+$/, '')), g.model).toBe(true);
      expect(g.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
      const match = (g.api_type === 'tts' ? /^gen-tts-(\d{10})-[A-Za-z0-9]{20}$/ : /^gen-(\d{10})-[A-Za-z0-9]{20}$/).exec(g.id);
      expect(match, g.id).not.toBeNull();
      expect(Math.floor(Date.parse(g.created_at) / 1000)).toBe(Number(match?.[1]));
    }
  });
});

describe('loadFixtures', () => {
  it('validates the package fixtures with the full schemas and cross-checks (the runtime trusts them)', () => {
    expect(loadFixtures(DEFAULT_FIXTURES_DIR)).toEqual(loadFixtures());
  });

  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A temp fixtures dir holding copies of the committed files, optionally edited. */
  function tempDir(edit?: { models?: (json: { models: Record<string, unknown>[]; aliases: Record<string, unknown>[] }) => void; modelsText?: string }): string {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-fixtures-'));
    dirs.push(dir);
    const models = JSON.parse(readFileSync(join(DEFAULT_FIXTURES_DIR, 'models.json'), 'utf8')) as Parameters<NonNullable<NonNullable<typeof edit>['models']>>[0];
    edit?.models?.(models);
    writeFileSync(join(dir, 'models.json'), edit?.modelsText ?? JSON.stringify(models, null, 2));
    writeFileSync(join(dir, 'generations.json'), readFileSync(join(DEFAULT_FIXTURES_DIR, 'generations.json')));
    return dir;
  }

  function errorOf(fn: () => unknown): FixtureError {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(FixtureError);
      return err as FixtureError;
    }
    throw new Error('expected a FixtureError');
  }

  it('loads the default fixtures once per process', () => {
    expect(loadFixtures()).toBe(fixtures);
  });

  it('loads a copy of the committed files from another dir', () => {
    const loaded = loadFixtures(tempDir());
    expect(loaded).not.toBe(fixtures);
    expect(loaded).toEqual(fixtures);
  });

  it('names the file and the path of a missing key', () => {
    const dir = tempDir({ models: (json) => { delete (json.models[3]?.pricing as Record<string, unknown>).prompt; } });
    const err = errorOf(() => loadFixtures(dir));
    expect(err.message).toBe(`${join(dir, 'models.json')}: models[3].pricing.prompt: required key is missing (expected string)`);
    expect(err.file).toBe(join(dir, 'models.json'));
    expect(err.location).toBe('models[3].pricing.prompt');
  });

  it('names the path of a wrong type and of a non-decimal price', () => {
    let dir = tempDir({ models: (json) => { (json.models[0] as Record<string, unknown>).created = '2024-07-18'; } });
    expect(errorOf(() => loadFixtures(dir)).message).toBe(`${join(dir, 'models.json')}: models[0].created: expected number, received string`);
    dir = tempDir({ models: (json) => { (json.models[1]?.pricing as Record<string, unknown>).completion = '$10/M'; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: models\[1\]\.pricing\.completion: expected a decimal string/);
  });

  it('names the line and column of invalid JSON', () => {
    const dir = tempDir({ modelsText: '{\n  "models": [\n    {"id": "a/b",}\n  ]\n}\n' });
    const err = errorOf(() => loadFixtures(dir));
    expect(err.message).toMatch(new RegExp(`^${escape(join(dir, 'models.json'))}: line 3, column \\d+: invalid JSON: `));
    expect(err.message).not.toContain('\n');
  });

  it('reports a missing models.json; generations.json may be left out (no records then)', () => {
    const dir = tempDir();
    rmSync(join(dir, 'models.json'));
    expect(errorOf(() => loadFixtures(dir)).message).toBe(`${join(dir, 'models.json')}: file not found`);
    const without = tempDir();
    rmSync(join(without, 'generations.json'));
    expect(loadFixtures(without).generations).toEqual([]);
  });

  it('checks alias targets and speech entries', () => {
    let dir = tempDir({ models: (json) => { json.aliases.push({ alias: 'x/y', target: 'x/nowhere' }); } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: aliases\[\d+\]\.target: expected the id of a model in models, got "x\/nowhere"$/);
    dir = tempDir({ models: (json) => { (json as unknown as { speech: Record<string, unknown> }).speech['hexgrad/kokoro-82m'] = undefined; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: speech\["hexgrad\/kokoro-82m"\]: missing entry for speech model/);
  });

  it('checks transcription entries both ways: every speech-to-text model has one, and each names such a model', () => {
    type Stt = { transcription: Record<string, unknown>; models: { id: string; architecture: { output_modalities: string[] } }[] };
    let dir = tempDir({ models: (json) => { delete (json as unknown as Stt).transcription['google/chirp-3']; } });
    let err = errorOf(() => loadFixtures(dir));
    expect(err.message).toBe(`${join(dir, 'models.json')}: transcription["google/chirp-3"]: missing entry for speech-to-text model "google/chirp-3" (its architecture.output_modalities include "transcription")`);
    expect(err.location).toBe('transcription["google/chirp-3"]');
    dir = tempDir({ models: (json) => { delete (json as { transcription?: unknown }).transcription; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: transcription\["openai\/whisper-1"\]: missing entry for speech-to-text model/);
    dir = tempDir({ models: (json) => { (json as unknown as Stt).transcription['openai/gpt-4o-mini'] = { provider_name: 'OpenAI', priced_by: 'token' }; } });
    err = errorOf(() => loadFixtures(dir));
    expect(err.message).toBe(`${join(dir, 'models.json')}: transcription["openai/gpt-4o-mini"]: model "openai/gpt-4o-mini" does not list "transcription" in architecture.output_modalities`);
    dir = tempDir({ models: (json) => { (json as unknown as Stt).transcription['x/nowhere'] = { provider_name: 'OpenAI', priced_by: 'token' }; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: transcription\["x\/nowhere"\]: expected the id of a model in models, got "x\/nowhere"$/);
    dir = tempDir({ models: (json) => { (json as unknown as Stt).transcription['google/chirp-3'] = { provider_name: 'Google', priced_by: 'second' }; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: transcription\["google\/chirp-3"\]\.price_per_second: expected price_per_second for priced_by "second"/);
  });

  it('checks the providers map: known model ids, the speech provider among them, known quantizations', () => {
    type Providers = { providers: Record<string, { provider_name: string; tag: string; quantization: string | null }[]> };
    let dir = tempDir({ models: (json) => { (json as unknown as Providers).providers['x/nowhere'] = [{ provider_name: 'OpenAI', tag: 'openai', quantization: null }]; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/models\.json: providers\["x\/nowhere"\]: expected the id of a model in models, got "x\/nowhere"$/);
    dir = tempDir({ models: (json) => { (json as unknown as Providers).providers['hexgrad/kokoro-82m'] = [{ provider_name: 'Together', tag: 'together', quantization: null }]; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/providers\["hexgrad\/kokoro-82m"\]: expected the speech provider "DeepInfra"/);
    dir = tempDir({ models: (json) => { (json as unknown as Providers).providers['openai/whisper-large-v3'] = [{ provider_name: 'Together', tag: 'together', quantization: null }]; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/providers\["openai\/whisper-large-v3"\]: expected the transcription provider "Groq" \(transcription\.openai\/whisper-large-v3\.provider_name\) among the providers/);
    dir = tempDir({ models: (json) => { (json as unknown as Providers).providers['openai/gpt-4o']![0]!.quantization = 'fp3'; } });
    expect(errorOf(() => loadFixtures(dir)).message).toMatch(/providers\["openai\/gpt-4o"\]\[0\]\.quantization: /);
  });

  it('reports the first of several problems with a count of the others', () => {
    const dir = tempDir({ models: (json) => { json.models[0] = {}; } });
    const err = errorOf(() => loadFixtures(dir));
    expect(err.message).toMatch(/models\[0\]\.id: required key is missing \(expected string\) \(and \d+ more problems\)$/);
    const { problems } = err as FixtureError;
    const count = Number(/and (\d+) more/.exec(err.message)![1]);
    expect(problems).toHaveLength(count + 1);
    expect(problems[0]).toEqual({ location: 'models[0].id', problem: 'required key is missing (expected string)' });
    expect(problems.map((p) => p.location)).toContain('models[0].canonical_slug');
    expect(problems.every((p) => p.location.startsWith('models[0].') && p.problem.length > 0)).toBe(true);
  });
});

describe('generate-fixtures', () => {
  it('is deterministic and reproduces the committed files', () => {
    const first = generateFixtures();
    const second = generateFixtures();
    expect(second).toEqual(first);
    expect(first['models.json']).toBe(readFileSync(join(DEFAULT_FIXTURES_DIR, 'models.json'), 'utf8'));
    expect(first['generations.json']).toBe(readFileSync(join(DEFAULT_FIXTURES_DIR, 'generations.json'), 'utf8'));
    expect(first['models.json'].endsWith('}\n')).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
