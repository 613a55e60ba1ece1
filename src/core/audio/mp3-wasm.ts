/**
 * The WebAssembly LAME encoder behind `src/core/audio/mp3.ts`: LAME 3.100 compiled to WebAssembly by the npm package
 * `wasm-media-encoders` (MIT; https://github.com/arseneyr/wasm-media-encoders, `src/wasm/lame/lame_enc.c`).
 *
 * Loading: the package inlines its 130 KiB `mp3.wasm` in its JavaScript as a base64 `data:application/wasm` URL
 * (no `fs`, no network, no bundler plugin; the same in Node.js and browsers). Its `createMp3Encoder()` would
 * `fetch()` that URL, which in-process request mocks intercept; this module decodes the literal itself and hands
 * the bytes to the package's `createEncoder` (`WebAssembly.instantiate`), falling back to `createMp3Encoder()` only
 * if the literal cannot be found. The package is imported lazily (dynamic `import()`), so programs that never ask
 * for MP3 do not parse its 780 kB module (which also carries an Ogg Vorbis encoder; bundlers drop that part).
 *
 * One instance per process, many encoders in it: the package's C glue keeps every encoder's state (a
 * `lame_global_flags`, a PCM buffer, an output buffer) in its own `malloc`ed block addressed by a pointer, so one
 * WebAssembly instance serves any number of concurrent streams. The package's JavaScript class drives one such
 * pointer per instance; this module calls the same C exports (`enc_init`, `enc_get_pcm`, `enc_encode`,
 * `enc_flush`, `enc_get_out_buf`, `enc_free`, `malloc`, `free`) directly on the instance it loaded, which is why
 * package.json pins the package's exact version; {@link loadMp3Encoder} checks those exports exist.
 *
 * Memory: each open encoder holds about 1.9 MB of WebAssembly memory (LAME's state plus the package's fixed
 * 1.8 MB output buffer, of which only the first few kB are ever written), returned on {@link LameEncoder.free}.
 * WebAssembly memory grows and never shrinks, so the instance keeps its peak (16 MiB initially).
 *
 * @module
 */
import { concat } from '../bytes.js';

/** The C exports of the package's `mp3.wasm` used here (pointers and sizes are byte addresses and counts). */
interface LameExports {
  readonly memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(pointer: number): void;
  /** `PCFG enc_init(PPARAMS)`: 0 on failure. */
  enc_init(params: number): number;
  /** `float **enc_get_pcm(PCFG, unsigned samples)`: the channel buffers, grown to hold `samples`; 0 on failure. */
  enc_get_pcm(cfg: number, samples: number): number;
  /** `int enc_encode(PCFG, unsigned samples)`: bytes written to the output buffer, negative on error. */
  enc_encode(cfg: number, samples: number): number;
  /** `int enc_flush(PCFG)`: bytes written to the output buffer, negative on error. */
  enc_flush(cfg: number): number;
  /** `unsigned char *enc_get_out_buf(PCFG)`. */
  enc_get_out_buf(cfg: number): number;
  enc_free(cfg: number): void;
}

const REQUIRED_FUNCTIONS = [
  'malloc',
  'free',
  'enc_init',
  'enc_get_pcm',
  'enc_encode',
  'enc_flush',
  'enc_get_out_buf',
  'enc_free',
] as const;

/** Samples handed to `enc_encode` per call: bounds the encoder's PCM buffer at 2 × 16,384 floats (128 kB). */
const ENCODE_BLOCK_SAMPLES = 16_384;

let loading: Promise<void> | undefined;
let lame: LameExports | undefined;

/**
 * Loads and instantiates the WebAssembly encoder once per process; later calls return the same promise. No network:
 * the wasm bytes come inlined in the package (see the module header). Takes about 25–40 ms in Node.js (import, base64
 * decode, compile, instantiate; `bench/encoders.ts` on a 2-core machine).
 *
 * @returns a promise that resolves once {@link mp3EncoderReady} is true.
 * @throws (rejects with) Error when the package cannot be loaded or its wasm lacks the expected exports; a rejected
 *   load is not cached, so a later call tries again.
 */
export function loadMp3Encoder(): Promise<void> {
  loading ??= instantiate().then(
    () => {
      lastFailure = undefined;
    },
    (error: unknown) => {
      loading = undefined;
      lastFailure = error instanceof Error ? error : new Error(String(error));
      lastFailureAt = performance.now();
      throw error;
    },
  );
  return loading;
}

/** Why the last {@link loadMp3Encoder} failed; cleared when a load succeeds. */
let lastFailure: Error | undefined;
/** When it failed, `performance.now()` ms. */
let lastFailureAt = 0;

