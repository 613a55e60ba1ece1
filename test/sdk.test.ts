/**
 * The official clients against the mock, in both modes: `@openrouter/sdk` (speech, generation lookup, model
 * lookup, its error classes) and `openai` (speech, its error classes). A shape the SDK cannot parse surfaces as
 * a `ResponseValidationError` (or an `SDKValidationError`), which fails the case that gets it.
 */
import { HTTPClient, OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modes, type RunningMode } from './support/modes.js';
import { decodeMp3, pcmToFloat, rms } from './support/audio.js';
import { TTS } from './support/speech-model.js';

const SENTENCE = 'Hello there, this is a test of the official clients.';
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
const KEY = 'sk-good';
/** The TTS model's prompt price, USD per character. */
const PRICE_PER_CHAR = 0.0000006;

/** Reads a stream to the end, into one buffer. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Asserts the PCM length follows about 15 characters a second (±10%) and that it is not silence. */
function expectSpeechPcm(bytes: Uint8Array, input: string): Float32Array {
  expect(bytes.byteLength).toBeGreaterThan(0);
  expect(bytes.byteLength % 2).toBe(0);
  const samples = pcmToFloat(bytes);
  const seconds = samples.length / 24000;
  expect(seconds).toBeGreaterThan((input.length / 15) * 0.9);
  expect(seconds).toBeLessThan((input.length / 15) * 1.1);
  expect(rms(samples)).toBeGreaterThan(0.02);
  return samples;
}

/**
 * Awaits a call that must fail, and checks the error is `type` (never a validation error of the SDK, which
 * would mean the mock sent a shape the SDK rejects) with the HTTP status, and that the body is the gateway's
 * envelope with an integer `error.code` equal to the status. Typed errors also carry the parsed envelope in
 * `data$` and its message as their own; `OpenRouterDefaultError` (a status the operation does not declare) has
 * only the raw body.
 */
async function sdkError<T extends errors.OpenRouterError>(
  call: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
  status: number,
): Promise<{ error: T; message: string }> {
  const error = await call.then(
    () => expect.fail(`expected a ${type.name}, got a success`),
    (e: unknown) => e,
  );
  if (error instanceof errors.ResponseValidationError) expect.fail(`ResponseValidationError: ${error.pretty()}`);
  if (error instanceof errors.SDKValidationError) expect.fail(`SDKValidationError: ${error.pretty()}`);
  expect(error).toBeInstanceOf(type);
  const typed = error as T;
  expect(typed.statusCode).toBe(status);
  expect(typed.contentType).toMatch(/^application\/json/);
  const envelope = JSON.parse(typed.body) as { error: { code: unknown; message: unknown } };
  expect(envelope.error.code).toBe(status);
  expect(Number.isInteger(envelope.error.code)).toBe(true);
  expect(typeof envelope.error.message).toBe('string');
  const message = envelope.error.message as string;
  expect('data$' in typed).toBe(!(typed instanceof errors.OpenRouterDefaultError));
  if ('data$' in typed) {
    const data = (typed as T & { data$: { error: { code: number; message: string } } }).data$;
    expect(data.error.code).toBe(status);
    expect(Number.isInteger(data.error.code)).toBe(true);
    expect(data.error.message).toBe(message);
    expect(typed.message).toBe(message);
  }
  return { error: typed, message };
}

