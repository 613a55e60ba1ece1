/**
 * The speech-to-text models of the catalog through the official SDK `@openrouter/sdk` 1.3.19, against the
 * in-process mock (msw): `models.list({outputModalities: 'transcription'})`, `models.count`, `models.get`,
 * `endpoints.list` and `stt.createTranscription` for each of them (the SDK validates every answer with the
 * OpenAPI document's schemas; a wrong shape is a `ResponseValidationError`, which fails the case). The SDK's
 * `PublicEndpoint` does not know `supports_diarization` yet (the Python SDK v1.3.53 added it), so that key is read
 * from the raw answer. A chat model and a speech model on the transcription endpoint are refused with 400.
 */
import { OpenRouter } from '@openrouter/sdk';
import { OutputModality, Parameter, ProviderName } from '@openrouter/sdk/models';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { mswMode, type RunningMode } from './support/modes.js';

const KEY = 'sk-transcription-models';
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const fixtures = loadFixtures();
const sttIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('transcription')).map((m) => m.id);
const textIds = fixtures.models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => m.id);
const values = (e: Record<string, string | number>) => new Set<unknown>(Object.values(e));
const split = (id: string) => ({ author: id.slice(0, id.indexOf('/')), slug: id.slice(id.indexOf('/') + 1) });

/** Fails with the SDK's own explanation when `call` rejects with a validation error; returns its result. */
async function valid<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof errors.ResponseValidationError) expect.fail(`ResponseValidationError: ${error.pretty()}`);
    throw error;
  }
}

