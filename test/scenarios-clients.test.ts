/**
 * Scenario errors through the official clients, in every mode: each status the gateway documents, on each
 * operation, lands in the error class `@openrouter/sdk` declares for it on that operation (its
 * `funcs/{ttsCreateSpeech,modelsGet,generationsGetGeneration}.js` `M.jsonErr(...)` lists; a status an operation
 * does not declare falls back to `OpenRouterDefaultError`), and in the class `openai` maps it to.
 */
import { HTTPClient, OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_DEFAULTS } from '../src/core/base/error-envelope.js';
import { modes, modeTitle, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';

const KEY = 'sk-clients';
/** The statuses the gateway documents for `createAudioSpeech` (`docs/behaviour.md`, "Error envelope"). */
const DOCUMENTED = [400, 401, 402, 404, 429, 500, 502, 503, 524, 529];

type ErrorClass = abstract new (...args: never[]) => errors.OpenRouterError;

/** `@openrouter/sdk` 1.3.19: the statuses each operation declares, and their classes. */
const MAPPED: Record<'createSpeech' | 'modelsGet' | 'getGeneration', Record<number, ErrorClass>> = {
  // ttsCreateSpeech.js
  createSpeech: {
    400: errors.BadRequestResponseError,
    401: errors.UnauthorizedResponseError,
    402: errors.PaymentRequiredResponseError,
    403: errors.ForbiddenResponseError,
    404: errors.NotFoundResponseError,
    413: errors.PayloadTooLargeResponseError,
    429: errors.TooManyRequestsResponseError,
    500: errors.InternalServerResponseError,
    502: errors.BadGatewayResponseError,
    503: errors.ServiceUnavailableResponseError,
    524: errors.EdgeNetworkTimeoutResponseError,
    529: errors.ProviderOverloadedResponseError,
  },
  // modelsGet.js
  modelsGet: {
    403: errors.ForbiddenResponseError,
    404: errors.NotFoundResponseError,
    500: errors.InternalServerResponseError,
  },
  // generationsGetGeneration.js
  getGeneration: {
    401: errors.UnauthorizedResponseError,
    402: errors.PaymentRequiredResponseError,
    404: errors.NotFoundResponseError,
    429: errors.TooManyRequestsResponseError,
    500: errors.InternalServerResponseError,
    502: errors.BadGatewayResponseError,
    524: errors.EdgeNetworkTimeoutResponseError,
    529: errors.ProviderOverloadedResponseError,
  },
};

/** Every documented status plus every status the operation declares, with the class expected (and its name). */
function cases(operation: keyof typeof MAPPED): [number, string, ErrorClass][] {
  const statuses = [...new Set([...DOCUMENTED, ...Object.keys(MAPPED[operation]).map(Number)])].sort((a, b) => a - b);
  return statuses.map((status) => {
    const type = MAPPED[operation][status] ?? errors.OpenRouterDefaultError;
    return [status, type.name, type];
  });
}

/** `openai` 6: `APIError.generate` (core/error.js). 402, 413, 524 and 529 get a plain `APIError` or a 5xx class. */
function openaiClass(status: number): new (...args: never[]) => InstanceType<typeof OpenAI.APIError> {
  if (status === 400) return OpenAI.BadRequestError;
  if (status === 401) return OpenAI.AuthenticationError;
  if (status === 403) return OpenAI.PermissionDeniedError;
  if (status === 404) return OpenAI.NotFoundError;
  if (status === 429) return OpenAI.RateLimitError;
  if (status >= 500) return OpenAI.InternalServerError;
  return OpenAI.APIError;
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
}

/** Checks an `@openrouter/sdk` error: the class, the status, and the envelope it carries. */
async function expectSdkError(call: Promise<unknown>, type: ErrorClass, status: number): Promise<errors.OpenRouterError> {
  const error = await rejection(call);
  if (error instanceof errors.ResponseValidationError) expect.fail(`ResponseValidationError: ${error.pretty()}`);
  if (error instanceof errors.SDKValidationError) expect.fail(`SDKValidationError: ${error.pretty()}`);
  expect(error, `expected a ${type.name}`).toBeInstanceOf(type);
  const typed = error as errors.OpenRouterError;
  expect(typed.statusCode).toBe(status);
  expect(typed.contentType).toBe('application/json');
  const envelope = JSON.parse(typed.body) as { error: { code: number; message: string } };
  expect(envelope.error.code).toBe(status);
  if (type !== errors.OpenRouterDefaultError) {
    const data = (typed as errors.OpenRouterError & { data$: { error: { code: number; message: string } } }).data$;
    expect(data.error.code).toBe(status);
    expect(typed.message).toBe(envelope.error.message);
  }
  return typed;
}

for (const mode of modes) {
  describe.skipIf(mode.unsupported !== undefined)(modeTitle('scenario errors in the official clients', mode), () => {
    let mock: RunningMode;
    let openRouter: OpenRouter;
    let openai: OpenAI;
    /** Headers the OpenRouter client adds to its next requests. */
    let extra: Record<string, string> = {};

    beforeAll(async () => {
      mock = await mode.start({ seed: 13 });
      const httpClient = new HTTPClient();
      httpClient.addHook('beforeRequest', (req) => {
        const headers = new Headers(req.headers);
        for (const [name, value] of Object.entries(extra)) headers.set(name, value);
        return new Request(req, { headers });
      });
      openRouter = new OpenRouter({ serverURL: mock.baseUrl, apiKey: KEY, httpClient, retryConfig: { strategy: 'none' } });
      // Built after `start`: the openai client takes the global fetch at construction, which msw patches.
      openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0 });
    });
    afterAll(() => mock.stop());

    /** Runs `call` with `headers` added to the OpenRouter client's requests. */
    async function withHeaders<T>(headers: Record<string, string>, call: () => Promise<T>): Promise<T> {
      extra = headers;
      try {
        return await call();
      } finally {
        extra = {};
      }
    }

    const speechRequest = { model: TTS, input: 'Hello.', voice: 'alloy', responseFormat: 'pcm' as const };

    describe('@openrouter/sdk via X-Mock-Status', () => {
      it.for(cases('createSpeech'))('tts.createSpeech: %i is a %s', async ([status, , type]) => {
        const error = await withHeaders({ 'X-Mock-Status': String(status) }, () =>
          expectSdkError(openRouter.tts.createSpeech({ speechRequest }), type, status),
        );
        expect(error.headers.get('x-mock-applied')).toBe(`x-mock-status/${status}`);
      });

      it.for(cases('modelsGet'))('models.get: %i is a %s', async ([status, , type]) => {
        await withHeaders({ 'X-Mock-Status': String(status) }, () =>
          expectSdkError(openRouter.models.get({ author: 'openai', slug: 'gpt-4o-mini' }), type, status),
        );
      });

      it.for(cases('getGeneration'))('generations.getGeneration: %i is a %s', async ([status, , type]) => {
        await withHeaders({ 'X-Mock-Status': String(status) }, () =>
          expectSdkError(openRouter.generations.getGeneration({ id: 'gen-1773480413-MockrouterFixture001' }), type, status),
        );
      });
    });

    describe('@openrouter/sdk via X-Mock-Scenario', () => {
      it('rate-limited: a TooManyRequestsResponseError with Retry-After and the rate-limit headers', async () => {
        const error = (await withHeaders({ 'X-Mock-Scenario': 'rate-limited' }, () =>
          expectSdkError(openRouter.generations.getGeneration({ id: 'gen-x' }), errors.TooManyRequestsResponseError, 429),
        )) as errors.TooManyRequestsResponseError;
        expect(error.message).toBe('Rate limit exceeded');
        expect(error.headers.get('retry-after')).toBe('60');
        expect(error.headers.get('x-ratelimit-limit')).toBe('20');
        expect(error.headers.get('x-ratelimit-remaining')).toBe('0');
        const reset = Number(error.headers.get('x-ratelimit-reset'));
        expect(reset).toBeGreaterThan(Date.now() + 55_000);
        expect(reset).toBeLessThan(Date.now() + 65_000);
        expect(error.error.metadata).toMatchObject({ error_type: 'rate_limit_exceeded', headers: { 'X-RateLimit-Reset': String(reset) } });
      });

      it('insufficient-credits: a PaymentRequiredResponseError with a user id', async () => {
        const error = (await withHeaders({ 'X-Mock-Scenario': 'insufficient-credits' }, () =>
          expectSdkError(openRouter.tts.createSpeech({ speechRequest }), errors.PaymentRequiredResponseError, 402),
        )) as errors.PaymentRequiredResponseError;
        expect(error.message).toBe(STATUS_DEFAULTS[402]!.message);
        expect(error.userId).toMatch(/^user_[a-z0-9]{27}$/);
      });

      it('edge-timeout: an EdgeNetworkTimeoutResponseError; the HTML 524 page: an OpenRouterDefaultError with the page', async () => {
        const json = await withHeaders({ 'X-Mock-Scenario': 'edge-timeout' }, () =>
          expectSdkError(openRouter.tts.createSpeech({ speechRequest }), errors.EdgeNetworkTimeoutResponseError, 524),
        );
        expect(json.message).toBe('Request timed out. Please try again later.');
        // The SDK declares 524 as JSON only, so the edge's HTML page falls back to its default error.
        const html = await withHeaders({ 'X-Mock-Scenario': 'edge-timeout-html' }, () => rejection(openRouter.tts.createSpeech({ speechRequest })));
        expect(html).toBeInstanceOf(errors.OpenRouterDefaultError);
        const fallback = html as errors.OpenRouterDefaultError;
        expect(fallback.statusCode).toBe(524);
        expect(fallback.contentType).toBe('text/html; charset=UTF-8');
        expect(fallback.body).toMatch(/^<!DOCTYPE html>[\s\S]*Error code 524/);
      });

      it('provider-overloaded and service-unavailable on createSpeech', async () => {
        const overloaded = await withHeaders({ 'X-Mock-Scenario': 'provider-overloaded' }, () =>
          expectSdkError(openRouter.tts.createSpeech({ speechRequest }), errors.ProviderOverloadedResponseError, 529),
        );
        expect(overloaded.message).toBe('Provider returned error');
        const unavailable = await withHeaders({ 'X-Mock-Scenario': 'service-unavailable' }, () =>
          expectSdkError(openRouter.tts.createSpeech({ speechRequest }), errors.ServiceUnavailableResponseError, 503),
        );
        expect(unavailable.headers.get('retry-after')).toBe('30');
      });
    });

    describe('openai', () => {
      it.for([...DOCUMENTED, 403, 413])('audio.speech.create: %i is mapped by APIError.generate', async (status) => {
        const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0, defaultHeaders: { 'X-Mock-Status': String(status) } });
        const error = await rejection(client.audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
        const expected = openaiClass(status);
        expect(error).toBeInstanceOf(expected);
        // Exactly that class: 402 and 413 are plain APIErrors, not one of its subclasses.
        expect((error as object).constructor).toBe(expected);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        expect(apiError.status).toBe(status);
        expect(apiError.code).toBe(status);
        expect(apiError.message).toBe(`${status} ${STATUS_DEFAULTS[status]!.message}`);
        expect(apiError.headers?.get('x-mock-applied')).toBe(`x-mock-status/${status}`);
      });

      it('rate-limited is a RateLimitError carrying Retry-After', async () => {
        const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0, defaultHeaders: { 'X-Mock-Scenario': 'rate-limited' } });
        const error = await rejection(client.audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
        expect(error).toBeInstanceOf(OpenAI.RateLimitError);
        expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('60');
      });

      it('the HTML 524 page is an InternalServerError with status 524', async () => {
        const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0, defaultHeaders: { 'X-Mock-Scenario': 'edge-timeout-html' } });
        const error = await rejection(client.audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' }));
        expect(error).toBeInstanceOf(OpenAI.InternalServerError);
        expect((error as InstanceType<typeof OpenAI.InternalServerError>).status).toBe(524);
      });

      it('a client without the headers is unaffected', async () => {
        const response = await openai.audio.speech.create({ model: TTS, input: 'Hello.', voice: 'alloy' });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-mock-applied')).toBeNull();
        expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      });
    });
  });
}