describe.each(modes)('official clients ($name)', (mode) => {
  let mock: RunningMode;
  /** The `X-Generation-Id` of every response the OpenRouter client saw, in order (null when absent). */
  let generationIds: (string | null)[];
  let openRouter: OpenRouter;
  let openai: OpenAI;

  /** An OpenRouter client on the mock; `hooks` adjusts its HTTP client. */
  function makeOpenRouter(apiKey = KEY, hooks?: (http: HTTPClient) => void): OpenRouter {
    const httpClient = new HTTPClient();
    hooks?.(httpClient);
    return new OpenRouter({ serverURL: mock.baseUrl, apiKey, httpClient, retryConfig: { strategy: 'none' } });
  }

  beforeAll(async () => {
    mock = await mode.start({ seed: 11, keys: [KEY] });
    generationIds = [];
    openRouter = makeOpenRouter(KEY, (http) =>
      http.addHook('response', (res) => {
        generationIds.push(res.headers.get('x-generation-id'));
      }),
    );
    // Built after `start`: the openai client takes the global fetch at construction, which msw patches.
    openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(() => mock.stop());

  describe('@openrouter/sdk', () => {
    const createSpeech = (input: string, responseFormat: 'pcm' | 'mp3', voice = 'alloy') =>
      openRouter.tts.createSpeech({ speechRequest: { model: TTS, input, voice, responseFormat } });

    it('tts.createSpeech streams PCM of the expected length', async () => {
      const stream = await createSpeech(SENTENCE, 'pcm');
      expect(stream).toBeInstanceOf(ReadableStream);
      expectSpeechPcm(await readAll(stream), SENTENCE);
    });

    it('tts.createSpeech streams MP3 at 24 kHz as long as the PCM', async () => {
      const pcm = pcmToFloat(await readAll(await createSpeech(SENTENCE, 'pcm', 'nova')));
      const bytes = await readAll(await createSpeech(SENTENCE, 'mp3', 'nova'));
      // MPEG-2 Layer III frame header, channel mode 3 (mono). The decoder reports two channels regardless.
      expect(bytes[0]).toBe(0xff);
      expect((bytes[1] ?? 0) & 0xfe).toBe(0xf2);
      expect((bytes[3] ?? 0) >> 6).toBe(3);
      const mp3 = await decodeMp3(bytes);
      expect(mp3.sampleRate).toBe(24000);
      expect(Math.abs(mp3.samples.length - pcm.length) / pcm.length).toBeLessThan(0.05);
      expect(rms(mp3.samples)).toBeGreaterThan(0.02);
    });

    it('generations.getGeneration returns the record of the speech call', async () => {
      const input = 'Count these characters, please.';
      const before = generationIds.length;
      await readAll(await createSpeech(input, 'mp3'));
      expect(generationIds).toHaveLength(before + 1);
      const id = generationIds[before];
      expect(id).toMatch(GEN_ID);

      const { data } = await openRouter.generations.getGeneration({ id: id! });
      expect(data.id).toBe(id);
      expect(data.apiType).toBe('tts');
      expect(data.model).toBe(TTS);
      expect(data.tokensPrompt).toBe(input.length);
      expect(data.totalCost).toBeCloseTo(input.length * PRICE_PER_CHAR, 12);
      expect(data.usage).toBeCloseTo(input.length * PRICE_PER_CHAR, 12);
      expect(typeof data.createdAt).toBe('string');
      expect(data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
      expect(Number.isNaN(Date.parse(data.createdAt))).toBe(false);
      // The lookup itself is not a generation.
      expect(generationIds.at(-1)).toBeNull();
    });

    it('models.get resolves a :free variant (percent-encoded by the SDK) with zero pricing', async () => {
      let path = '';
      const client = makeOpenRouter(KEY, (http) =>
        http.addHook('beforeRequest', (req) => {
          path = new URL(req.url).pathname;
        }),
      );
      const { data } = await client.models.get({ author: 'openai', slug: 'gpt-4o-mini:free' });
      expect(path).toMatch(/\/model\/openai\/gpt-4o-mini%3Afree$/i);
      expect(data.id).toBe('openai/gpt-4o-mini:free');
      expect(data.canonicalSlug).toBe('openai/gpt-4o-mini');
      expect(data.contextLength).toBe(128000);
      expect(data.links.details).toBe('/api/v1/models/openai/gpt-4o-mini:free/endpoints');
      const prices = Object.values(data.pricing).filter((v) => v !== undefined);
      expect(prices.length).toBeGreaterThanOrEqual(2);
      for (const price of prices) expect(price).toBe('0');
    });

    it('models.get answers the base model with its real prices', async () => {
      const { data } = await openRouter.models.get({ author: 'openai', slug: 'gpt-4o-mini' });
      expect(data.id).toBe('openai/gpt-4o-mini');
      expect(data.canonicalSlug).toBe('openai/gpt-4o-mini');
      expect(data.pricing.prompt).toBe('0.00000015');
      expect(data.pricing.completion).toBe('0.0000006');
      expect(data.architecture.modality).toBe('text+image->text');
      expect(data.supportedVoices).toBeNull();
      expect(data.aliasTarget).toBeUndefined();
    });

    it('models.get answers a speech model with its voices', async () => {
      const [author, slug] = TTS.split('/') as [string, string];
      const { data } = await openRouter.models.get({ author, slug });
      expect(data.id).toBe(TTS);
      expect(data.architecture.outputModalities).toEqual(['speech']);
      expect(data.supportedVoices).toContain('alloy');
    });

    it('models.get resolves an alias in place', async () => {
      const { data } = await openRouter.models.get({ author: 'anthropic', slug: 'claude-3-5-sonnet' });
      expect(data.id).toBe('anthropic/claude-3.5-sonnet');
      expect(data.canonicalSlug).toBe('anthropic/claude-3.5-sonnet');
    });

    it('models.get resolves a ~latest alias with aliasTarget', async () => {
      const { data } = await openRouter.models.get({ author: '~anthropic', slug: 'claude-sonnet-latest' });
      expect(data.aliasTarget).toBeDefined();
      expect(data.aliasTarget!.slug).toMatch(/^anthropic\//);
      expect(typeof data.aliasTarget!.name).toBe('string');
      expect(data.aliasTarget!.name.length).toBeGreaterThan(0);
    });

    it('unknown model on createSpeech is a BadRequestResponseError', async () => {
      const { message } = await sdkError(
        openRouter.tts.createSpeech({
          speechRequest: { model: 'nobody/nothing', input: 'x', voice: 'alloy', responseFormat: 'pcm' },
        }),
        errors.BadRequestResponseError,
        400,
      );
      expect(message).toBe('Model nobody/nothing does not exist');
    });

    it('a request without Authorization is an UnauthorizedResponseError', async () => {
      let sent: string | null = 'unset';
      const client = makeOpenRouter(KEY, (http) =>
        http.addHook('beforeRequest', (req) => {
          const headers = new Headers(req.headers);
          headers.delete('authorization');
          const stripped = new Request(req, { headers });
          sent = stripped.headers.get('authorization');
          return stripped;
        }),
      );
      const speech = await sdkError(
        client.tts.createSpeech({ speechRequest: { model: TTS, input: 'x', voice: 'alloy', responseFormat: 'pcm' } }),
        errors.UnauthorizedResponseError,
        401,
      );
      expect(sent).toBeNull();
      expect(speech.message).toBe('No auth credentials found');
      const generation = await sdkError(
        client.generations.getGeneration({ id: 'gen-x' }),
        errors.UnauthorizedResponseError,
        401,
      );
      expect(generation.message).toBe('No auth credentials found');
      // getModel declares no 401 response in SDK 1.3.19, so it falls back to OpenRouterDefaultError.
      const model = await sdkError(
        client.models.get({ author: 'openai', slug: 'gpt-4o-mini' }),
        errors.OpenRouterDefaultError,
        401,
      );
      expect(model.message).toBe('No auth credentials found');
    });

    it.each([
      ['provider-requirement', 403, 'ForbiddenResponseError'],
      ['payload-too-large', 413, 'PayloadTooLargeResponseError'],
    ] as const)('scenario %s on createSpeech is the SDK\'s %i, a %s', async (scenario, status, name) => {
      const client = makeOpenRouter(KEY, (http) =>
        http.addHook('beforeRequest', (req) => {
          const headers = new Headers(req.headers);
          headers.set('X-Mock-Scenario', scenario);
          return new Request(req, { headers });
        }),
      );
      const { message } = await sdkError(
        client.tts.createSpeech({ speechRequest: { model: TTS, input: 'x', voice: 'alloy', responseFormat: 'pcm' } }),
        errors[name],
        status,
      );
      expect(message).toMatch(status === 403 ? /^Provider requirement not accepted: / : /^Request payload too large$/);
    });

    it('an unknown key is an UnauthorizedResponseError', async () => {
      const client = makeOpenRouter('sk-bad');
      const speech = await sdkError(
        client.tts.createSpeech({ speechRequest: { model: TTS, input: 'x', voice: 'alloy', responseFormat: 'pcm' } }),
        errors.UnauthorizedResponseError,
        401,
      );
      expect(speech.message).toBe('User not found.');
      const model = await sdkError(
        client.models.get({ author: 'openai', slug: 'gpt-4o-mini' }),
        errors.OpenRouterDefaultError,
        401,
      );
      expect(model.message).toBe('User not found.');
    });

    it('unknown generation is a NotFoundResponseError', async () => {
      const { message } = await sdkError(
        openRouter.generations.getGeneration({ id: 'gen-tts-1700000000-AAAAAAAAAAAAAAAAAAAA' }),
        errors.NotFoundResponseError,
        404,
      );
      expect(message).toBe('Generation not found');
    });

    it('unknown model lookup is a NotFoundResponseError', async () => {
      await sdkError(openRouter.models.get({ author: 'nobody', slug: 'nothing' }), errors.NotFoundResponseError, 404);
      await sdkError(
        openRouter.models.get({ author: 'openai', slug: 'no-such-model:free' }),
        errors.NotFoundResponseError,
        404,
      );
    });
  });

  describe('openai', () => {
    it('audio.speech.create without response_format gets PCM', async () => {
      const response = await openai.audio.speech.create({ model: TTS, input: SENTENCE, voice: 'alloy' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
      expect(response.headers.get('x-generation-id')).toMatch(GEN_ID);
      expectSpeechPcm(new Uint8Array(await response.arrayBuffer()), SENTENCE);
    });

    it('audio.speech.create with response_format mp3 gets MP3', async () => {
      const response = await openai.audio.speech.create({
        model: TTS,
        input: SENTENCE,
        voice: 'alloy',
        response_format: 'mp3',
      });
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      const mp3 = await decodeMp3(new Uint8Array(await response.arrayBuffer()));
      expect(mp3.sampleRate).toBe(24000);
      const seconds = mp3.samples.length / 24000;
      expect(seconds).toBeGreaterThan((SENTENCE.length / 15) * 0.9);
      expect(seconds).toBeLessThan((SENTENCE.length / 15) * 1.1);
      expect(rms(mp3.samples)).toBeGreaterThan(0.02);
    });

    it('its generation id is found by @openrouter/sdk', async () => {
      const input = 'Looked up by the other client.';
      const response = await openai.audio.speech.create({ model: TTS, input, voice: 'echo' });
      await response.arrayBuffer();
      const id = response.headers.get('x-generation-id');
      expect(id).toMatch(GEN_ID);
      const { data } = await openRouter.generations.getGeneration({ id: id! });
      expect(data.apiType).toBe('tts');
      expect(data.tokensPrompt).toBe(input.length);
    });

    it('unknown model is a BadRequestError', async () => {
      const error = await openai.audio.speech
        .create({ model: 'nobody/nothing', input: 'x', voice: 'alloy' })
        .then(() => expect.fail('expected a BadRequestError'), (e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const apiError = error as InstanceType<typeof OpenAI.BadRequestError>;
      expect(apiError.status).toBe(400);
      expect(apiError.code).toBe(400);
      expect(apiError.message).toBe('400 Model nobody/nothing does not exist');
    });

    it('a wrong key is an AuthenticationError', async () => {
      const bad = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'sk-bad', maxRetries: 0 });
      const error = await bad.audio.speech
        .create({ model: TTS, input: 'x', voice: 'alloy' })
        .then(() => expect.fail('expected an AuthenticationError'), (e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      const apiError = error as InstanceType<typeof OpenAI.AuthenticationError>;
      expect(apiError.status).toBe(401);
      expect(apiError.message).toBe('401 User not found.');
    });
  });
});
