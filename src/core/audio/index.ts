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

import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, LruCache } from './cache.js';
import { CONTENT_TYPES, SAMPLE_RATE, samplesToMs } from './format.js';
import { encodeMp3 } from './mp3.js';
import { encodePcm } from './pcm.js';
import type { AudioFormat, SynthesisRequest } from './types.js';
import { synthesizeSamples } from './synthesize.js';
import { normalizeVoice } from './voice.js';

/**
 * A speech request plus the output format (OpenRouter's `response_format`,
 * already defaulted and validated by the caller).
 */
export type AudioRequest = SynthesisRequest & { format: AudioFormat };

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
  readonly durationMs: number;
  readonly sampleCount: number;
  readonly sampleRate: typeof SAMPLE_RATE;
  readonly contentType: string;
}

/**
 * Cache limits for {@link createAudioRenderer}: `maxCacheBytes` (default
 * 24 MiB; counts audio bytes plus 2 bytes per key character) and
 * `maxCacheEntries` (default 1000; 0 disables caching).
 */
export interface AudioRendererOptions {
  maxCacheBytes?: number;
  maxCacheEntries?: number;
}

/**
 * Counters of a renderer: cache `entries` and `bytes` held, the limits,
 * `hits`/`misses` of `render`, `evictions` for space, and `renderMs`, the
 * total time spent synthesizing and encoding on misses (ms).
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
}

/** A caching speech renderer; see {@link createAudioRenderer}. */
export interface AudioRenderer {
  /**
   * Renders (or returns the cached rendering of) a request. Identical requests
   * (same input, voice (case-insensitive), speed, seed and format) return the
   * same object.
   *
   * @throws RangeError if `speed` is not a finite number in [0.25, 4].
   * @throws TypeError if `format` is not `pcm` or `mp3`.
   */
  render(req: AudioRequest): RenderedAudio;
  /** Empties the cache (counters are kept). */
  clear(): void;
  /** Current counters; a fresh object each call. */
  stats(): AudioRendererStats;
}

/**
 * Creates a speech renderer with its own LRU cache.
 *
 * Costs on a miss (2-core CI box, Node 20): synthesis ≈ 1 ms per 10 s of
 * audio; PCM encoding is free (a view); MP3 encoding with lamejs ≈ 100 ms per
 * 10 s once the JIT is warm (3–5× that for the first requests of a process).
 *
 * @param options - cache limits; see {@link AudioRendererOptions}.
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

  return {
    render(req: AudioRequest): RenderedAudio {
      const { format } = req;
      if (format !== 'pcm' && format !== 'mp3') {
        throw new TypeError(`unsupported audio format ${JSON.stringify(format)}; expected "pcm" or "mp3"`);
      }
      const key = JSON.stringify([format, normalizeVoice(req.voice), req.speed, req.seed, req.input]);
      const cached = cache.get(key);
      if (cached) {
        hits++;
        return cached;
      }
      misses++;
      const started = performance.now();
      const samples = synthesizeSamples(req);
      const rendered: RenderedAudio = Object.freeze({
        bytes: format === 'mp3' ? encodeMp3(samples) : encodePcm(samples),
        durationMs: samplesToMs(samples.length),
        sampleCount: samples.length,
        sampleRate: SAMPLE_RATE,
        contentType: CONTENT_TYPES[format],
      });
      renderMs += performance.now() - started;
      cache.set(key, rendered);
      return rendered;
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
      };
    },
  };
}
