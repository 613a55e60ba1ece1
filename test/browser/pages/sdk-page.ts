/**
 * The cross-origin page (bundled by test/browser/cross-origin.test.ts): the official `@openrouter/sdk` in a page
 * on one origin calling the standalone server on another, as a browser app calls the gateway. The API base comes
 * from the page's query (`?api=http://127.0.0.1:4010/api/v1`). The test calls `window.sdkPage`.
 */
import { HTTPClient, OpenRouter } from '@openrouter/sdk';
import { TTS } from '../../support/speech-model.js';

const serverURL = new URL(location.href).searchParams.get('api') ?? '';
const KEY = 'sk-cross-origin';

/** `X-Generation-Id` of every response the SDK got, in order, as its response hook read it (null: unreadable or absent). */
const generationIds: (string | null)[] = [];
const httpClient = new HTTPClient();
httpClient.addHook('response', (res) => {
  generationIds.push(res.headers.get('x-generation-id'));
});
const client = new OpenRouter({ serverURL, apiKey: KEY, httpClient, retryConfig: { strategy: 'none' } });

async function byteLength(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const api = {
  /** `tts.createSpeech`, read whole; with the `X-Generation-Id` the response hook saw. */
  async createSpeech(input: string): Promise<{ bytes: number; generationId: string | null } | { error: string }> {
    try {
      const stream = await client.tts.createSpeech({ speechRequest: { model: TTS, input, voice: 'alloy', responseFormat: 'pcm' } });
      const generationId = generationIds.at(-1) ?? null;
      return { bytes: await byteLength(stream), generationId };
    } catch (error) {
      return { error: describeError(error) };
    }
  },

  /** `models.get`. */
  async getModel(author: string, slug: string): Promise<{ id: string; canonicalSlug: string; pricing: unknown } | { error: string }> {
    try {
      const { data } = await client.models.get({ author, slug });
      return { id: data.id, canonicalSlug: data.canonicalSlug, pricing: data.pricing };
    } catch (error) {
      return { error: describeError(error) };
    }
  },

  /** `generations.getGeneration`. */
  async getGeneration(id: string): Promise<{ id: string; apiType: string | null | undefined; tokensPrompt: number | null | undefined } | { error: string }> {
    try {
      const { data } = await client.generations.getGeneration({ id });
      return { id: data.id, apiType: data.apiType, tokensPrompt: data.tokensPrompt };
    } catch (error) {
      return { error: describeError(error) };
    }
  },

  /** A plain `fetch` of a path: the status and the response headers page script can read. */
  async plainFetch(path: string, init: RequestInit = {}): Promise<{ status: number; type: ResponseType; headers: Record<string, string> } | { error: string }> {
    try {
      const res = await fetch(`${serverURL}${path}`, { ...init, headers: { Authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) } });
      await res.arrayBuffer();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: res.status, type: res.type, headers };
    } catch (error) {
      return { error: describeError(error) };
    }
  },
};

export type SdkPage = typeof api;

(globalThis as unknown as { sdkPage: SdkPage }).sdkPage = api;
