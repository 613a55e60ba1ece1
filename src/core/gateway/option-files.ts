/**
 * What the options that may name files and folders load (`fixtures`, `keys`, `scenarios`, `scenario`), read
 * through the platform (Node.js only: browsers read no files) when the gateway is made (`gateway.ts`).
 *
 * @module
 */
import type { GatewayOptions } from './options.js';
import { OptionsError } from '../base/errors.js';
import { looksLikePath } from './options.js';
import type { Platform, PlatformFiles } from './platform.js';
import type { ScenarioEngine } from '../scenarios/engine.js';
import { parseScenario, type LoadedScenario } from '../scenarios/parse.js';
import type { Scenario } from '../scenarios/schema.js';

/**
 * The file reader of `platform` for `option`, whose value names a file or folder.
 *
 * @throws {OptionsError} where the platform reads no files (browsers): such paths are Node.js-only.
 */
export function filesFor(platform: Platform, option: keyof GatewayOptions, value: string): PlatformFiles {
  if (platform.files) return platform.files;
  throw new OptionsError(option, `"${value}" names a file or folder, which only Node.js can read; pass the data itself (loaded fixtures, a key list, scenario definitions)`);
}

/** The initial default scenario of option `scenario`, or `null`. */
export function initialScenario(option: GatewayOptions['scenario'], scenarios: ScenarioEngine, platform: Platform): Scenario | null {
  if (option === undefined) return null;
  if (typeof option !== 'string') return scenarios.parse(option, 'scenario');
  if (looksLikePath(option)) return filesFor(platform, 'scenario', option).scenarioFile(option).scenario;
  const scenario = scenarios.find(option);
  if (!scenario) throw new OptionsError('scenario', scenarios.unknownName(option));
  return scenario;
}

/** The scenarios of option `scenarios`: each folder's files (Node.js) and each definition, in order. */
export function userScenarios(option: GatewayOptions['scenarios'], platform: Platform): LoadedScenario[] {
  const list = option === undefined ? [] : typeof option === 'string' ? [option] : option;
  return list.flatMap((entry, i) => {
    if (typeof entry === 'string') return filesFor(platform, 'scenarios', entry).scenarioDir(entry);
    const where = `scenarios[${i}]`;
    return [{ scenario: parseScenario(entry, where), source: where }];
  });
}
