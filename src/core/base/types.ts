/**
 * The plain request and result the core works on. The adapters (`src/msw`, `src/server`) translate to and
 * from these; nothing in `src/core` knows about Fetch `Request`/`Response`, msw or `node:http`.
 *
 * @module
 */

/**
 * A value, or a promise of it: what a step of the core that may wait on state returns. A step that had nothing to
 * wait for answers at once, so the request path makes no promise for it (see {@link andThen}).
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)`: at once for a value, or once it resolves for a promise (a rejection, or a throw of `next` then,
 * is the returned promise's rejection; a throw of `next` called at once is thrown). The request path's steps chain
 * with it, so that they wait only when a step had to.
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Header map with lower-case names, as both Node's `IncomingHttpHeaders` and a Fetch `Headers` give them. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One HTTP request, framework-free.
 *
 * @example
 * { method: 'GET', path: '/api/v1/model/openai/gpt-4o%3Afree', query: '', headers: { authorization: 'Bearer sk-1' } }
 */
export interface CoreRequest {
  /** Upper-case HTTP method, e.g. `GET`. */
  method: string;
  /** The raw (still percent-encoded) path, starting with `/`, without the query string. */
  path: string;
  /** The raw query string without the leading `?` (may be empty). */
  query: string;
  /** Request headers with lower-case names. */
  headers: HeaderMap;
  /** The raw body bytes, or `undefined` when the request has none. */
  body?: Uint8Array | undefined;
}

/**
 * A streamed response body: an async iterable of chunks, sent as they come with no `Content-Length` (the speech
 * endpoint streams its audio, as the real gateway does; the admin API's event stream). Any async iterable of bytes
 * is one; the core's own bodies (`src/core/http/body.ts`) add the optional members below, which adapters use
 * through these methods, never by testing a body's class.
 */
export interface StreamedBody extends AsyncIterable<Uint8Array> {
  /** The whole body's length, bytes, when known before its first byte (speech: from its plan). */
  readonly byteLength?: number | undefined;
  /** For audio, its playback length, ms (a scenario's `dribble: {realtime}` paces it by this). */
  readonly durationMs?: number | undefined;
  /**
   * Every chunk of the body at once, when its bytes are all at hand (cached audio): an adapter writes them without
   * awaiting between them. `undefined` when they must be awaited (read the body with `for await`). Take one or the
   * other, once: each reads the body.
   */
  chunksNow?(): Iterable<Uint8Array> | undefined;
  /**
   * Aborted when the core gives up on the body's reader (the admin API's event stream, once a client falls 500
   * events behind): the body then yields what it still has to say and ends. An adapter that is waiting for the
   * client to read (backpressure) closes the connection at once instead, since nothing more can be written; one
   * that never waits (the MSW handlers) may ignore it.
   */
  readonly abandoned?: AbortSignal | undefined;
  /**
   * For audio whose length is known only once it is made (speech with words): reads it whole and gives it as a body
   * of known `byteLength` and `durationMs`. Scenario effects that need the total (a cut at a fraction of the bytes,
   * dribbled chunks) wait for it. Rejects with the render's error.
   */
  sized?(): Promise<StreamedBody & { readonly byteLength: number; readonly durationMs: number }>;
}

/** A response body: text or bytes sent as one piece (with a `Content-Length`), or a {@link StreamedBody}. */
export type CoreBody = string | Uint8Array | StreamedBody;

/**
 * One HTTP response, framework-free. A value: a layer that changes a response (the pipeline's scenario effects,
 * the journal's tracking, CORS) returns a new one, and never edits one another layer made.
 */
