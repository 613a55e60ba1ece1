/**
 * The `openai` client 7.x (the npm alias `openai7`; 7.0 needs Node.js 22 or later) against the mock in every mode, with
 * the checks the 6.x tests make of `openai` (test/sdk.test.ts, test/scenarios-clients.test.ts,
 * test/transcription-clients.test.ts, test/discovery.test.ts, test/scenarios-retries.test.ts): speech in PCM and MP3,
 * transcription, the model list (and a model lookup through `client.get`, which the 6.x tests leave to
 * `@openrouter/sdk`), each error status in the class `APIError.generate` maps it to,
 * `Retry-After` honored by the default retries and a 402 not retried; and the generation records a speech and a
 * transcription leave, the same shape whether 6.x or 7.x made them. On a Node.js older than 22 the file is skipped,
 * saying why (one warning line and the title).
 */
import OpenAI6, { toFile as toFile6 } from 'openai';
import type * as Seven from 'openai7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_DEFAULTS } from '../src/core/base/error-envelope.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { decodeMp3, pcmToFloat, rms } from './support/audio.js';
import { modes, type RunningMode } from './support/modes.js';
import { STT, TTS } from './support/speech-model.js';
import { wavOf } from './support/wav.js';

/** Why 7.x cannot run here (it declares `engines.node >= 22`), or `undefined`. */
const TOO_OLD = Number(process.versions.node.split('.')[0]) < 22 ? `openai 7.x needs Node.js 22 or later; this is Node.js ${process.versions.node}` : undefined;
if (TOO_OLD !== undefined) console.warn(`test/openai7-clients.test.ts skipped: ${TOO_OLD}`);
/** The 7.x package, imported only where it runs. */
const sdk: typeof Seven | undefined = TOO_OLD === undefined ? await import('openai7') : undefined;
type OpenAI7 = Seven.OpenAI;
type APIError7 = InstanceType<typeof Seven.APIError>;

const KEY = 'sk-seven';
const SENTENCE = 'Hello there, this is a test of the newer client.';
const INPUT = 'Every word comes back, in order: nothing more and nothing less.';
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
/** The statuses the gateway documents for `createAudioSpeech`, and 403 and 413 (`scenarios-clients.test.ts`). */
const STATUSES = [400, 401, 402, 403, 404, 413, 429, 500, 502, 503, 524, 529];
const textIds = loadFixtures().models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => m.id);

/** The class 7.x's `APIError.generate` gives `status` (as 6.x's: 402, 413 are plain `APIError`s; 5xx `InternalServerError`). */
function expectedClass(status: number): new (...args: never[]) => APIError7 {
  const { default: OpenAI } = sdk!;
  const byStatus: Record<number, new (...args: never[]) => APIError7> = { 400: OpenAI.BadRequestError, 401: OpenAI.AuthenticationError, 403: OpenAI.PermissionDeniedError, 404: OpenAI.NotFoundError, 429: OpenAI.RateLimitError };
  return byStatus[status] ?? (status >= 500 ? OpenAI.InternalServerError : OpenAI.APIError);
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
}

/** Speech seconds for `input`: about 15 characters a second (±10%). */
function expectLength(seconds: number, input: string): void {
  expect(seconds).toBeGreaterThan((input.length / 15) * 0.9);
  expect(seconds).toBeLessThan((input.length / 15) * 1.1);
}

