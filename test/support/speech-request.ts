/**
 * A speech request (`POST /api/v1/audio/speech`, the OpenRouter operation `createAudioSpeech`) in the two shapes the
 * tests send it: over HTTP with `fetch` ({@link postSpeech}), and as the core's request object handed to
 * `Gateway.handle` ({@link coreSpeechRequest}). Each sends the body it is given, as given: a test names the model
 * (`TTS` of `./speech-model.ts` most often), the input, the voice and the rest.
 *
 * @module
 */
import type { CoreRequest } from '../../src/core/base/types.js';

/**
 * `POST {baseUrl}/audio/speech` with `Content-Type: application/json` and `headers` over it (the bearer key among
 * them; none is added). `body` is sent as is when it is a string (a test of malformed JSON), as JSON otherwise.
 * `init` adds the rest of a fetch's options (a `signal`, most often). Resolves with the response, its body unread;
 * rejects as `fetch` does (a refused connection, an abort).
 */
export function postSpeech(baseUrl: string, body: unknown, headers: Record<string, string>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}/audio/speech`, {
    ...init,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * The core's request for a speech call: `POST /api/v1/audio/speech`, no query, `headers` as given (lowercase names,
 * as the adapters hand them to the core; `content-type` only when the caller gives it), `body` as UTF-8 JSON bytes.
 */
export function coreSpeechRequest(body: Record<string, unknown>, headers: Record<string, string>): CoreRequest {
  return {
    method: 'POST',
    path: '/api/v1/audio/speech',
    query: '',
    headers,
    body: new TextEncoder().encode(JSON.stringify(body)),
  };
}