export interface CoreResponse {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers (names in their canonical case, e.g. `Content-Type`, `X-Generation-Id`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body; `null` for none. */
  readonly body: CoreBody | null;
  /** Wait this long before sending anything, ms (a scenario's `delay`). Adapters use msw's `delay` / a timer. */
  readonly delayMs?: number | undefined;
  /**
   * Drop the connection instead of answering (a scenario's `reset`): the standalone server destroys the
   * socket; in-process the handler answers `HttpResponse.error()`, so `fetch` rejects with a network error.
   */
  readonly reset?: boolean | undefined;
  /**
   * Called by the adapter once the response is fully sent, cut off, or abandoned by the client (exactly once).
   * How the body ended is known to the core without help: it counts what the adapter reads of a streamed body and
   * sees how that reading ended (the journal's `response_bytes` and `body_end`). `outcome` is for what the core
   * cannot see: the standalone server passes `{ end: 'aborted', bytes: 0 }` for a client that left before a
   * delayed answer was sent. Adapters that know nothing more call it without an argument.
   */
  readonly onDone?: ((outcome?: ResponseOutcome) => void) | undefined;
}

/**
 * How a response's body ended, as the journal records it (`body_end`):
 *
 * - `complete`: the whole body was sent (a body of one piece, or a stream read to its end);
 * - `cut`: the body stopped short on the simulator's side, then the connection failed (a scenario's
 *   `audio.truncate`; also a failure while rendering);
 * - `reset`: the connection was dropped without an answer (a scenario's `reset`; status 0);
 * - `aborted`: the client went away before the body ended (or before a delayed answer started).
 */
export type BodyEnd = 'complete' | 'cut' | 'reset' | 'aborted';

/** How a response ended: see {@link BodyEnd}; `bytes` is the body bytes delivered to the client. */
export interface ResponseOutcome {
  end: BodyEnd;
  /** Body bytes delivered (after a scenario's truncation); 0 for a reset or a HEAD request. */
  bytes: number;
  /**
   * The status the client got when it is not the response's: the adapter could not send the core's answer and
   * answered a 500 envelope instead (`src/node-adapter/send.ts`); the journal records it.
   */
  status?: number;
}

/**
 * What a speech answer renders: enough to render the same bytes again (with the request's `input` and the
 * gateway's seed). Field names are the journal's (JSON, snake_case).
 *
 * @example { format: 'mp3', content_type: 'audio/mpeg', duration_ms: 1240, voice: 'alloy', model: 'openai/gpt-4o-mini-tts-2025-12-15', speed: 1, speech: 'tones' }
 */
export interface SpeechAudio {
  /** The request's `response_format` (default `pcm`). */
  format: 'mp3' | 'pcm';
  /** `audio/mpeg` or `audio/pcm;rate=24000;channels=1`. */
  content_type: string;
  /**
   * Playback length of the whole audio, ms (not rounded; the same for both formats). For speech with words, `null`
   * until the answer ends (its length is known only once it is said), then filled in; still `null` when the client
   * went away before the render was done.
   */
  duration_ms: number | null;
  /** For speech with words, once the answer ended: what Flite said and what it did not ({@link WordsFacts}). */
  words?: WordsFacts;
  /** How it sounds: `tones` or `words` (`docs/speech.md`); absent in entries made before speech had modes. */
  speech?: 'tones' | 'words';
  /** The request's `voice`, as given. */
  voice: string;
  /**
   * For multi-speaker input (a list of turns): the voice of each turn, in order (a turn's own `voice`, or the
   * request's); absent for a string input.
   */
  voices?: string[];
  /**
   * The request's `model`, as given: kept here as well as in the entry's `body`, which is not kept over 64 KiB (a
   * request with reference audio). Absent in entries made before it was kept.
   */
  model?: string;
  /** The speed actually rendered: the request's `speed`, or 1 for models that ignore it (or when it is omitted). */
  speed: number;
  /**
   * Present (true) when the answer was a recording of a `fixtures` folder (`audio/index.json`), served as recorded
   * rather than rendered: the journal cannot render it again.
   */
  recorded?: true;
}

/**
 * What an answer with words said in words and what it did not (the journal's `audio.words`; `docs/speech.md`, "What
 * one answer may cost"). Characters are those of the pieces Flite reads (`src/core/audio/words/pieces.ts`).
 *
 * @example { said_ms: 4321.5, said_chars: 62, limited: null }
 */
export interface WordsFacts {
  /** Speech Flite said, ms; the rest of the answer is tones (spans Flite cannot say, and what the limit left). */
  said_ms: number;
  /** Characters of the pieces Flite said. */
  said_chars: number;
  /**
   * Where the limit on what one answer says in words took effect: `at_ms`, the time in the audio from which the
   * pieces Flite would have said are tones, and `chars`, their characters; `null` when the whole input fit.
   */
  limited: { at_ms: number; chars: number } | null;
}

/**
 * What a transcription answer transcribed (the journal's `transcription`; `docs/transcription.md`). Field names are
 * the journal's (JSON, snake_case).
 *
 * @example { model: 'openai/whisper-1', shape: 'multipart', format: 'mp3', audio_bytes: 9984, audio_sha256: '3f…', duration_s: 1.2, source: 'said', response_format: 'json', text: 'Hello there.' }
 */
export interface TranscriptionFacts {
  /** The request's `model`, as given. */
  model: string;
  /** How the audio came: `json` (`input_audio`) or `multipart` (a `file` part). */
  shape: 'json' | 'multipart';
  /** The audio's format, as named or read from the file's name or content type; `null` for none. */
  format: string | null;
  /** The audio's length, bytes; `null` for audio given by URL. */
  audio_bytes: number | null;
  /** The SHA-256 of the audio, hex; `null` for a URL not served by this simulator. */
  audio_sha256: string | null;
  /** The audio's length, seconds. */
  duration_s: number;
  /**
   * Where the transcript came from: `said` (audio this simulator said: the speech request's input), `fixture` (the
   * fixtures folder's `transcripts.json`), `invented` (drawn from the seed and the audio).
   */
  source: 'said' | 'fixture' | 'invented';
  /** The request's `response_format`. */
  response_format: 'json' | 'verbose_json';
  /** The transcript's text, at most 2,000 characters (a longer one is cut and ends with `…`). */
  text: string;
}

/**
 * Real time between the last byte before a cut and the cut itself, ms: a browser reading the body gets every byte
 * sent before it (Chromium drops the bytes still in its data pipe the moment a load fails), as on a real network,
 * where a reset comes some time after the last segment; long enough for a busy machine too. Used by every adapter
 * (`src/msw/convert.ts`; `src/node-adapter/send.ts`, which the express middleware shares).
 */
export const CUT_GRACE_MS = 50;

/**
 * Thrown by a streamed body to cut the connection mid-stream (a scenario's `audio.truncate`): the standalone
 * server destroys the socket after the bytes sent so far; in-process the body stream errors.
 */
export class StreamCut extends Error {
  override name = 'StreamCut';
}
