/**
 * The error answers a recorder saw, as the rules of the scenario `recorded` (`scenarios/recorded.yaml` of a
 * recorded folder; format: `src/core/scenarios/schema.ts`, `docs/scenarios.md`): each rule `{name:
 * <operation>-<status>-<n>, match: {operation, model?}, times, error: {status, message, metadata?, headers?:
 * {Retry-After}}}`. The same operation, model, status and message seen again adds one to its rule's `times`, so a
 * replay answers as the session did ("429 once, then the answer").
 *
 * @module
 */
import { stringify as yamlStringify } from 'yaml';
import type { Operation } from '../core/http/routes.js';
import { RECORDED_SCENARIO } from '../core/config/recording-schema.js';
import { readConfigValue } from '../node/read-config-file.js';
import { parseScenario, ScenarioError } from '../core/scenarios/parse.js';
import type { Rule } from '../core/scenarios/schema.js';

/** A recorded error answer, as the recorder read it from the upstream's envelope. */
export interface RecordedError {
  operation: Operation;
  /** The model of the request (speech body `model`, or the lookup's or endpoints' `author/slug`), when it has one. */
  model?: string | undefined;
  status: number;
  message: string;
  metadata?: Record<string, unknown> | null | undefined;
  /** The upstream's `Retry-After`, as sent. */
  retryAfter?: string | undefined;
}

/** The key that makes two error answers one rule. */
function errorKey(operation: string, model: string | undefined, status: number, message: string | undefined): string {
  return JSON.stringify([operation, model ?? null, status, message ?? null]);
}

/** The rules of the scenario `recorded`, in the order first seen. */
export class RecordedErrors {
  readonly #rules: Rule[] = [];
  readonly #byKey = new Map<string, Rule>();
  #description: string;

  /** @param upstream the upstream's origin and path (no credentials), named in the scenario's description. */
  constructor(upstream: string) {
    this.#description = `Error answers recorded by mockrouter record from ${upstream}.`;
  }

  /**
   * Takes the rules of an existing `recorded.yaml`, so recording adds to them.
   *
   * @throws {ScenarioError} when `file` is not a valid scenario, or its scenario is not named `recorded`.
   */
  load(file: string): void {
    const scenario = parseScenario(readConfigValue(file, ScenarioError), file);
    if (scenario.name !== RECORDED_SCENARIO) {
      throw new ScenarioError(file, 'name', `expected "${RECORDED_SCENARIO}" (the recorder's scenario), got "${scenario.name}"`);
    }
    if (scenario.description !== undefined) this.#description = scenario.description;
    for (const rule of scenario.rules) {
      this.#rules.push(rule);
      if (rule.error !== undefined) this.#byKey.set(errorKey(rule.match?.operation ?? 'any', rule.match?.model, rule.error.status, rule.error.message), rule);
    }
  }

  /** Keeps `error`: a new rule, or one more `times` of the rule of the same answer. @returns the rule's name. */
  add(error: RecordedError): string {
    const key = errorKey(error.operation, error.model, error.status, error.message);
    const known = this.#byKey.get(key);
    if (known !== undefined) {
      known.times = (known.times ?? 1) + 1;
      return known.name ?? '';
    }
    const prefix = `${error.operation}-${error.status}-`;
    const name = `${prefix}${1 + this.#rules.filter((r) => r.name?.startsWith(prefix)).length}`;
    const rule: Rule = {
      name,
      match: { operation: error.operation, ...(error.model === undefined ? {} : { model: error.model }) },
      times: 1,
      error: {
        status: error.status,
        message: error.message,
        ...(error.metadata === undefined ? {} : { metadata: error.metadata }),
        ...(error.retryAfter === undefined ? {} : { headers: { 'Retry-After': error.retryAfter } }),
      },
    };
    this.#rules.push(rule);
    this.#byKey.set(key, rule);
    return name;
  }

  /** The scenario file's text (YAML). */
  text(): string {
    return yamlStringify({ name: RECORDED_SCENARIO, description: this.#description, rules: this.#rules }, { lineWidth: 0 });
  }
}
