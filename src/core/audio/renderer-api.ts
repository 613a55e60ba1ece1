/**
 * What the speech renderer (`renderer.ts`) takes and gives: a request and its format ({@link AudioRequest}), audio
 * rendered whole ({@link RenderedAudio}) or opened for sending ({@link OpenedAudio}), the renderer's options and
 * counters, and the renderer itself ({@link AudioRenderer}).
 *
 * The formats of `createAudioSpeech` (`docs/behaviour.md`, "Speech"): `pcm` is 24 kHz, 16-bit signed
 * little-endian, mono, no header, `Content-Type: audio/pcm;rate=24000;channels=1`;
 * `mp3` is `Content-Type: audio/mpeg`.
 *
 * @module
 */

import type { ChunkedBody } from '../http/body.js';
import type { SAMPLE_RATE } from './format.js';
import type { Mp3WasmSource } from './mp3.js';
import type { SpeechStream, WordStream } from './render-job.js';
import type { AudioFormat, SpeechMode, SynthesisRequest } from './types.js';
import type { FliteLocator } from './words/flite-engine.js';

/**
 * A speech request plus the output format (OpenRouter's `response_format`, already defaulted and validated by the
 * caller) and the speech mode (`tones` when omitted; see `docs/speech.md`).
 */
export type AudioRequest = SynthesisRequest & { format: AudioFormat; mode?: SpeechMode | undefined };

/**
 * Rendered speech.
 *
 * - `bytes`: the response body. Shared with the cache: callers must not
 *   mutate it.
 * - `durationMs`: playback length in ms (`sampleCount / 24`), the same for
 *   both formats (the MP3 carries a gapless tag so decoders trim encoder
 *   delay and padding).
 * - `sampleCount`: mono samples at `sampleRate`.
 * - `sampleRate`: always 24,000 Hz.
 * - `contentType`: `audio/mpeg` (mp3) or `audio/pcm;rate=24000;channels=1` (pcm).
 */
export interface RenderedAudio {
  readonly bytes: Uint8Array;
  /** For words, the samples of each piece said, in order (`words/pieces.ts`); `undefined` for tones. */
  readonly pieces?: readonly number[] | undefined;
  readonly durationMs: number;
  readonly sampleCount: number;
  readonly sampleRate: typeof SAMPLE_RATE;
  readonly contentType: string;
}

/**
 * Speech about to be sent: what is known before the first byte, and the body. A cached request's body is its bytes
 * ({@link ChunkedBody}); otherwise a {@link SpeechStream} (tones) or {@link WordStream} (words) that, once read, joins
 * the render of that audio (one in flight for an identical request, or a new one), which enters the cache when
 * complete. Tones know their length from the plan; words only once said (`undefined` until then, unless cached).
 */
export interface OpenedAudio {
  /** `audio/mpeg` or `audio/pcm;rate=24000;channels=1`. */
  readonly contentType: string;
  /** Playback length, ms; `undefined` for words not yet rendered. */
  readonly durationMs: number | undefined;
  /** Mono samples at 24,000 Hz; `undefined` for words not yet rendered. */
  readonly sampleCount: number | undefined;
  /**
   * The tones plan's playback length, ms, in either mode: what the generation record's `generation_time` is computed
   * from, so that records do not depend on the mode (`src/core/generations/speech-generation.ts`).
   */
  readonly nominalDurationMs: number;
  /** The body's final length, bytes; `undefined` for words not yet rendered. */
  readonly byteLength: number | undefined;
  /** The response body. */
  readonly body: ChunkedBody | SpeechStream | WordStream;
}

/**
 * Options of `createAudioRenderer`: cache limits `maxCacheBytes` (default 8 MiB; counts audio bytes plus 2
 * bytes per key character) and `maxCacheEntries` (default 1000; 0 disables caching), `mp3Wasm`, where the MP3
 * encoder's WebAssembly comes from if this renderer loads it first (the platform's `mp3Wasm`,
 * `src/core/gateway/platform.ts`; default the copy bundled with the package), and `flite`, where the words engine comes from
 * (`src/core/audio/words/flite-engine.ts`), or the sentence saying why there is none (default: none, and words are
 * refused with a generic sentence).
 */
