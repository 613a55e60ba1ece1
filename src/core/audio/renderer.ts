/**
 * Audio for the mock speech endpoint (`POST /api/v1/audio/speech`): turns a
 * request into real, decodable audio bytes in OpenRouter's formats, with an
 * LRU cache in front.
 *
 * The formats of `createAudioSpeech` (`docs/behaviour.md`, "Speech"): `pcm` is 24 kHz, 16-bit signed
 * little-endian, mono, no header, `Content-Type: audio/pcm;rate=24000;channels=1`;
 * `mp3` is `Content-Type: audio/mpeg`.
 *
 * @module
 */

import { ChunkedBody } from '../http/body.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, LruCache } from './cache.js';
import { CONTENT_TYPES, SAMPLE_RATE, samplesToMs } from './format.js';
import { loadMp3Encoder, mp3EncoderFailure, retryMp3EncoderLoad } from './mp3.js';
import { RenderJob, SpeechStream, WordStream } from './render-job.js';
import { encodedByteLength, renderSegmentBytes, segmentByteChunks, wordByteChunks } from './stream.js';
import type { AudioFormat } from './types.js';
import { sampleTotal, segmentsOf } from './turns.js';
import { normalizeVoice } from './voice.js';
import { fliteModule, loadFlite, type FliteLocator } from './words/flite-engine.js';
import { wordsFactsOf, type SaidPiece } from './words/render-words.js';
import type { AudioRenderer, AudioRendererOptions, AudioRendererStats, AudioRequest, RenderedAudio } from './renderer-types.js';

export type { AudioRenderer, AudioRendererOptions, AudioRendererStats, AudioRequest, OpenedAudio, RenderedAudio } from './renderer-types.js';

/**
 * The engine's source, as found.
 *
 * @throws Error with the sentence saying why there is none.
 */
function sourceOf(found: ReturnType<FliteLocator>): Exclude<ReturnType<FliteLocator>, string> {
  if (typeof found === 'string') throw new Error(found);
  return found;
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
  /**
   * The bytes of `req` with words, once the engine is loaded (at once when `prepare()` loaded it): said by the
   * platform's threads when there are, else here.
   */
  async function* wordsOf(req: AudioRequest, pieces: SaidPiece[]): AsyncGenerator<Uint8Array> {
    const module = fliteModule() ?? (await loadFlite(sourceOf(locate())));
    const onPiece = (piece: SaidPiece) => void pieces.push(piece);
    const pool = options.wordsPool?.();
    yield* pool ? pool.say(module, req, req.format, onPiece) : wordByteChunks(module, req, req.format, onPiece);
  }
  const rendered = (req: AudioRequest, sampleCount: number, bytes: Uint8Array, said?: readonly SaidPiece[]): RenderedAudio =>
    Object.freeze({
      bytes,
      pieces: said?.map((piece) => piece.samples),
      words: said && wordsFactsOf(said),
      durationMs: samplesToMs(sampleCount),
      sampleCount,
      sampleRate: SAMPLE_RATE,
      contentType: CONTENT_TYPES[req.format],
    });
  const said = (req: AudioRequest, audio: RenderedAudio): void | Promise<void> => options.said?.(req, audio.bytes, audio.sampleCount, audio.pieces);
  /** What a job rendered, once complete (also when the cache keeps nothing). */
  const finishedJobs = new WeakMap<RenderJob, RenderedAudio>();

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
        return { ...cached, nominalDurationMs, byteLength: cached.bytes.byteLength, body: new ChunkedBody(cached.bytes, undefined, cached.durationMs), finished: words ? () => cached : undefined };
      }
      misses++;
      // What tones say; for words, only their nominal length (the same in both modes, turns or not).
      const segments = segmentsOf(req);
      const plan = { sampleCount: sampleTotal(segments) };
      const nominalDurationMs = samplesToMs(plan.sampleCount);
      const byteLength = words ? undefined : encodedByteLength(req.format, plan.sampleCount);
      /** What this answer's body read: a finished render, or the job it joined. */
      let joined: RenderedAudio | RenderJob | undefined;
      const join = (): RenderJob | ChunkedBody => {
        const finished = cache.get(key);
        joined = finished;
        if (finished) return new ChunkedBody(finished.bytes, undefined, finished.durationMs);
        const running = inFlight.get(key);
        joined = running;
        if (running?.joinable) return running;
        const pieces: SaidPiece[] = [];
        const source = (output: Uint8Array | undefined) => (words ? wordsOf(req, pieces) : segmentByteChunks(segments, req.format, output));
        const job = new RenderJob(source, req.format, byteLength, {
          piece: (bytes) => void (streamedBytes += bytes.byteLength),
          complete: (bytes) => {
            const audio = words ? rendered(req, pieces.reduce((sum, piece) => sum + piece.samples, 0), bytes, pieces) : rendered(req, plan.sampleCount, bytes);
            finishedJobs.set(job, audio);
            cache.set(key, audio);
            return said(req, audio);
          },
          settled: () => {
            if (inFlight.get(key) === job) inFlight.delete(key);
          },
        }, options.mp3Wasm);
        inFlight.set(key, job);
        joined = job;
        return job;
      };
      if (words) {
        const finished = () => (joined instanceof RenderJob ? finishedJobs.get(joined) : joined);
        return {
          contentType: CONTENT_TYPES[req.format],
          durationMs: undefined,
          sampleCount: undefined,
          nominalDurationMs,
          byteLength: undefined,
          body: new WordStream(join, () => finished()?.durationMs),
          finished,
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
