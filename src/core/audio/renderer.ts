/**
 * Audio for the mock speech endpoint (`POST /api/v1/audio/speech`): turns a
 * request into real, decodable audio bytes in OpenRouter's formats, with an
 * LRU cache in front.
 *
 * The formats, and what the renderer takes and gives, are in `renderer-api.ts`.
 *
 * @module
 */

import { ChunkedBody } from '../http/body.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, LruCache } from './cache.js';
import { CONTENT_TYPES, SAMPLE_RATE, samplesToMs } from './format.js';
import { loadMp3Encoder, mp3EncoderFailure, retryMp3EncoderLoad } from './mp3.js';
import { RenderJob, SpeechStream, WordStream } from './render-job.js';
import type { AudioRenderer, AudioRendererOptions, AudioRendererStats, AudioRequest, RenderedAudio } from './renderer-api.js';
import { encodedByteLength, renderSegmentBytes, segmentByteChunks, wordByteChunks, wordsDurationMs } from './stream.js';
import type { AudioFormat } from './types.js';
import { sampleTotal, segmentsOf } from './turns.js';
import { normalizeVoice } from './voice.js';
import { fliteModule, loadFlite, type FliteLocator } from './words/flite-engine.js';

export type { AudioRenderer, AudioRendererOptions, AudioRendererStats, AudioRequest, OpenedAudio, RenderedAudio } from './renderer-api.js';


/**
 * The engine's source, as found.
 *
 * @throws Error with the sentence saying why there is none.
 */
function sourceOf(found: ReturnType<FliteLocator>): Exclude<ReturnType<FliteLocator>, string> {
  if (typeof found === 'string') throw new Error(found);
  return found;
}

/** The sample count of a finished render of `byteLength` bytes of words (see `wordsDurationMs` of `stream.ts`). */
function sampleCountOf(format: AudioFormat, byteLength: number): number {
  return Math.round((wordsDurationMs(format, byteLength) * SAMPLE_RATE) / 1000);
}

function checkFormat(format: AudioFormat): void {
  if (format !== 'pcm' && format !== 'mp3') {
    throw new TypeError(`unsupported audio format ${JSON.stringify(format)}; expected "pcm" or "mp3"`);
  }
}

function cacheKey(req: AudioRequest): string {
  const key: unknown[] = [req.mode ?? 'tones', req.format, normalizeVoice(req.voice), req.speed, req.seed, req.input];
  // Turns change what is said, in either mode; a string input's key is as it always was.
  if (req.turns) key.push(req.turns.map((turn) => [normalizeVoice(turn.voice), turn.text]));
  return JSON.stringify(key);
}

/**
 * Creates a speech renderer with its own LRU cache. On a miss it plans, synthesizes and (for MP3) encodes; what each
 * step costs is measured by `npm run bench` (`bench/README.md`).
 *
 * @param options cache limits; see {@link AudioRendererOptions}.
 * @throws RangeError if a limit is negative or NaN.
 */