export interface AudioRendererOptions {
  maxCacheBytes?: number;
  maxCacheEntries?: number;
  mp3Wasm?: Mp3WasmSource;
  flite?: FliteLocator;
  /**
   * Told of every body `open()` gives whole (a render finished, or a cached one sent again): the request, the bytes,
   * its length in samples at 24,000 Hz, and for words the samples of each piece said (`words/pieces.ts`). A render's
   * readers see its end only once a promise this gives has settled. The gateway indexes them for transcription
   * (`src/core/transcription/said-index.ts`), in its store, so the audio is found on any replica once its last byte
   * is read.
   */
  said?: ((req: AudioRequest, bytes: Uint8Array, sampleCount: number, pieces: readonly number[] | undefined) => void | Promise<void>) | undefined;
}

/**
 * Counters of a renderer: cache `entries` and `bytes` held, the limits,
 * `hits`/`misses` of `render` and `open`, `evictions` for space,
 * `renderMs`, the total time spent in whole renders (ms), and
 * `streamedBytes`, the bytes streamed renders have produced so far (finished
 * or not; it grows piece by piece while a stream is pulled).
 */
export interface AudioRendererStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  maxEntries: number;
  hits: number;
  misses: number;
  evictions: number;
  renderMs: number;
  streamedBytes: number;
}

/** A caching speech renderer; see `createAudioRenderer` of `renderer.ts`. */
export interface AudioRenderer {
  /**
   * Opens a request for sending: the cached bytes, or a stream of its render (shared with identical requests in
   * flight, cached once complete). Cheap: it only plans; rendering starts when the body is read. The bytes equal
   * {@link render}'s for the same request.
   *
   * @throws RangeError if `speed` is not a finite number in [0.25, 4].
   * @throws TypeError if `format` is not `pcm` or `mp3`.
   */
  open(req: AudioRequest): OpenedAudio;
  /**
   * Renders (or returns the cached rendering of) a request, whole. Identical requests
   * (same input, voice (case-insensitive), speed, seed and format) return the
   * same object. For MP3 the encoder must be loaded first (`await warmUp()`; after many MP3 renders
   * an idle encoder instance is renewed, and must be loaded again).
   *
   * @throws RangeError if `speed` is not a finite number in [0.25, 4].
   * @throws TypeError if `format` is not `pcm` or `mp3`.
   * @throws Error for MP3 when the encoder is not loaded.
   */
  render(req: AudioRequest): RenderedAudio;
  /**
   * Loads what the first MP3 would otherwise wait for (the WebAssembly encoder, once per process).
   * Optional: an MP3 render loads it itself.
   */
  warmUp(): Promise<void>;
  /**
   * Why `format` cannot be rendered now, or `undefined` if it can (or may: a first MP3 load still under way).
   * For MP3: the error of the encoder's last failed load; a new load is started in the background (at most one
   * a second, `MP3_RETRY_INTERVAL_MS`), so a later call may answer `undefined`. PCM needs nothing to load.
   */
  unavailable(format: AudioFormat): Error | undefined;
  /**
   * Why speech with words cannot be rendered by this renderer (its `flite` option is a sentence: the engine's
   * package is missing, or the platform has none), or `undefined` when it has an engine to load.
   */
  wordsUnavailable(): string | undefined;
  /**
   * Waits until `mode` can start rendering: `undefined` at once for tones or a loaded engine; else the promise of
   * loading the words engine (compiled once per process).
   *
   * @throws (rejects with) the engine's load error; Error with {@link wordsUnavailable}'s sentence when there is no
   *   engine.
   */
  prepare(mode: SpeechMode): Promise<void> | undefined;
  /** Empties the cache (counters are kept). */
  clear(): void;
  /** Current counters; a fresh object each call. */
  stats(): AudioRendererStats;
}

