/**
 * Reading scenario files and folders (JSON or YAML), and the package's built-in scenarios
 * (`scenarios/builtins.json`), Node.js only; validation is `src/core/scenarios/parse.ts`.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ScenarioError } from '../core/base/errors.js';
import { parseBuiltinScenarios, type BuiltinScenarioData, type LoadedScenario } from '../core/scenarios/parse.js';
import { ScenarioSchema } from '../core/scenarios/schema.js';
import { readConfigFile } from './read-config-file.js';
import { checkUserFolder } from './read-user-file.js';
import { BUILTIN_SCENARIOS_DIR } from './package-files.js';

const SCENARIO_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);
/** Generated files of the package's `scenarios/` folder, which are not scenarios. */
const GENERATED = new Set(['schema.json', 'builtins.json']);

/**
 * Reads one scenario file (JSON or YAML), inside the folder `within` (links resolved) when given.
 *
 * @throws {ScenarioError} when the file is missing or unreadable, is not a regular file, leads out of `within`
 *   through a link or is larger than 10 MiB (`src/node-platform/read-user-file.ts`), has a syntax error, nests deeper than
 *   64 levels (`src/node-platform/read-config-file.ts`) or does not match the schema.
 */
export function loadScenarioFile(file: string, within?: string): LoadedScenario {
  return { scenario: readConfigFile(file, ScenarioSchema, ScenarioError, within === undefined ? {} : { within }), source: file };
}

/**
 * Reads every `*.json`, `*.yaml` and `*.yml` file of `dir`, in name order (not recursive; `schema.json` and
 * `builtins.json` are skipped). The folder is a boundary: an entry that leads out of it through a link is refused.
 *
 * @throws {ScenarioError} for a missing folder, a path that is not a folder, or any invalid file (a `.yaml` entry
 *   that is a FIFO or a folder, or a link out of `dir`, included).
 */
export function loadScenarioDir(dir: string): LoadedScenario[] {
  checkUserFolder(dir, ScenarioError, 'a folder of JSON or YAML scenario files');
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioError(dir, '', code === 'ENOENT' ? 'folder not found' : `cannot read folder (${code ?? String(err)})`);
  }
  return names
    .filter((name) => SCENARIO_EXTENSIONS.has(extname(name).toLowerCase()) && !GENERATED.has(name))
    .map((name) => loadScenarioFile(join(dir, name), dir));
}

let builtins: LoadedScenario[] | undefined;

/**
 * The built-in scenarios, read once per process from `scenarios/builtins.json` (no YAML parsing); each `source`
 * is its YAML file relative to the package (`scenarios/rate-limited.yaml`), as in the browser bundle, so no
 * output shows the machine's absolute path.
 */
export function loadBuiltinScenarios(): LoadedScenario[] {
  if (!builtins) {
    const data = JSON.parse(readFileSync(join(BUILTIN_SCENARIOS_DIR, 'builtins.json'), 'utf8')) as { scenarios: BuiltinScenarioData[] };
    builtins = parseBuiltinScenarios(data.scenarios);
  }
  return builtins;
}