export function createAudioRenderer(options: AudioRendererOptions = {}): AudioRenderer {
  const cache = new LruCache<RenderedAudio>({
    maxBytes: options.maxCacheBytes ?? DEFAULT_CACHE_MAX_BYTES,
    maxEntries: options.maxCacheEntries ?? DEFAULT_CACHE_MAX_ENTRIES,
    sizeOf: (value, key) => value.bytes.byteLength + key.length * 2,
  });
  let hits = 0;
  let misses = 0;
  let renderMs = 0;
  let streamedBytes = 0;
  /** Renders being made, by cache key: a request for the same audio meanwhile reads the same render. */
  const inFlight = new Map<string, RenderJob>();

  const locate: FliteLocator = options.flite ?? (() => 'speech mode "words" has no engine on this platform');
  /** The bytes of `req` with words, once the engine is loaded (at once when `prepare()` loaded it). */
  async function* wordsOf(req: AudioRequest, pieces: number[]): AsyncGenerator<Uint8Array> {
    yield* wordByteChunks(fliteModule() ?? (await loadFlite(sourceOf(locate()))), req, req.format, (samples) => pieces.push(samples));
  }
  const rendered = (req: AudioRequest, sampleCount: number, bytes: Uint8Array, pieces?: readonly number[]): RenderedAudio =>
    Object.freeze({ bytes, pieces, durationMs: samplesToMs(sampleCount), sampleCount, sampleRate: SAMPLE_RATE, contentType: CONTENT_TYPES[req.format] });
  const said = (req: AudioRequest, audio: RenderedAudio): void | Promise<void> =>
    options.said?.(req, audio.bytes, req.mode === 'words' ? (audio.pieces ?? []).reduce((sum, n) => sum + n, 0) : audio.sampleCount, audio.pieces);

  return {
    open(req) {
      checkFormat(req.format);
      const key = cacheKey(req);
      const words = req.mode === 'words';
      const cached = cache.get(key);
      if (cached) {
        hits++;
        void said(req, cached);
        // A cached tones render is as long as its plan; words need the plan for the nominal length.
        const nominalDurationMs = words ? samplesToMs(sampleTotal(segmentsOf(req))) : cached.durationMs;
        return { ...cached, nominalDurationMs, byteLength: cached.bytes.byteLength, body: new ChunkedBody(cached.bytes, undefined, cached.durationMs) };
      }
      misses++;
      // What tones say; for words, only their nominal length (the same in both modes, turns or not).
      const segments = segmentsOf(req);
      const plan = { sampleCount: sampleTotal(segments) };
      const nominalDurationMs = samplesToMs(plan.sampleCount);
      const byteLength = words ? undefined : encodedByteLength(req.format, plan.sampleCount);
      const join = (): RenderJob | ChunkedBody => {
        const finished = cache.get(key);
        if (finished) return new ChunkedBody(finished.bytes, undefined, finished.durationMs);
        const running = inFlight.get(key);
        if (running?.joinable) return running;
        const pieces: number[] = [];
        const source = (output: Uint8Array | undefined) => (words ? wordsOf(req, pieces) : segmentByteChunks(segments, req.format, output));
        const job = new RenderJob(source, req.format, byteLength, {
          piece: (bytes) => void (streamedBytes += bytes.byteLength),
          complete: (bytes) => {
            const audio = rendered(req, words ? sampleCountOf(req.format, bytes.byteLength) : plan.sampleCount, bytes, words ? pieces : undefined);
            cache.set(key, audio);
            return said(req, audio);
          },
          settled: () => {
            if (inFlight.get(key) === job) inFlight.delete(key);
          },
        }, options.mp3Wasm);
        inFlight.set(key, job);
        return job;
      };
      if (words) {
        return {
          contentType: CONTENT_TYPES[req.format],
          durationMs: undefined,
          sampleCount: undefined,
          nominalDurationMs,
          byteLength: undefined,
          body: new WordStream(join, (bytes) => wordsDurationMs(req.format, bytes.byteLength)),
        };
      }
      return {
        contentType: CONTENT_TYPES[req.format],
        durationMs: nominalDurationMs,
        sampleCount: plan.sampleCount,
        nominalDurationMs,
        byteLength,
        body: new SpeechStream(byteLength!, nominalDurationMs, join),
      };
    },
    render(req) {
      checkFormat(req.format);
      if (req.mode === 'words') throw new TypeError('render() makes tones only; open() speech with words and read its body');
      const key = cacheKey(req);
      const cached = cache.get(key);
      if (cached) {
        hits++;
        return cached;
      }
      misses++;
      const started = performance.now();
      const segments = segmentsOf(req);
      const result = rendered(req, sampleTotal(segments), renderSegmentBytes(segments, req.format));
      renderMs += performance.now() - started;
      cache.set(key, result);
      return result;
    },
    warmUp: () => loadMp3Encoder(options.mp3Wasm),
    wordsUnavailable() {
      if (fliteModule()) return undefined;
      const found = locate();
      return typeof found === 'string' ? found : undefined;
    },
    prepare(mode) {
      if (mode !== 'words' || fliteModule()) return undefined;
      const found = locate();
      return typeof found === 'string' ? Promise.reject(new Error(found)) : loadFlite(found).then(() => undefined);
    },
    unavailable(format) {
      const failure = format === 'mp3' ? mp3EncoderFailure() : undefined;
      if (failure) retryMp3EncoderLoad(options.mp3Wasm);
      return failure;
    },
    clear(): void {
      cache.clear();
    },
    stats(): AudioRendererStats {
      return {
        entries: cache.size,
        bytes: cache.bytes,
        maxBytes: cache.maxBytes,
        maxEntries: cache.maxEntries,
        hits,
        misses,
        evictions: cache.evictions,
        renderMs,
        streamedBytes,
      };
    },
  };
}
