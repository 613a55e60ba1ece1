/**
 * The error answers a recorder saw, as the rules of the scenario `recorded` (`scenarios/recorded.yaml` of a
 * recorded folder; format: `src/core/scenarios/schema.ts`, `docs/scenarios.md`): each rule `{name:
 * <operation>-<status>-<n>, match: {operation, model?}, times, error: {status, message, metadata?, headers?:
 * {Retry-After}}}`. The same operation, model, status and message seen again adds one to its rule's `times`, so a
 * replay answers as the session did ("429 once, then the answer").
 *
 * A rule is kept only when the scenario format takes it and the file stays within `FOLDER_LIMITS`
 * (`src/core/formats/folder-limits.ts`): bytes and depth, so that `--scenarios` loads what was written.
 *
 * @module
 */
import { stringify as yamlStringify } from 'yaml';
import type { Operation } from '../core/http/routes.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { RECORDED_SCENARIO, RECORDED_SCENARIO_FILE } from '../core/formats/recording-schema.js';
import { valueDepthOf } from '../core/base/json-depth.js';
import { readConfigValue } from '../node-platform/read-config-file.js';
import { ScenarioError } from '../core/base/errors.js';
import { parseScenario } from '../core/scenarios/parse.js';
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

/** The file, as messages name it. */
const FILE = `scenarios/${RECORDED_SCENARIO_FILE}`;

/** What became of an error answer offered to {@link RecordedErrors.add}. */
export type ErrorOutcome =
  /** Kept: a new rule, or one more `times` of the rule of the same answer. */
  | { name: string }
  /** Not kept: the file would pass `maxBytes` (`full`), or the rule is not one the scenario format takes. */
  | { problem: string; full: boolean };

/** Bytes of `rule` in the file: its lines under `rules:` (an upper bound: `times` may grow a digit later). */
function ruleBytes(rule: Rule): number {
  return Buffer.byteLength(yamlStringify({ rules: [rule] }, { lineWidth: 0 })) - 'rules:\n'.length + 8;
}

/** The key that makes two error answers one rule. */
function errorKey(operation: string, model: string | undefined, status: number, message: string | undefined): string {
  return JSON.stringify([operation, model ?? null, status, message ?? null]);
}

/** The rules of the scenario `recorded`, in the order first seen. */
export class RecordedErrors {
  readonly #rules: Rule[] = [];
  readonly #byKey = new Map<string, Rule>();
  /** Bytes of each rule in the file ({@link ruleBytes}), and their sum. */
  readonly #bytes = new Map<Rule, number>();
  #rulesBytes = 0;
  #description: string;

  /** @param upstream the upstream's origin and path (no credentials), named in the scenario's description. */
  constructor(upstream: string) {
    this.#description = `Error answers recorded by mockrouter record from ${upstream}.`;
  }

  /**
   * Takes the rules of an existing `recorded.yaml`, so recording adds to them.
   *
   * @param folder the recorded folder it belongs to: the file is read only if it lies inside it, links resolved.
   * @throws {ScenarioError} when `file` is not a valid scenario, or its scenario is not named `recorded`.
   */
  load(file: string, folder?: string): void {
    const scenario = parseScenario(readConfigValue(file, ScenarioError, folder === undefined ? {} : { within: folder }), file);
    if (scenario.name !== RECORDED_SCENARIO) {
      throw new ScenarioError(file, 'name', `expected "${RECORDED_SCENARIO}" (the recorder's scenario), got "${scenario.name}"`);
    }
    if (scenario.description !== undefined) this.#description = scenario.description;
    for (const rule of scenario.rules) {
      this.#rules.push(rule);
      this.#measure(rule, ruleBytes(rule));
      if (rule.error !== undefined) this.#byKey.set(errorKey(rule.match?.operation ?? 'any', rule.match?.model, rule.error.status, rule.error.message), rule);
    }
  }

  /** How many rules there are. */
  get size(): number {
    return this.#rules.length;
  }

  /** Bytes of the file as {@link RecordedErrors.text} writes it (an upper bound). */
  get bytes(): number {
    return Buffer.byteLength(yamlStringify({ name: RECORDED_SCENARIO, description: this.#description }, { lineWidth: 0 })) + 'rules:\n'.length + this.#rulesBytes;
  }

  #measure(rule: Rule, bytes: number): void {
    this.#rulesBytes += bytes - (this.#bytes.get(rule) ?? 0);
    this.#bytes.set(rule, bytes);
  }

  /**
   * Keeps `error` (a new rule, or one more `times` of the rule of the same answer) unless the file would then
   * pass `maxBytes`, or nest deeper than `FOLDER_LIMITS.depth`, or the rule is not one the scenario format takes.
   */
  add(error: RecordedError, maxBytes: number): ErrorOutcome {
    const key = errorKey(error.operation, error.model, error.status, error.message);
    const known = this.#byKey.get(key);
    if (known !== undefined) {
      const grown = ruleBytes({ ...known, times: (known.times ?? 1) + 1 });
      if (this.bytes - (this.#bytes.get(known) ?? 0) + grown > maxBytes) return { problem: `${FILE} would pass ${maxBytes} bytes`, full: true };
      known.times = (known.times ?? 1) + 1;
      this.#measure(known, grown);
      return { name: known.name ?? '' };
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
    // The rule sits 2 deep in the file: in `rules`, in the document.
    if (valueDepthOf(rule, FOLDER_LIMITS.depth - 2) > FOLDER_LIMITS.depth - 2) return { problem: `its metadata nests deeper than the ${FOLDER_LIMITS.depth} levels a file may`, full: false };
    try {
      parseScenario({ name: RECORDED_SCENARIO, rules: [rule] }, FILE);
    } catch (error) {
      return { problem: `not a rule the scenario format takes (${error instanceof Error ? error.message : String(error)})`, full: false };
    }
    const bytes = ruleBytes(rule);
    if (this.bytes + bytes > maxBytes) return { problem: `${FILE} would pass ${maxBytes} bytes`, full: true };
    this.#rules.push(rule);
    this.#byKey.set(key, rule);
    this.#measure(rule, bytes);
    return { name };
  }

  /** The scenario file's text (YAML). */
  text(): string {
    return yamlStringify({ name: RECORDED_SCENARIO, description: this.#description, rules: this.#rules }, { lineWidth: 0 });
  }
}