/**
 * Least time between two loads {@link retryMp3EncoderLoad} starts after failures, ms. Each attempt decodes and
 * compiles the 130 KiB module again (and, in a page whose Content-Security-Policy forbids WebAssembly, logs a
 * violation), so a client retrying its MP3 requests does not make one attempt per request.
 */
export const MP3_RETRY_INTERVAL_MS = 1000;

/**
 * After a failed load, starts a new one in the background if none is under way and the last failed at least
 * {@link MP3_RETRY_INTERVAL_MS} ago; otherwise does nothing. Never throws (the outcome shows in
 * {@link mp3EncoderFailure} and {@link mp3EncoderReady}).
 */
export function retryMp3EncoderLoad(): void {
  if (lastFailure === undefined || loading !== undefined) return;
  if (performance.now() - lastFailureAt < MP3_RETRY_INTERVAL_MS) return;
  loadMp3Encoder().catch(() => undefined);
}

/**
 * The error of the last failed {@link loadMp3Encoder} (for example a page whose Content-Security-Policy forbids
 * compiling WebAssembly), or `undefined` if the last load succeeded or none has finished yet.
 */
export function mp3EncoderFailure(): Error | undefined {
  return lastFailure;
}

async function instantiate(): Promise<void> {
  const { createEncoder, createMp3Encoder } = await import('./mp3-package.js');
  const bytes = inlinedWasm(createMp3Encoder);
  const encoder = bytes ? await createEncoder('audio/mpeg', bytes) : await createMp3Encoder();
  // The package's encoder object keeps the instance's exports in its (TypeScript-private) `module` field.
  const exports = (encoder as unknown as { module?: Record<string, unknown> }).module;
  const missing = REQUIRED_FUNCTIONS.filter((name) => typeof exports?.[name] !== 'function');
  if (!exports || missing.length > 0 || !(exports['memory'] instanceof WebAssembly.Memory)) {
    throw new Error(
      `wasm-media-encoders: unexpected mp3.wasm exports (missing ${missing.join(', ') || 'memory'}); ` +
        'mockrouter needs the exact version in its package.json',
    );
  }
  lame = exports as unknown as LameExports;
}

/**
 * The wasm bytes inlined in `createMp3Encoder`, read from its source text (`Function.prototype.toString` keeps the
 * `data:application/wasm;base64,…` literal it passes to `createEncoder`), decoded with `atob`.
 *
 * Why: `createMp3Encoder()` itself loads that URL with `fetch()`, and an in-process mock (msw's `setupServer`,
 * which this package's handlers run under) intercepts that `fetch` and, with `onUnhandledRequest: 'error'`, fails
 * it. Handing the bytes to `createEncoder` instantiates them with `WebAssembly.instantiate`, no `fetch`.
 *
 * @returns the bytes, or undefined if the literal is not there (a bundler moved it): the caller then falls back to
 *   `createMp3Encoder()`.
 */
