/**
 * Validating scenarios (a file's contents, a definition given in code or to `PUT /__mock/scenario`) and building
 * the registry of loaded scenarios. Pure: reading scenario files is Node.js-only (`src/node-platform/scenarios.ts`); the
 * built-in scenarios come as data (`scenarios/builtins.json`, generated from `scenarios/*.yaml`).
 *
 * @module
 */
import { ScenarioError } from '../base/errors.js';
import { validateConfig } from '../base/validate-config.js';
import { ScenarioSchema, type Scenario } from './schema.js';

/** A loaded scenario and where it came from. */
export interface LoadedScenario {
  scenario: Scenario;
  /** The file it was read from (`scenarios/<name>.yaml` for a built-in), or the option that defined it. */
  source: string;
}

/** One built-in scenario as `scenarios/builtins.json` holds it: the definition as written, and its file. */
export interface BuiltinScenarioData {
  source: string;
  scenario: unknown;
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
 * Validates the built-in scenarios' data (the `scenarios` list of `scenarios/builtins.json`).
 *
 * @throws {ScenarioError} naming the built-in's file and the path inside it (a broken package).
 */
export function parseBuiltinScenarios(data: readonly BuiltinScenarioData[]): LoadedScenario[] {
  return data.map(({ source, scenario }) => ({ scenario: parseScenario(scenario, source), source }));
}

/**
 * Builds the registry of available scenarios from lists loaded in order (the built-ins first).
 *
 * @throws {ScenarioError} when two scenarios share a name, naming both sources.
 */
export function scenarioRegistry(loaded: readonly LoadedScenario[]): Map<string, LoadedScenario> {
  const registry = new Map<string, LoadedScenario>();
  for (const entry of loaded) {
    const existing = registry.get(entry.scenario.name);
    if (existing) {
      throw new ScenarioError(entry.source, 'name', `scenario "${entry.scenario.name}" is already defined in ${existing.source}`);
    }
    registry.set(entry.scenario.name, entry);
  }
  return registry;
}
