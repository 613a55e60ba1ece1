/**
 * What the built-in scenarios (the repository's `scenarios/` folder) may do to a request, read from the files
 * themselves with the project's own loader (`src/node-platform/scenarios.ts`), so a scenario added, removed or
 * changed there changes the generators and the reference model with it. The rule semantics copied are those of
 * `src/core/scenarios/schema.ts` and `src/core/scenarios/engine.ts`: the first rule that applies wins; `times`,
 * `probability` and a match on model, voice or format make a rule one that may or may not apply; a rule with no
 * `error`, `raw` or `reset` lets the request through to the operation.
 *
 * @module
 */
import { loadBuiltinScenarios } from '../../../src/node-platform/scenarios.js';
import type { Rule, Scenario } from '../../../src/core/scenarios/schema.js';
import type { FuzzedOperation } from './request.js';

/** A raw answer a scenario may give instead of the envelope (e.g. the edge network's HTML 524 page). */
export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** What a scenario may do to one request of an operation. */
export interface ScenarioEffect {
  /** Error statuses it may answer with, as the gateway's envelope. */
  statuses: number[];
  /** Raw answers it may give. */
  raw: RawAnswer[];
  /** It may drop the connection without an answer. */
  reset: boolean;
  /** It may cut a successful speech answer's audio (`audio.truncate`). */
  truncatedAudio: boolean;
  /** The request may reach the operation (no rule applies for sure, or the one that does has no answer of its own). */
  normal: boolean;
}

const scenarios = new Map<string, Scenario>(loadBuiltinScenarios().map(({ scenario }) => [scenario.name, scenario]));

/** The names of the built-in scenarios, as `X-Mock-Scenario` takes them. */
export const BUILTIN_SCENARIOS: readonly string[] = [...scenarios.keys()];

/** Whether `rule` can match a request of `operation` (its `match.operation` is `any` or the operation). */
function canMatch(rule: Rule, operation: FuzzedOperation): boolean {
  return !rule.match || rule.match.operation === 'any' || rule.match.operation === operation;
}

/** Whether `rule` applies to every request of an operation it can match (no counter, draw or body match). */
function isCertain(rule: Rule): boolean {
  const m = rule.match;
  return rule.times === undefined && (rule.probability === undefined || rule.probability >= 1) && m?.model === undefined && m?.voice === undefined && m?.format === undefined;
}

/**
 * What the built-in scenario `name` may do to a request of `operation`.
 *
 * @returns `undefined` when there is no built-in scenario of that name (the gateway answers 400).
 */
export function scenarioEffect(name: string, operation: FuzzedOperation): ScenarioEffect | undefined {
  const scenario = scenarios.get(name);
  if (!scenario) return undefined;
  const effect: ScenarioEffect = { statuses: [], raw: [], reset: false, truncatedAudio: false, normal: true };
  for (const rule of scenario.rules) {
    if (!canMatch(rule, operation)) continue;
    const answers = rule.error !== undefined || rule.raw !== undefined || rule.reset !== undefined;
    if (rule.error) effect.statuses.push(rule.error.status);
    if (rule.raw) effect.raw.push({ status: rule.raw.status, contentType: rule.raw.content_type, body: rule.raw.body });
    if (rule.reset) effect.reset = true;
    // A pass-through rule lets the operation answer, its speech audio maybe cut.
    if (!answers && operation === 'speech' && rule.audio?.truncate !== undefined) effect.truncatedAudio = true;
    if (isCertain(rule)) {
      // Later rules are never reached; an answering rule leaves the operation no say.
      if (answers) effect.normal = false;
      return effect;
    }
  }
  return effect;
}

/**
 * Whether the built-in scenario `name` may slow a request of `operation` down (a `delay` or a paced audio
 * stream, e.g. `slow-audio` streams speech at real time): the generators leave those out to keep the suite fast.
 */
export function isSlow(name: string, operation: FuzzedOperation): boolean {
  const scenario = scenarios.get(name);
  return !!scenario?.rules.some((rule) => canMatch(rule, operation) && (rule.delay !== undefined || (operation === 'speech' && rule.audio?.dribble !== undefined)));
}
