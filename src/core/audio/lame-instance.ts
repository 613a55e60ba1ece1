/**
 * The process's WebAssembly LAME encoder behind `src/core/audio/mp3.ts`: LAME 3.100 of `wasm-media-encoders`
 * (`wasm-media-encoders/wasm/mp3`, instantiated by the glue of `src/core/audio/lame-glue.ts`), loaded once per
 * process and shared by every gateway in it.
 *
 * Loading: the bytes come from a {@link Mp3WasmSource} (Node.js gateways read the installed package's file through
 * their platform; browsers and callers that name none use the copy bundled with this package), compiled once; no
 * `fetch`, so in-process request mocks never see it. Nothing is loaded before the first MP3 (or `warmUp`).
 *
 * One instance, many encoders in it: the C side keeps every encoder's state (a `lame_global_flags`, a PCM buffer,
 * an output buffer) in its own `malloc`ed block addressed by a pointer, so one WebAssembly instance serves any
 * number of concurrent streams.
 *
 * Memory: each open encoder holds LAME's state plus the C side's fixed 1.8 MB output buffer (of which only the
 * first few kB are ever written), returned on {@link LameEncoder.free}. WebAssembly memory grows and never shrinks,
 * so an idle instance past {@link RECYCLE_BYTES} is replaced by a fresh one of the same compiled module.
 *
 * @module
 */
import { concat } from '../base/bytes.js';
import { bundledMp3Wasm, instantiateLame, type LameExports, type Mp3WasmSource } from './lame-glue.js';

export type { Mp3WasmSource } from './lame-glue.js';

/** Samples handed to `enc_encode` per call: bounds the encoder's PCM buffer at 2 × 16,384 floats (128 kB). */
const ENCODE_BLOCK_SAMPLES = 16_384;

let loading: Promise<void> | undefined;
let lame: LameExports | undefined;
/** The compiled `mp3.wasm`, kept for the instances that replace a recycled one; dropped if compiling failed. */
let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * Loads and instantiates the WebAssembly encoder once per process; later calls return the same promise (whatever
 * their `source`: every source gives the same file).
 *
 * @param source where the bytes of `wasm-media-encoders/wasm/mp3` come from on the first load (later instances
 *   reuse the compiled module); default: the copy bundled with this package ({@link bundledMp3Wasm}).
 * @returns a promise that resolves once {@link mp3EncoderReady} is true.
 * @throws (rejects with) the source's error, the engine's (compiling or instantiating refused), or
 *   `instantiateLame`'s (an unexpected file); a rejected load is not cached, so a later call tries again.
 */
export function loadMp3Encoder(source: Mp3WasmSource = bundledMp3Wasm): Promise<void> {
  loading ??= instantiate(source).then(
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
 * Least time between two loads {@link retryMp3EncoderLoad} starts after failures, ms. Each attempt may read and
 * compile the 130 KiB module again (and, in a page whose Content-Security-Policy forbids WebAssembly, logs a
 * violation), so a client retrying its MP3 requests does not make one attempt per request.
 */
export const MP3_RETRY_INTERVAL_MS = 1000;

/**
 * After a failed load, starts a new one in the background if none is under way and the last failed at least
 * {@link MP3_RETRY_INTERVAL_MS} ago; otherwise does nothing. Never throws (the outcome shows in
 * {@link mp3EncoderFailure} and {@link mp3EncoderReady}).
 *
 * @param source as for {@link loadMp3Encoder}.
 */
export function retryMp3EncoderLoad(source: Mp3WasmSource = bundledMp3Wasm): void {
  if (lastFailure === undefined || loading !== undefined) return;
  if (performance.now() - lastFailureAt < MP3_RETRY_INTERVAL_MS) return;
  loadMp3Encoder(source).catch(() => undefined);
}

/**
 * The error of the last failed {@link loadMp3Encoder} (for example a page whose Content-Security-Policy forbids
 * compiling WebAssembly), or `undefined` if the last load succeeded or none has finished yet.
 */
export function mp3EncoderFailure(): Error | undefined {
  return lastFailure;
}

async function instantiate(source: Mp3WasmSource): Promise<void> {
  compiled ??= source()
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  lame = await instantiateLame(await compiled);
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
 * encoder opened and freed leaves some of the instance's memory behind (LAME's allocations fragment the heap;
 * `bench/README.md`, "MP3 encoder memory"), and WebAssembly memory never shrinks; a fresh instance of the same
 * compiled module (asynchronous, on the next {@link loadMp3Encoder}) returns it all.
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
 * The first few cost more than later ones (`lame_init_params` builds its tables).
 *
 * @param sampleRate input and output rate in Hz (24,000 here).
 * @param kbps constant bitrate in kbps, a Layer III rate valid at that sample rate.
 * @throws Error if {@link loadMp3Encoder} has not resolved, or LAME rejects the parameters.
 */
export function openLameEncoder(sampleRate: number, kbps: number): LameEncoder {
  const m = lame;
  if (!m) throw new Error('the MP3 encoder is not loaded: await loadMp3Encoder() first');
  // `PARAMS` (packed, 20 bytes; `LameExports.enc_init`): in_channel_count, in_sample_rate, bitrate,
  // vbr_quality (float; < 0 = CBR), out_sample_rate.
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