/** The shape of a JSON value: its type, and for an object each key's shape. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}

describe.skipIf(TOO_OLD !== undefined)(TOO_OLD === undefined ? 'openai 7.x' : `openai 7.x (skipped: ${TOO_OLD})`, () => {
  describe.each(modes)('the openai 7.x client ($name)', (mode) => {
    let mock: RunningMode;
    let openai: OpenAI7;
    /** A 7.x client on the mock, without retries unless `retries` (then the client's default). */
    const client = (options: { apiKey?: string; defaultHeaders?: Record<string, string> } = {}, retries = false): OpenAI7 =>
      new sdk!.default({ baseURL: mock.baseUrl, apiKey: KEY, ...(retries ? {} : { maxRetries: 0 }), ...options });

    beforeAll(async () => {
      mock = await mode.start({ seed: 7, keys: [KEY] });
      // Built after `start`: the openai client takes the global fetch at construction, which msw patches.
      openai = client();
    });
    afterAll(() => mock.stop());

    /** The generation record of `id` as `GET /generation` answers it. */
    async function generation(id: string): Promise<Record<string, unknown>> {
      const res = await fetch(`${mock.baseUrl}/generation?id=${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Record<string, unknown> }).data;
    }

    it('audio.speech.create without response_format gets PCM of the expected length', async () => {
      const response = await openai.audio.speech.create({ model: TTS, input: SENTENCE, voice: 'alloy' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
      expect(response.headers.get('x-generation-id')).toMatch(GEN_ID);
      const samples = pcmToFloat(new Uint8Array(await response.arrayBuffer()));
      expectLength(samples.length / 24_000, SENTENCE);
      expect(rms(samples)).toBeGreaterThan(0.02);
    });

    it('audio.speech.create with response_format mp3 gets MP3 at 24 kHz', async () => {
      const response = await openai.audio.speech.create({ model: TTS, input: SENTENCE, voice: 'alloy', response_format: 'mp3' });
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      const mp3 = await decodeMp3(new Uint8Array(await response.arrayBuffer()));
      expect(mp3.sampleRate).toBe(24_000);
      expectLength(mp3.samples.length / 24_000, SENTENCE);
      expect(rms(mp3.samples)).toBeGreaterThan(0.02);
    });

    it('an unknown model is a BadRequestError, a wrong key an AuthenticationError', async () => {
      const bad = await rejection(openai.audio.speech.create({ model: 'nobody/nothing', input: 'x', voice: 'alloy' }));
      expect(bad).toBeInstanceOf(sdk!.default.BadRequestError);
      expect(bad).toMatchObject({ status: 400, code: 400, message: '400 Model nobody/nothing does not exist' });
      const unknown = await rejection(client({ apiKey: 'sk-bad' }).audio.speech.create({ model: TTS, input: 'x', voice: 'alloy' }));
      expect(unknown).toBeInstanceOf(sdk!.default.AuthenticationError);
      expect(unknown).toMatchObject({ status: 401, message: '401 User not found.' });
    });

    it.for(STATUSES)('audio.speech.create: %i is mapped by APIError.generate', async (status) => {
      const error = await rejection(client({ defaultHeaders: { 'X-Mock-Status': String(status) } }).audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
      const expected = expectedClass(status);
      // Exactly that class: 402 and 413 are plain APIErrors, not one of its subclasses.
      expect((error as object).constructor).toBe(expected);
      const apiError = error as APIError7;
      expect(apiError.status).toBe(status);
      expect(apiError.code).toBe(status);
      expect(apiError.message).toBe(`${status} ${STATUS_DEFAULTS[status]!.message}`);
      expect(apiError.headers?.get('x-mock-applied')).toBe(`x-mock-status/${status}`);
    });

    it('rate-limited is a RateLimitError carrying Retry-After; the HTML 524 page an InternalServerError', async () => {
      const limited = await rejection(client({ defaultHeaders: { 'X-Mock-Scenario': 'rate-limited' } }).audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
      expect(limited).toBeInstanceOf(sdk!.default.RateLimitError);
      expect((limited as APIError7).headers?.get('retry-after')).toBe('60');
      const html = await rejection(client({ defaultHeaders: { 'X-Mock-Scenario': 'edge-timeout-html' } }).audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
      expect(html).toBeInstanceOf(sdk!.default.InternalServerError);
      expect((html as APIError7).status).toBe(524);
    });

    it('with its default retries it gets the audio after two 429s, waiting Retry-After; a 402 is not retried', async () => {
      const session = `retry-${mode.name}`;
      const retrying = client({ defaultHeaders: { 'X-Mock-Scenario': 'rate-limited-then-ok', 'X-Mock-Session': session } }, true);
      expect(retrying.maxRetries).toBe(2);
      const response = await retrying.audio.speech.create({ model: TTS, input: 'Retried.', voice: 'alloy' });
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      const entries = await mock.gateway.sharedJournal.list({ session });
      expect(entries.map((e) => e.status)).toEqual([429, 429, 200]);
      expect(entries.map((e) => e.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
      const [a, b, c] = entries.map((e) => e.time) as [number, number, number];
      expect(b - a).toBeGreaterThanOrEqual(995);
      expect(c - b).toBeGreaterThanOrEqual(995);

      const broke = client({ defaultHeaders: { 'X-Mock-Scenario': 'insufficient-credits', 'X-Mock-Session': `${session}-402` } }, true);
      const error = await rejection(broke.audio.speech.create({ model: TTS, input: 'Hi.', voice: 'alloy' }));
      expect(error).toMatchObject({ status: 402, message: expect.stringMatching(/Insufficient credits/) });
      expect((await mock.gateway.sharedJournal.list({ session: `${session}-402` })).map((e) => e.status)).toEqual([402]);
    });

    it('audio.transcriptions.create: an MP3 file, a WAV of the PCM, and verbose_json word times', async () => {
      const said = async (format: 'mp3' | 'pcm') => new Uint8Array(await (await openai.audio.speech.create({ model: TTS, input: INPUT, voice: 'alloy', response_format: format })).arrayBuffer());
      const mp3 = await said('mp3');
      const plain = await openai.audio.transcriptions.create({ file: await sdk!.toFile(mp3, 'speech.mp3'), model: STT });
      expect(plain.text).toBe(INPUT);
      const pcm = await said('pcm');
      const verbose = await openai.audio.transcriptions.create({
        file: await sdk!.toFile(wavOf(pcm), 'speech.wav', { type: 'audio/wav' }),
        model: STT,
        response_format: 'verbose_json',
        timestamp_granularities: ['word'],
      });
      expect(verbose.text).toBe(INPUT);
      expect(Math.abs(verbose.duration - pcm.byteLength / 48_000)).toBeLessThan(0.001);
      expect(verbose.words!.map((w) => w.word).join(' ')).toBe(INPUT.replace(/[,:.]/g, ''));
      const named = await openai.audio.transcriptions.create({ file: await sdk!.toFile(mp3, 'speech.mp3'), model: STT, response_format: 'verbose_json', language: 'de' });
      expect(named.language).toBe('german');
    });

    it('models.list() pages through the text models; client.get looks one up', async () => {
      const ids: string[] = [];
      for await (const model of openai.models.list()) ids.push(model.id);
      expect(ids).toEqual(textIds);
      const found = await openai.get<{ data: { id: string; canonical_slug: string } }>('/model/openai/gpt-4o-mini:free');
      expect(found.data).toMatchObject({ id: 'openai/gpt-4o-mini:free', canonical_slug: 'openai/gpt-4o-mini' });
      const missing = await rejection(openai.get('/model/nobody/nothing'));
      expect(missing).toBeInstanceOf(sdk!.default.NotFoundError);
    });

    it('generation records keep their shape: a speech and a transcription by 6.x and by 7.x', async () => {
      const six = new OpenAI6({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0 });
      const records: Record<string, unknown>[][] = [];
      for (const [major, speech, transcribe] of [
        [6, (input: string) => six.audio.speech.create({ model: TTS, input, voice: 'echo' }), async (wav: Uint8Array) => six.audio.transcriptions.create({ file: await toFile6(wav, 'a.wav'), model: STT }).withResponse()],
        [7, (input: string) => openai.audio.speech.create({ model: TTS, input, voice: 'echo' }), async (wav: Uint8Array) => openai.audio.transcriptions.create({ file: await sdk!.toFile(wav, 'a.wav'), model: STT }).withResponse()],
      ] as const) {
        const response = await speech('Kept in the same shape.');
        const pcm = new Uint8Array(await response.arrayBuffer());
        const heard = await transcribe(wavOf(pcm));
        const pair = [await generation(response.headers.get('x-generation-id')!), await generation(heard.response.headers.get('x-generation-id')!)];
        for (const record of pair) expect(record.user_agent).toMatch(new RegExp(`^OpenAI/JS ${major}\\.`));
        records.push(pair);
      }
      const [[speech6, stt6], [speech7, stt7]] = records as [[Record<string, unknown>, Record<string, unknown>], [Record<string, unknown>, Record<string, unknown>]];
      expect(shapeOf(speech7)).toEqual(shapeOf(speech6));
      expect(shapeOf(stt7)).toEqual(shapeOf(stt6));
      for (const key of ['model', 'api_type', 'tokens_prompt', 'total_cost', 'provider_name']) {
        expect(speech7[key], key).toEqual(speech6[key]);
        expect(stt7[key], key).toEqual(stt6[key]);
      }
    });
  });
});