/** `seconds` of silence as a 16 kHz, 16-bit, mono WAV file, base64. */
function silentWav(seconds: number): string {
  const dataBytes = 16000 * 2 * seconds;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(16000, 24);
  wav.writeUInt32LE(32000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav.toString('base64');
}

describe('speech-to-text models through @openrouter/sdk (msw)', () => {
  let mock: RunningMode;
  let openRouter: OpenRouter;

  beforeAll(async () => {
    mock = await mswMode.start({ seed: 5, now: () => NOW });
    openRouter = new OpenRouter({ serverURL: mock.baseUrl, apiKey: KEY, retryConfig: { strategy: 'none' } });
  });
  afterAll(() => mock.stop());

  it('are at least six, billed by the second and by the token, with each optional capability and without verbose_json somewhere', () => {
    expect(sttIds.length).toBeGreaterThanOrEqual(6);
    const entries = sttIds.map((id) => fixtures.transcription![id]!);
    expect(entries.some((e) => e.priced_by === 'second')).toBe(true);
    expect(entries.some((e) => e.priced_by === 'token')).toBe(true);
    expect(entries.some((e) => e.diarization === true)).toBe(true);
    expect(entries.some((e) => e.keyterms === true)).toBe(true);
    expect(entries.some((e) => e.url_input === true)).toBe(true);
    expect(entries.some((e) => e.verbose_json === false)).toBe(true);
    expect(sttIds.some((id) => fixtures.providers![id]!.length > 1)).toBe(true);
  });

  it("models.list({ outputModalities: 'transcription' }) lists exactly them, audio in and transcription out, with only Parameter values", async () => {
    const list = (await valid(openRouter.models.list({ outputModalities: 'transcription' }))).result;
    expect(list.data.map((m) => m.id)).toEqual(sttIds);
    expect(list.totalCount).toBe(sttIds.length);
    for (const m of list.data) {
      expect(m.architecture.inputModalities, m.id).toEqual(['audio']);
      expect(m.architecture.outputModalities, m.id).toEqual(['transcription']);
      expect(m.architecture.modality, m.id).toBe('audio->transcription');
      for (const o of m.architecture.outputModalities) expect(values(OutputModality).has(o), `${m.id} ${o}`).toBe(true);
      for (const p of m.supportedParameters) expect(values(Parameter).has(p), `${m.id} ${p}`).toBe(true);
      expect(m.supportedVoices, m.id).toBeNull();
    }
  });

  it('models.list() and models.count() leave them out by default; the counts per modality add up', async () => {
    const listed = (await valid(openRouter.models.list())).result.data.map((m) => m.id);
    expect(listed).toEqual(textIds);
    for (const id of sttIds) expect(listed).not.toContain(id);
    expect((await valid(openRouter.models.count())).data.count).toBe(textIds.length);
    expect((await valid(openRouter.models.count({ outputModalities: 'transcription' }))).data.count).toBe(sttIds.length);
    expect((await valid(openRouter.models.count({ outputModalities: 'all' }))).data.count).toBe(fixtures.models.length);
  });

  it('models.get answers each with its record', async () => {
    for (const id of sttIds) {
      const record = fixtures.models.find((m) => m.id === id)!;
      const { data } = await valid(openRouter.models.get(split(id)));
      expect(data.id).toBe(id);
      expect(data.name).toBe(record.name);
      expect(data.created).toBe(record.created);
      expect(data.pricing.prompt).toBe(record.pricing.prompt);
      expect(data.pricing.completion).toBe(record.pricing.completion);
      expect(data.contextLength).toBe(record.context_length);
      expect(data.links.details).toBe(`/api/v1/models/${id}/endpoints`);
    }
  });

  it('endpoints.list answers each with its providers (its transcription provider first), plausible measures and supports_diarization', async () => {
    for (const id of sttIds) {
      const entry = fixtures.transcription![id]!;
      const { data } = await valid(openRouter.endpoints.list(split(id)));
      expect(data.id).toBe(id);
      expect(data.endpoints.map((e) => e.providerName)).toEqual(fixtures.providers![id]!.map((p) => p.provider_name));
      expect(data.endpoints[0]!.providerName).toBe(entry.provider_name);
      for (const e of data.endpoints) {
        expect(values(ProviderName).has(e.providerName), `${id} ${e.providerName}`).toBe(true);
        const l = e.latencyLast30m!;
        expect(l.p50 >= 0.3 && l.p50 < 1.5, `${id} latency ${JSON.stringify(l)}`).toBe(true);
        expect(l.p50 <= l.p75 && l.p75 <= l.p90 && l.p90 <= l.p99, `${id} latency ${JSON.stringify(l)}`).toBe(true);
        const t = e.throughputLast30m!;
        expect(t.p50 >= 20 && t.p50 < 120, `${id} throughput ${JSON.stringify(t)}`).toBe(true);
        expect(t.p50 >= t.p75 && t.p75 >= t.p90 && t.p90 >= t.p99 && t.p99 > 0, `${id} throughput ${JSON.stringify(t)}`).toBe(true);
      }
      const raw = (await (await fetch(`${mock.baseUrl}/models/${id}/endpoints`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as { data: { endpoints: Record<string, unknown>[] } };
      for (const e of raw.data.endpoints) {
        expect(e['supports_diarization'], id).toBe(entry.diarization === true);
        expect(e, id).not.toHaveProperty('supports_voice_cloning');
      }
    }
  });

  it("each endpoint names the provider its transcription's generation record carries", async () => {
    for (const id of sttIds) {
      const res = await fetch(`${mock.baseUrl}/audio/transcriptions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: id, input_audio: { data: silentWav(1), format: 'wav' } }),
      });
      expect(res.status, id).toBe(200);
      const generationId = res.headers.get('x-generation-id')!;
      expect(generationId, id).toMatch(/^gen-stt-\d+-/);
      const generation = await valid(openRouter.generations.getGeneration({ id: generationId }));
      expect(generation.data.model, id).toBe(id);
      const { data } = await valid(openRouter.endpoints.list(split(id)));
      expect(generation.data.providerName, id).toBe(data.endpoints[0]!.providerName);
    }
  });

  it('diarize, keyterms and input_audio.url are taken by the models whose entries say so, and refused with 400 by the others', async () => {
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${mock.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { error?: { message: string }; words?: { speaker?: number; speaker_label?: string }[] } };
    };
    const audio = { data: silentWav(2), format: 'wav' };
    for (const id of sttIds) {
      const entry = fixtures.transcription![id]!;
      const diarized = await post({ model: id, input_audio: audio, response_format: 'verbose_json', diarize: true });
      if (entry.diarization === true) {
        expect(diarized.status, id).toBe(200);
        expect(diarized.body.words!.length, id).toBeGreaterThan(0);
        for (const word of diarized.body.words!) {
          expect(Number.isInteger(word.speaker), id).toBe(true);
          expect(word.speaker_label, id).toMatch(/^[A-Z]+$/);
        }
      } else {
        expect(diarized.status, id).toBe(400);
      }
      const keyterms = await post({ model: id, input_audio: audio, keyterms: ['OpenRouter'] });
      expect(keyterms.status, id).toBe(entry.keyterms === true ? 200 : 400);
      const byUrl = await post({ model: id, input_audio: { url: 'https://example.com/clip.wav', format: 'wav' } });
      expect(byUrl.status, id).toBe(entry.url_input === true ? 200 : 400);
      if (byUrl.status === 400) expect(byUrl.body.error!.message, id).toBe(`input_audio.url: model ${id} does not take audio by URL; send the audio as base64 in input_audio.data`);
    }
  });

  it('text and speech endpoints carry no supports_diarization', async () => {
    for (const id of ['openai/gpt-4o-mini', 'openai/gpt-4o-mini-tts-2025-12-15']) {
      const raw = (await (await fetch(`${mock.baseUrl}/models/${id}/endpoints`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as { data: { endpoints: Record<string, unknown>[] } };
      for (const e of raw.data.endpoints) expect(e, id).not.toHaveProperty('supports_diarization');
    }
  });

  it('stt.createTranscription transcribes with each, billed as its entry says', async () => {
    const data = silentWav(2);
    for (const id of sttIds) {
      const entry = fixtures.transcription![id]!;
      const result = await valid(openRouter.stt.createTranscription({ sttRequest: { model: id, inputAudio: { data, format: 'wav' } } }));
      expect(result.text.length, id).toBeGreaterThan(0);
      const usage = result.usage!;
      if (entry.priced_by === 'second') {
        expect(usage.seconds, id).toBe(2);
        expect(usage.cost, id).toBeCloseTo(2 * Number(entry.price_per_second), 9);
        expect(usage.inputTokens, id).toBeUndefined();
      } else {
        const record = fixtures.models.find((m) => m.id === id)!;
        expect(usage.seconds, id).toBeUndefined();
        expect(usage.inputTokens! > 0 && usage.outputTokens! > 0, id).toBe(true);
        expect(usage.totalTokens, id).toBe(usage.inputTokens! + usage.outputTokens!);
        expect(usage.cost, id).toBeCloseTo(usage.inputTokens! * Number(record.pricing.prompt) + usage.outputTokens! * Number(record.pricing.completion), 9);
      }
    }
  });

  it('verbose_json is served where the entry says so, and refused with 400 elsewhere', async () => {
    const data = silentWav(1);
    for (const id of sttIds) {
      const call = openRouter.stt.createTranscription({ sttRequest: { model: id, inputAudio: { data, format: 'wav' }, responseFormat: 'verbose_json' } });
      if (fixtures.transcription![id]!.verbose_json !== false) {
        expect((await valid(call)).task, id).toBe('transcribe');
      } else {
        const error = await call.then(() => expect.fail(`${id}: expected a 400`), (e: unknown) => e);
        expect(error, id).toBeInstanceOf(errors.BadRequestResponseError);
        expect((error as errors.BadRequestResponseError).data$.error.message, id).toBe(`response_format: verbose_json is not supported by model ${id} (only by OpenAI-compatible providers); supported: json`);
      }
    }
  });

  it.each([
    ['a chat model', 'openai/gpt-4o-mini', 'text'],
    ['a speech model', 'openai/gpt-4o-mini-tts-2025-12-15', 'speech'],
  ])('refuses %s (%s) on the transcription endpoint with 400', async (_what, id, outputs) => {
    const error = await openRouter.stt.createTranscription({ sttRequest: { model: id, inputAudio: { data: silentWav(1), format: 'wav' } } }).then(
      () => expect.fail('expected a 400'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(errors.BadRequestResponseError);
    const { data$ } = error as errors.BadRequestResponseError;
    expect(data$.error.code).toBe(400);
    expect(data$.error.message).toBe(`Model ${id} does not support transcription (its output modalities are ${outputs}); list the models that do with GET /api/v1/models?output_modalities=transcription`);
  });
});
