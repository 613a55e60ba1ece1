/**
 * The contract of the three operations, run through every mode of `test/support/modes.ts`: in-process (msw
 * `setupServer`), standalone (`startServer`) and mounted in an express app (`createMiddleware`). A case that passes
 * in one mode must pass in the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, modes, type RunningMode } from './support/modes.js';
import { bytesOf, decodeMp3, fundamentalHz, pcmToFloat, rms } from './support/audio.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const SENTENCE = 'Hello there, this is a test of the mock gateway.';
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;

describe.each(modes)('contract ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 7 });
  });
  afterAll(() => mock.stop());

  const speech = (body: unknown, headers: Record<string, string> = auth()) =>
    postSpeech(mock.baseUrl, body, headers);
  const get = (path: string, headers: Record<string, string> = auth()) => fetch(`${mock.baseUrl}${path}`, { headers });

  async function expectEnvelope(res: Response, status: number, message?: string | RegExp) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.error.code).toBe(status);
    expect(Number.isInteger(body.error.code)).toBe(true);
    expect(typeof body.error.message).toBe('string');
    if (typeof message === 'string') expect(body.error.message).toBe(message);
    else if (message) expect(body.error.message).toMatch(message);
    return body as { error: { code: number; message: string; metadata: Record<string, unknown> | null }; user_id?: string };
  }

  describe('index', () => {
    it('GET /api/v1 lists the operations with no key needed, and is not journaled', async () => {
      const before = mock.gateway.journal.size;
      const res = await fetch(mock.baseUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const index = await res.json();
      expect(index.operations.map((o: { operation_id: string }) => o.operation_id)).toEqual(['createAudioSpeech', 'createAudioTranscriptions', 'getModel', 'getGeneration', 'getModels', 'listModelsCount', 'listEndpoints', 'getCurrentKey', 'getCredits', 'listSpeechModels', 'getSpeechModel']);
      // The standalone server serves the admin API; in-process the gateway object is the admin interface.
      expect(index.admin).toEqual(mock.adminUrl ? expect.arrayContaining(['GET /__mock/health', 'GET /__mock/requests']) : []);
      expect(mock.gateway.journal.size).toBe(before);
    });
  });

  describe('speech', () => {
    it('defaults to PCM, 24 kHz 16-bit mono, with a generation id', async () => {
      const res = await speech({ model: TTS, input: SENTENCE, voice: 'alloy' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
      expect(res.headers.get('x-generation-id')).toMatch(GEN_ID);
      const bytes = await bytesOf(res);
      expect(bytes.byteLength % 2).toBe(0);
      const samples = pcmToFloat(bytes);
      const seconds = samples.length / 24000;
      expect(seconds).toBeGreaterThan((SENTENCE.length / 15) * 0.9);
      expect(seconds).toBeLessThan((SENTENCE.length / 15) * 1.1);
      expect(rms(samples)).toBeGreaterThan(0.02);
    });

    it('returns MP3 that decodes to the same duration as the PCM', async () => {
      const [mp3Res, pcmRes] = await Promise.all([
        speech({ model: TTS, input: SENTENCE, voice: 'nova', response_format: 'mp3' }),
        speech({ model: TTS, input: SENTENCE, voice: 'nova', response_format: 'pcm' }),
      ]);
      expect(mp3Res.status).toBe(200);
      expect(mp3Res.headers.get('content-type')).toBe('audio/mpeg');
      const mp3 = await decodeMp3(await bytesOf(mp3Res));
      const pcm = pcmToFloat(await bytesOf(pcmRes));
      expect(mp3.sampleRate).toBe(24000);
      expect(Math.abs(mp3.samples.length - pcm.length) / pcm.length).toBeLessThan(0.05);
      expect(rms(mp3.samples)).toBeGreaterThan(0.02);
    });

    it('gives byte-identical audio for the same request and seed', async () => {
      const body = { model: TTS, input: 'Same words, same bytes.', voice: 'echo', response_format: 'mp3' };
      const a = await bytesOf(await speech(body));
      const b = await bytesOf(await speech(body));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    });

    it('sets the pitch by the voice', async () => {
      const pitch = async (voice: string) =>
        fundamentalHz(pcmToFloat(await bytesOf(await speech({ model: TTS, input: 'Aaaah.', voice }))), 24000);
      const [a, b] = [await pitch('alloy'), await pitch('onyx')];
      expect(Math.abs(a - b) / Math.min(a, b)).toBeGreaterThan(0.05);
    });

    it('divides the length by speed on models that support it and ignores speed elsewhere', async () => {
      const len = async (body: Record<string, unknown>) => (await bytesOf(await speech(body))).byteLength;
      const normal = await len({ model: TTS, input: SENTENCE, voice: 'alloy' });
      const fast = await len({ model: TTS, input: SENTENCE, voice: 'alloy', speed: 2 });
      expect(fast / normal).toBeGreaterThan(0.45);
      expect(fast / normal).toBeLessThan(0.55);
      const kokoro = { model: 'hexgrad/kokoro-82m', input: SENTENCE, voice: 'af_bella' };
      expect(await len({ ...kokoro, speed: 3 })).toBe(await len(kokoro));
      const ignored = await speech({ ...kokoro, speed: 99 });
      expect(ignored.status).toBe(200);
      await ignored.arrayBuffer();
    });

    it('streams the body in chunks', async () => {
      const res = await speech({ model: TTS, input: SENTENCE.repeat(4), voice: 'alloy' });
      expect(res.headers.get('content-length')).toBeNull();
      const reader = res.body!.getReader();
      let chunks = 0;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        chunks++;
      }
      expect(chunks).toBeGreaterThan(1);
    });

    it('accepts unknown extra fields', async () => {
      const res = await speech({
        model: TTS,
        input: 'Extra fields.',
        voice: 'alloy',
        session_id: 's-1',
        user: 'u-1',
        trace: { id: 't' },
        provider: { options: { openai: { instructions: 'cheerful' }, nobody: {} } },
      });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    });

    it.each([
      [{ input: 'x', voice: 'alloy' }, /^model: required/],
      [{ model: TTS, voice: 'alloy' }, /^input: required/],
      [{ model: TTS, input: 'x' }, /^voice: required/],
      [{ model: 42, input: 'x', voice: 'alloy' }, /^model: must be a string/],
      [{ model: TTS, input: '', voice: 'alloy' }, /^input: must not be empty/],
      [{ model: TTS, input: 'x', voice: 'alloy', response_format: 'wav' }, /^response_format: must be one of mp3, pcm/],
      [{ model: TTS, input: 'x', voice: 'alloy', speed: 'fast' }, /^speed: must be a number/],
      [{ model: TTS, input: 'x', voice: 'alloy', speed: 4.5 }, /^speed: must be between 0.25 and 4/],
      [{ model: TTS, input: 'x', voice: 'alloy', provider: 'openai' }, /^provider: must be an object/],
      [[1, 2], /^body: must be a JSON object/],
      [{ model: 'nobody/nothing', input: 'x', voice: 'alloy' }, 'Model nobody/nothing does not exist'],
      [{ model: 'openai/gpt-4o-mini', input: 'x', voice: 'alloy' }, /does not support speech/],
      [{ model: TTS, input: 'x', voice: 'Kore' }, /^voice: "Kore" is not supported/],
      [{ model: 'google/gemini-3.1-flash-tts-preview', input: 'x', voice: 'Kore', response_format: 'mp3' }, /^response_format: mp3 is not supported/],
      [{ model: TTS, input: 'y'.repeat(5000), voice: 'alloy' }, /^input: 5000 characters is over the limit/],
    ])('rejects a bad body with a 400 naming the field: %#', async (body, message) => {
      const envelope = await expectEnvelope(await speech(body), 400, message);
      expect(envelope.error.metadata?.error_type).toMatch(/invalid_request|string_too_long/);
    });

    it('rejects malformed JSON and an empty body with 400', async () => {
      await expectEnvelope(await speech('{"model": '), 400, /^Invalid JSON body/);
      await expectEnvelope(await speech(''), 400, /body is required/);
    });

    it('rejects a body over 1 MiB with 413', async () => {
      const res = await speech({ model: TTS, input: 'z'.repeat(1024 * 1024 + 10), voice: 'alloy' });
      const envelope = await expectEnvelope(res, 413);
      expect(envelope.error.metadata?.error_type).toBe('payload_too_large');
    });
  });

  describe('auth', () => {
    it('answers 401 without credentials on all three operations', async () => {
      for (const res of [
        await speech({ model: TTS, input: 'x', voice: 'alloy' }, {}),
        await get('/model/openai/gpt-4o', {}),
        await get('/generation?id=x', { Authorization: 'Bearer ' }),
      ]) {
        const envelope = await expectEnvelope(res, 401, 'No auth credentials found');
        expect(envelope.user_id).toBeUndefined();
      }
    });
  });

  describe('model lookup', () => {
    it('returns a model with every required key', async () => {
      const res = await get('/model/openai/gpt-4o-mini');
      expect(res.status).toBe(200);
      const { data } = await res.json();
      for (const key of ['id', 'canonical_slug', 'name', 'created', 'pricing', 'context_length', 'architecture', 'top_provider', 'per_request_limits', 'supported_parameters', 'default_parameters', 'supported_voices', 'links']) {
        expect(data).toHaveProperty(key);
      }
      expect(data.id).toBe('openai/gpt-4o-mini');
      expect(data.links.details).toBe('/api/v1/models/openai/gpt-4o-mini/endpoints');
    });

    it('decodes percent-encoded variants; :free has zero prices', async () => {
      const { data } = await (await get('/model/openai/gpt-4o%3Afree')).json();
      expect(data.id).toBe('openai/gpt-4o:free');
      expect(data.canonical_slug).not.toContain(':');
      expect(Object.values(data.pricing).every((p) => Number(p) === 0)).toBe(true);
    });

    it.each([':free', ':nitro', ':floor', ':online', ':thinking', ':extended', ':exacto'])('serves the %s variant of a speech model', async (suffix) => {
      const res = await get(`/model/${TTS}${encodeURIComponent(suffix)}`);
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data.id).toBe(`${TTS}${suffix}`);
    });

    it('answers aliases in place', async () => {
      const plain = await (await get('/model/anthropic/claude-3-5-sonnet')).json();
      expect(plain.data.id).toBe('anthropic/claude-3.5-sonnet');
      const latest = await (await get('/model/~anthropic/claude-sonnet-latest')).json();
      expect(latest.data.alias_target).toMatchObject({ slug: expect.any(String), name: expect.any(String) });
    });

    it('answers 404 for an unknown model', async () => {
      await expectEnvelope(await get('/model/nobody/nothing'), 404, /nobody\/nothing/);
    });
  });

  describe('generation lookup', () => {
    it('finds the record of a speech call', async () => {
      const input = 'Count these characters.';
      const res = await speech({ model: TTS, input, voice: 'alloy' });
      await res.arrayBuffer();
      const id = res.headers.get('x-generation-id')!;
      const lookup = await get(`/generation?id=${encodeURIComponent(id)}`);
      expect(lookup.status).toBe(200);
      const { data } = await lookup.json();
      expect(data).toMatchObject({ id, api_type: 'tts', model: TTS, tokens_prompt: input.length });
      expect(data.total_cost).toBeCloseTo(input.length * 0.0000006, 12);
      expect(data.usage).toBe(data.total_cost);
      expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);
      expect(data.generation_time).toBeGreaterThanOrEqual(data.latency);
      expect(typeof data.provider_name).toBe('string');
    });

    it('answers 404 for an unknown id and 400 for a missing or empty one', async () => {
      await expectEnvelope(await get('/generation?id=gen-0-nothing'), 404, 'Generation not found');
      await expectEnvelope(await get('/generation'), 400, /^id: required/);
      await expectEnvelope(await get('/generation?id='), 400, /^id: must not be empty/);
    });
  });

  describe('HTTP errors', () => {
    it('answers an unknown path with a 404 envelope', async () => {
      await expectEnvelope(await get('/chat/nothing-here'), 404);
    });

    it('answers a wrong method with a 405 envelope and Allow', async () => {
      const res = await fetch(`${mock.baseUrl}/audio/speech`, { headers: auth() });
      await expectEnvelope(res, 405);
      expect(res.headers.get('allow')).toBe('POST');
    });
  });
});

describe('parity', () => {
  // Needs two modes to compare: skipped when MOCKROUTER_MODES names one (npm run test:fast).
  it.skipIf(modes.length < 2)('gives byte-identical audio and ids in every mode for the same seed', async () => {
    const results: string[] = [];
    for (const mode of modes) {
      const mock = await mode.start({ seed: 99, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
      try {
        const res = await postSpeech(mock.baseUrl, { model: TTS, input: SENTENCE, voice: 'coral', response_format: 'mp3' }, { ...auth(), 'User-Agent': 'parity-test' });
        const audio = sha256Hex(new Uint8Array(await res.arrayBuffer()));
        const id = res.headers.get('x-generation-id')!;
        const record = await (await fetch(`${mock.baseUrl}/generation?id=${id}`, { headers: auth() })).text();
        results.push(`${id}\n${record}\naudio sha256 ${audio}`);
      } finally {
        await mock.stop();
      }
    }
    expect(results[0]).toBe(results[1]);
  });

  it('limits the valid keys when asked, in every mode', async () => {
    for (const mode of modes) {
      const mock = await mode.start({ keys: ['sk-good'] });
      try {
        const bad = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: auth('sk-bad') });
        expect(bad.status).toBe(401);
        expect((await bad.json()).error.message).toBe('User not found.');
        const good = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: auth('sk-good') });
        expect(good.status).toBe(200);
      } finally {
        await mock.stop();
      }
    }
  });
});