function inlinedWasm(createMp3Encoder: () => unknown): Uint8Array | undefined {
  const match = /data:application\/(?:wasm|octet-stream);base64,([A-Za-z0-9+/]+=*)/.exec(String(createMp3Encoder));
  if (!match?.[1]) return undefined;
  const text = atob(match[1]);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** True once {@link loadMp3Encoder} has resolved. */
export function mp3EncoderReady(): boolean {
  return lame !== undefined;
}

/**
 * The current instance's WebAssembly memory, bytes (16 MiB when fresh; it grows with the encoders open at once and
 * never shrinks, see {@link RECYCLE_BYTES}); 0 when no instance is loaded. For tests and diagnostics.
 */
export function mp3EncoderMemoryBytes(): number {
  return lame?.memory.buffer.byteLength ?? 0;
}

/**
 * One LAME encoder state in the shared instance: mono input, constant bitrate, no Xing/LAME tag and no ID3 tag
 * (the package's glue turns both off; `src/core/audio/mp3-tag.ts` writes the tag).
 */
export interface LameEncoder {
  /**
   * Encodes `samples` (16-bit, converted to LAME's float input exactly: `s / 32768`).
   *
   * @returns the bytes LAME completed, copied out of WebAssembly memory (may be empty, may end mid-frame).
   * @throws Error if LAME reports an error or the encoder was freed.
   */
  encode(samples: Int16Array): Uint8Array;
  /**
   * Flushes LAME (`lame_encode_flush`: pads the last frame and the 1,152-sample post-delay with silence).
   *
   * @returns the last frames' bytes (a copy).
   * @throws Error if LAME reports an error or the encoder was freed.
   */
  flush(): Uint8Array;
  /** Releases the encoder's WebAssembly memory. Idempotent. */
  free(): void;
}

/**
 * WebAssembly memory past which the instance is replaced by a fresh one when no encoder is open, bytes. Each
 * encoder opened and freed leaves about 17 kB of the instance's memory behind (measured: 1,500 streams grew it
 * from 16 to 42 MiB), and WebAssembly memory never shrinks; a fresh instance (about 5–10 ms, asynchronous, on the
 * next {@link loadMp3Encoder}) returns it all.
 */
const RECYCLE_BYTES = 32 * 1024 * 1024;

/** Encoders open on the current instance. */
let openEncoders = 0;

/** Drops the current instance once it is idle and past {@link RECYCLE_BYTES}; the next load makes a new one. */
function recycleIfBloated(m: LameExports): void {
  if (openEncoders === 0 && m === lame && m.memory.buffer.byteLength > RECYCLE_BYTES) {
    lame = undefined;
    loading = undefined;
  }
}

/** A LAME state and the instance it lives in. */
interface Held {
  cfg: number;
  readonly m: LameExports;
}

/** Releases `held`'s state in its own instance, once. */
function release(held: Held): void {
  if (held.cfg === 0) return;
  held.m.enc_free(held.cfg);
  held.cfg = 0;
  if (held.m === lame) openEncoders--;
  recycleIfBloated(held.m);
}

/** Releases encoders dropped without {@link LameEncoder.free} once they are garbage-collected (a safety net). */
const abandoned = new FinalizationRegistry<Held>(release);

/**
 * Opens a LAME encoder: `in_channel_count` 1, `in_sample_rate` = `out_sample_rate` = `sampleRate`, CBR `kbps`.
 * Costs about 1.3 ms once warm, up to about 8 ms for the first few (`lame_init_params` builds its tables).
 *
 * @param sampleRate - input and output rate in Hz (24,000 here).
 * @param kbps - constant bitrate in kbps, a Layer III rate valid at that sample rate.
 * @throws Error if {@link loadMp3Encoder} has not resolved, or LAME rejects the parameters.
 */
export function openLameEncoder(sampleRate: number, kbps: number): LameEncoder {
  const m = lame;
  if (!m) throw new Error('the MP3 encoder is not loaded: await loadMp3Encoder() first');
  // `PARAMS` (packed, 20 bytes): in_channel_count, in_sample_rate, bitrate, vbr_quality (float; < 0 = CBR),
  // out_sample_rate. Source: src/wasm/lame/lame_enc.c and src/wasm/common_params.h in the package's repository.
  const params = m.malloc(20);
  if (!params) throw new Error('MP3 encoder: out of WebAssembly memory');
  const view = new DataView(m.memory.buffer, params, 20);
  view.setUint32(0, 1, true);
  view.setUint32(4, sampleRate, true);
  view.setUint32(8, kbps, true);
  view.setFloat32(12, -1, true);
  view.setUint32(16, sampleRate, true);
  const cfg = m.enc_init(params);
  m.free(params);
  if (!cfg) throw new Error(`MP3 encoder: LAME rejected ${String(sampleRate)} Hz mono at ${String(kbps)} kbps`);

  const held: Held = { cfg, m };
  openEncoders++;
  const token = {};
  abandoned.register(token, held, token);
  const live = (): number => {
    if (held.cfg === 0) throw new Error('MP3 encoder: used after free()');
    return held.cfg;
  };
  const output = (written: number, what: string): Uint8Array => {
    if (written < 0) throw new Error(`MP3 encoder: ${what} failed with LAME error ${String(written)}`);
    return new Uint8Array(m.memory.buffer, m.enc_get_out_buf(held.cfg), written).slice();
  };

  return {
    encode(samples: Int16Array): Uint8Array {
      const c = live();
      const pieces: Uint8Array[] = [];
      for (let offset = 0; offset < samples.length; offset += ENCODE_BLOCK_SAMPLES) {
        const count = Math.min(ENCODE_BLOCK_SAMPLES, samples.length - offset);
        const channels = m.enc_get_pcm(c, count);
        if (!channels) throw new Error('MP3 encoder: out of WebAssembly memory');
        // Views are made after the call: a realloc may have grown (and detached) memory.buffer.
        const left = new Uint32Array(m.memory.buffer, channels, 1)[0] as number;
        const pcm = new Float32Array(m.memory.buffer, left, count);
        for (let i = 0; i < count; i++) pcm[i] = (samples[offset + i] as number) / 32768;
        const bytes = output(m.enc_encode(c, count), 'encode');
        if (bytes.length > 0) pieces.push(bytes);
      }
      return concat(pieces);
    },
    flush(): Uint8Array {
      return output(m.enc_flush(live()), 'flush');
    },
    free(): void {
      if (held.cfg === 0) return;
      abandoned.unregister(token);
      release(held);
    },
  };
}
