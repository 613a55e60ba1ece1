/**
 * Loading scenario files: the built-ins of the package's `scenarios/` folder and user folders or files.
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ConfigFileError, readConfigFile, validateConfig } from '../config-file.js';
import { BUILTIN_SCENARIOS_DIR } from '../package-files.js';
import { ScenarioSchema, type Scenario } from './schema.js';

/** A scenario file or definition is invalid: the message names the file, the path inside it and what was expected. */
export class ScenarioError extends ConfigFileError {
  override name = 'ScenarioError';
}


const SCENARIO_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** A loaded scenario and where it came from. */
export interface LoadedScenario {
  scenario: Scenario;
  /** The file it was read from. */
  source: string;
}

/**
 * Reads one scenario file (JSON or YAML).
 *
 * @throws {ScenarioError} when the file is missing, has a syntax error or does not match the schema.
 */
export function loadScenarioFile(file: string): LoadedScenario {
  return { scenario: readConfigFile(file, ScenarioSchema, ScenarioError), source: file };
}

/**
 * Validates a scenario given as an object (in code, or the body of `PUT /__mock/scenario`).
 *
 * @param where names the origin in error messages, e.g. `useScenario()`.
 * @throws {ScenarioError} naming the path inside the definition and what was expected.
 */
export function parseScenario(definition: unknown, where = 'scenario'): Scenario {
  return validateConfig(where, definition, ScenarioSchema, ScenarioError);
}

/**
 * Reads every `*.json`, `*.yaml` and `*.yml` file of `dir` (not recursive; `schema.json` is skipped).
 *
 * @throws {ScenarioError} for a missing folder or any invalid file.
 */
function loadScenarioDir(dir: string): LoadedScenario[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioError(dir, '', code === 'ENOENT' ? 'folder not found' : `cannot read folder (${code ?? String(err)})`);
  }
  return names
    .filter((name) => SCENARIO_EXTENSIONS.has(extname(name).toLowerCase()) && name !== 'schema.json')
    .map((name) => loadScenarioFile(join(dir, name)));
}

let builtins: LoadedScenario[] | undefined;

/** The built-in scenarios, read once per process. */
export function loadBuiltinScenarios(): LoadedScenario[] {
  builtins ??= loadScenarioDir(BUILTIN_SCENARIOS_DIR);
  return builtins;
}

/**
 * Builds the registry of available scenarios: the built-ins, then each user folder in order.
 *
 * @throws {ScenarioError} when two scenarios share a name (naming both files), or a file is invalid.
 */
export function loadScenarioRegistry(dirs: readonly string[] = []): Map<string, LoadedScenario> {
  const registry = new Map<string, LoadedScenario>();
  for (const loaded of [...loadBuiltinScenarios(), ...dirs.flatMap(loadScenarioDir)]) {
    const existing = registry.get(loaded.scenario.name);
    if (existing) {
      throw new ScenarioError(loaded.source, 'name', `scenario "${loaded.scenario.name}" is already defined in ${existing.source}`);
    }
    registry.set(loaded.scenario.name, loaded);
  }
  return registry;
}
