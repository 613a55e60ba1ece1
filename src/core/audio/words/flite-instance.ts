/**
 * Running CMU Flite (`flite.wasm`, see `flite-wasi.ts` for the WASI calls it is given) once per piece of speech, each
 * run from the state of a fresh instance: one instance per module and thread, put back to that state before each
 * run when the module was made resettable (`resettable-module.ts`), else a new instance per run.
 *
 * Making an instance copies the engine's data into a new memory of about 16 MiB; putting a kept one back copies only
 * what a run may have written (all but the read-only data), into memory that is already there, which spares the
 * allocation, the copy of the voices and the first touch of every page.
 *
 * @module
 */
import { GLOBAL_EXPORT_PREFIX, READ_ONLY_SECTION, readOnlyRanges } from './resettable-module.js';
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

/** Bytes of memory as an instance was made, from `at` on (trailing zeros left out: `end` says how far it reached). */
interface Span {
  readonly at: number;
  readonly bytes: Uint8Array;
  readonly end: number;
}

/**
 * The memory as it was made, outside `readOnly` (`readOnlyRanges`: what no run writes), as spans.
 *
 * @param readOnly `[start, end)` ranges, ascending.
 */
function writableSpans(memory: Uint8Array, readOnly: readonly (readonly [number, number])[]): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const [start, end] of [...readOnly, [memory.byteLength, memory.byteLength] as const]) {
    const to = Math.min(Math.max(start, from), memory.byteLength);
    let last = to;
    while (last > from && memory[last - 1] === 0) last--;
    if (to > from) spans.push({ at: from, bytes: memory.slice(from, last), end: to });
    from = Math.max(from, Math.min(end, memory.byteLength));
  }
  return spans;
}

/**
 * One instance of the engine, run once or, when its module is resettable (`makeResettable` of
 * `resettable-module.ts`), again and again: before each run after the first, its memory and globals are put back as
 * they were when it was made (the memory's bytes outside its read-only ranges, and zeros where it grew since), so
 * every run starts from the state a fresh instance starts from. Only the memory's size differs: it keeps what it grew
 * to, and the C library's heap starts with all of it. A run that traps, or leaves the memory over
 * {@link MAX_KEPT_MEMORY_BYTES}, ends the instance's reuse.
 */
class FliteInstance {
  /** Whether a next run may use this instance. */
  reusable: boolean;
  readonly #start: () => void;
  readonly #memory: WebAssembly.Memory;
  /** The memory as it was made, outside its read-only ranges. */
  readonly #initial: readonly Span[];
  /** Bytes of memory as it was made. */
  readonly #initialBytes: number;
  /** The mutable globals and their values as made. */
  readonly #globals: readonly (readonly [WebAssembly.Global, unknown])[];
  #state: RunState | undefined;
  #runs = 0;

  private constructor(instance: WebAssembly.Instance, resettable: boolean, readOnly: readonly (readonly [number, number])[]) {
    this.#memory = instance.exports.memory as WebAssembly.Memory;
    this.#start = instance.exports._start as () => void;
    this.#initialBytes = this.#memory.buffer.byteLength;
    const globals: (readonly [WebAssembly.Global, unknown])[] = [];
    let initial: Span[] = [];
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
      initial = writableSpans(new Uint8Array(this.#memory.buffer), readOnly);
    }
    this.#globals = globals;
    this.#initial = initial;
    this.reusable = resettable;
  }

  /** A new instance of `module`; `resettable` when it was made so (see the class's comment). */
  static async create(module: WebAssembly.Module, resettable: boolean): Promise<FliteInstance> {
    const made: { instance?: FliteInstance } = {};
    const wasi = wasiImports(
      () => made.instance!.#memory,
      () => made.instance!.#state!,
    );
    const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi });
    made.instance = new FliteInstance(instance, resettable, resettable ? readOnlyRanges(module) : []);
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
      for (const span of this.#initial) {
        memory.set(span.bytes, span.at);
        memory.fill(0, span.at + span.bytes.byteLength, span.end);
      }
      memory.fill(0, this.#initialBytes);
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

/** Whether `module` was made resettable (`makeResettable` of `resettable-module.ts`, which adds its custom section). */
function isResettable(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.customSections(module, READ_ONLY_SECTION).length > 0;
}

/**
 * Runs Flite once with `args` (what follows `flite` on a command line), from the state of a fresh instance of
 * `module`: the instance this thread keeps for `module`, reset, when the module was made resettable
 * (`makeResettable` of `resettable-module.ts`, as `loadFlite` of `flite-engine.ts` compiles it); else a new instance.
 * Either way the same arguments give the same bytes.
 *
 * @param module the compiled `flite.wasm`.
 * @param args the arguments; strings are passed as UTF-8 (`-t` text is best plain ASCII: Flite reads bytes).
 * @returns the run's exit code, the WAV bytes it wrote to any path, and what it printed.
 * @throws the engine's error if the module traps or cannot be instantiated (a `WebAssembly.RuntimeError`, ...); the
 *   kept instance is then dropped, and the next run starts a new one.
 */
export async function runFlite(module: WebAssembly.Module, args: readonly string[]): Promise<FliteRun> {
  for (;;) {
    let making = kept.get(module);
    if (!making) {
      if (!isResettable(module)) return (await FliteInstance.create(module, false)).run(args);
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

