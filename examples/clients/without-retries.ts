// Clients for tests that expect a failure scenario's error: with the clients' default retries, `rate-limited`
// (Retry-After: 60) makes `openai` wait two minutes, and `service-unavailable` keeps `@openrouter/sdk` retrying
// for up to an hour.
import { OpenRouter } from '@openrouter/sdk';
import OpenAI from 'openai';

/** `openai` and `@openrouter/sdk` against `baseUrl`, each failing on the first error answer. */
export function clientsWithoutRetries(baseUrl: string, apiKey = 'sk-test'): { openai: OpenAI; openRouter: OpenRouter } {
  return {
    openai: new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 }),
    // or per call: openRouter.tts.createSpeech(request, { retries: { strategy: 'none' } })
    openRouter: new OpenRouter({ serverURL: baseUrl, apiKey, retryConfig: { strategy: 'none' } }),
  };
}
