/**
 * The glue between this package and LAME 3.100 compiled to WebAssembly: the `mp3.wasm` file that the npm package
 * `wasm-media-encoders` exports as `wasm-media-encoders/wasm/mp3` (MIT; https://github.com/arseneyr/wasm-media-encoders,
 * C side in `src/wasm/lame/lame_enc.c` and `src/wasm/common_params.h` of its repository). The package's own
 * JavaScript is not used: this module compiles the file, gives it the two imports it asks for, initializes it and
 * checks it is the build the calls of `src/core/audio/lame-instance.ts` were written for.
 *
 * What the file needs, from its import section and the package's JavaScript glue (`dist/es/index.mjs`, function
 * `createEncoder`), which does the same:
 * - `env.emscripten_notify_memory_growth(index)`: called after `malloc` grew the memory. Nothing to do here: every
 *   view of the memory is made after the call that may have grown it.
 * - `wasi_snapshot_preview1.proc_exit(code)`: LAME's fatal exit (`abort()`); thrown as an Error.
 * - `_initialize()` once before any other call (the C runtime's constructors, as for any WASI reactor module).
 *
 * @module
 */

/**
 * Where the bytes of `wasm-media-encoders/wasm/mp3` come from: read from the installed package (Node.js,
 * `src/node-platform/platform.ts`) or the copy bundled with this package ({@link bundledMp3Wasm}).
 *
 * @returns the file's bytes (about 130 KiB).
 */
export type Mp3WasmSource = () => Promise<Uint8Array<ArrayBuffer>>;

/**
 * The C exports of `mp3.wasm` used by this package (pointers and sizes are byte addresses and counts in
 * {@link LameExports.memory}).
 */
export interface LameExports {
  readonly memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(pointer: number): void;
  /**
   * `PCFG enc_init(PPARAMS)`: a new encoder state from a packed, 20-byte parameter block (`in_channel_count`,
   * `in_sample_rate`, `bitrate` in kbps, `vbr_quality` as a float, negative for CBR, `out_sample_rate`); 0 on failure.
   */
  enc_init(params: number): number;
  /** `float **enc_get_pcm(PCFG, unsigned samples)`: the channel buffers, grown to hold `samples`; 0 on failure. */
  enc_get_pcm(cfg: number, samples: number): number;
  /** `int enc_encode(PCFG, unsigned samples)`: bytes written to the output buffer, negative on error. */
  enc_encode(cfg: number, samples: number): number;
  /** `int enc_flush(PCFG)`: bytes written to the output buffer, negative on error. */
  enc_flush(cfg: number): number;
  /** `unsigned char *enc_get_out_buf(PCFG)`. */
  enc_get_out_buf(cfg: number): number;
  /** Frees an encoder state of `enc_init`. */
  enc_free(cfg: number): void;
}

/** What `version()` of the file these calls were written for returns (the `wasm-media-encoders` version pinned in package.json). */
export const LAME_WASM_VERSION = 'wasm-media-encoders-0.7.0';

const REQUIRED_FUNCTIONS = ['_initialize', 'version', 'mime_type', 'malloc', 'free', 'enc_init', 'enc_get_pcm', 'enc_encode', 'enc_flush', 'enc_get_out_buf', 'enc_free'] as const;

/**
 * The copy of `wasm-media-encoders/wasm/mp3` bundled with this package (`src/core/audio/lame-base64.ts`,
 * written by `scripts/generate-mp3-wasm.ts` and checked against the installed file by a test), loaded on first
 * call so that programs that never ask for MP3 do not parse it. The source of browsers, which have no files.
 */
export const bundledMp3Wasm: Mp3WasmSource = async () => {
  const { MP3_WASM_BASE64 } = await import('./lame-base64.js');
  const text = atob(MP3_WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};

/** The NUL-terminated ASCII string at `pointer` of `memory`. */
function cString(memory: WebAssembly.Memory, pointer: number): string {
  const bytes = new Uint8Array(memory.buffer, pointer);
  const end = bytes.indexOf(0);
  return String.fromCharCode(...bytes.subarray(0, end < 0 ? 0 : end));
}

/**
 * A fresh instance of the compiled `mp3.wasm`, initialized, with its own memory (16 MiB at first).
 *
 * @param module `WebAssembly.compile` of the bytes of a {@link Mp3WasmSource}.
 * @returns its exports.
 * @throws (rejects with) the engine's error when instantiating is refused (for example a page whose
 *   Content-Security-Policy forbids WebAssembly); Error when the file lacks an export used here, is not the MP3
 *   encoder, or is another version than {@link LAME_WASM_VERSION}, naming what was found.
 */
export async function instantiateLame(module: WebAssembly.Module): Promise<LameExports> {
  const imports = {
    env: { emscripten_notify_memory_growth: () => undefined },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`MP3 encoder: LAME exited with code ${String(code)}`);
      },
    },
  };
  const exports = (await WebAssembly.instantiate(module, imports)).exports as Record<string, unknown>;
  const missing = REQUIRED_FUNCTIONS.filter((name) => typeof exports[name] !== 'function');
  const memory = exports['memory'];
  if (missing.length > 0 || !(memory instanceof WebAssembly.Memory)) {
    throw new Error(`wasm-media-encoders/wasm/mp3: missing exports ${[...missing, ...(memory instanceof WebAssembly.Memory ? [] : ['memory'])].join(', ')}; mockrouter needs ${LAME_WASM_VERSION}`);
  }
  const call = (name: string): number => (exports[name] as () => number)();
  call('_initialize');
  const version = cString(memory, call('version'));
  const mimeType = cString(memory, call('mime_type'));
  if (version !== LAME_WASM_VERSION || mimeType !== 'audio/mpeg') {
    throw new Error(`wasm-media-encoders/wasm/mp3 is ${version} for ${mimeType}; mockrouter's MP3 encoder needs ${LAME_WASM_VERSION} for audio/mpeg`);
  }
  return exports as unknown as LameExports;
}
