/**
 * Choosing and applying scenarios: which scenario a request runs under, which rule applies, with per-session
 * counters (`times`) and seeded draws (`probability`).
 *
 * @module
 */
import { digestOf } from '../accounts/session.js';
import { GatewayError } from '../base/error-envelope.js';
import { hash32, hashString } from '../base/prng.js';
import { DEFAULT_RETRY_AFTER_S } from '../accounts/rate-limit.js';
import type { Operation } from '../http/routes.js';
import { parseScenario, type LoadedScenario } from './parse.js';
import type { Rule, Scenario, ScenarioDefinition } from './schema.js';
import { andThen, type MaybePromise } from '../base/types.js';

/** Header that picks a loaded scenario for one request (docs/scenarios.md, "Per request: headers"). */
export const SCENARIO_HEADER = 'x-mock-scenario';
/** Header that answers one request with an error status and its envelope. */
export const STATUS_HEADER = 'x-mock-status';
/** Header that scopes counters and state; defaults to the API key. */
export const SESSION_HEADER = 'x-mock-session';
/** Response header naming what was applied: `<scenario>/<rule>`. */
export const APPLIED_HEADER = 'X-Mock-Applied';

/** The facts of a request that rules match on. `speechBody` is read only when a rule needs it. */
export interface RequestFacts {
  operation: Operation;
  /** For model lookups and endpoint lists: the decoded model id. */
  model?: string | undefined;
  /**
   * For speech and transcription: the parsed JSON body (or `undefined` when it is not an object; a transcription's
   * multipart upload, or JSON over 1 MiB, is not read before the rules).
   */
  speechBody?: () => Record<string, unknown> | undefined;
}

/** A rule chosen for a request. */
export interface AppliedRule {
  scenario: string;
  /** The rule's name, or `rule-<n>` (1-based). */
  ruleName: string;
  rule: Rule;
  /** Per-application seed for jitter (delay ranges). */
  draw: number;
}

/**
 * Counts one use of a scenario counter (`slot`, a fixed-size digest of session, scenario and rule) and gives the
 * count before it: the gateway's store's `countRule` (`store/types.ts`), shared by every replica of a shared store.
 */
export type RuleCounter = (slot: string) => MaybePromise<number>;

function ruleName(rule: Rule, index: number): string {
  return rule.name ?? `rule-${index + 1}`;
}

function matches(rule: Rule, facts: RequestFacts): boolean {
  const match = rule.match;
  if (!match) return true;
  if (match.operation !== 'any' && match.operation !== facts.operation) return false;
  if (match.model === undefined && match.voice === undefined && match.format === undefined) return true;
  if (match.voice !== undefined || match.format !== undefined) {
    if (facts.operation !== 'speech') return false;
    const body = facts.speechBody?.();
    if (match.voice !== undefined && body?.voice !== match.voice) return false;
    if (match.format !== undefined && (body?.response_format ?? 'pcm') !== match.format) return false;
  }
  if (match.model !== undefined) {
    const model = facts.operation === 'speech' || facts.operation === 'transcription' ? facts.speechBody?.()?.model : facts.model;
    if (typeof model !== 'string') return false;
    const wanted = match.model;
    if (wanted.endsWith('*') ? !model.startsWith(wanted.slice(0, -1)) : model !== wanted) return false;
  }
  return true;
}

/**
 * `Retry-After` of an `X-Mock-Status` answer by status, seconds: what the built-in scenarios `rate-limited`
 * (`scenarios/rate-limited.yaml`) and `service-unavailable` (`scenarios/service-unavailable.yaml`) send, so a
 * status header and the scenario answer alike (`test/scenarios-parity.test.ts` checks it).
 */
const STATUS_RETRY_AFTER_S: Readonly<Record<number, number>> = { 429: DEFAULT_RETRY_AFTER_S, 503: 30 };

/**
 * A one-rule scenario answering with `status` (the `X-Mock-Status` header); 429 and 503 carry `Retry-After`
 * ({@link STATUS_RETRY_AFTER_S}), and a 429 the `X-RateLimit-*` headers (see `ruleResponse`).
 */
function statusScenario(status: number): Scenario {
  const retryAfter = STATUS_RETRY_AFTER_S[status];
  const headers = retryAfter === undefined ? undefined : { 'Retry-After': String(retryAfter) };
  return { name: 'x-mock-status', rules: [{ name: String(status), error: { status, ...(headers ? { headers } : {}) } }] };
}

/** What users of a gateway may read of its scenarios (`gateway.scenarios`); changes go through `useScenario`. */
export interface ScenarioControl {
  /** The loaded scenarios (built-ins, then the `scenarios` folders), with the file each came from. */
  readonly scenarios: readonly LoadedScenario[];
  /** The scenario applied to requests without a scenario header, or `null`. */
  readonly defaultScenario: Scenario | null;
  /** The loaded scenario called `name`, or `undefined`. */
  find(name: string): Scenario | undefined;
}

/**
 * The scenario state of one gateway: the registry and the default scenario; the per-session counters are in the
 * gateway's store (cleared there when the default changes or the gateway resets).
 */
export class ScenarioEngine implements ScenarioControl {
  readonly #load: () => Map<string, LoadedScenario>;
  #loaded: Map<string, LoadedScenario> | undefined;
  readonly #seed: number;
  #initial: Scenario | null = null;
  #default: Scenario | null = null;
  readonly #count: RuleCounter;

  /**
   * @param registry the loaded scenarios by name, or a function that loads them on first use (so a start-up that
   *   needs no scenario does not read the built-in files).
   * @param seed seeds `probability` draws and delay jitter.
   * @param count the store's scenario counters.
   */
  constructor(registry: Map<string, LoadedScenario> | (() => Map<string, LoadedScenario>), seed: number, count: RuleCounter) {
    this.#load = typeof registry === 'function' ? registry : () => registry;
    this.#seed = seed;
    this.#count = count;
  }

  get #registry(): Map<string, LoadedScenario> {
    this.#loaded ??= this.#load();
    return this.#loaded;
  }

  /** The initial default scenario (option `scenario`), which {@link reset} returns to. */
  get initial(): Scenario | null {
    return this.#initial;
  }

  /** Sets the default scenario at start (`--scenario`, option `scenario`); {@link reset} returns to it. */
  setInitial(scenario: Scenario | null): void {
    this.#initial = scenario;
    this.#default = scenario;
  }

  /** The loaded scenarios. */
  get scenarios(): readonly LoadedScenario[] {
    return [...this.#registry.values()];
  }

  /** The scenario applied to requests without a scenario header, or `null`. */
  get defaultScenario(): Scenario | null {
    return this.#default;
  }

  /** The loaded scenario called `name`, or `undefined`. */
  find(name: string): Scenario | undefined {
    return this.#registry.get(name)?.scenario;
  }

  /** The problem with an unknown scenario name: `unknown scenario "<name>"; loaded scenarios: <names, sorted>`. */
  unknownName(name: string): string {
    const names = [...this.#registry.keys()].sort().join(', ');
    return `unknown scenario "${name}"; loaded scenarios: ${names}`;
  }

  /**
   * Validates a scenario definition.
   *
   * @param where names the origin in error messages, e.g. `useScenario()`.
   * @throws {ScenarioError} naming `where`, the path inside the definition and what was expected.
   */
  parse(definition: unknown, where: string): Scenario {
    return parseScenario(definition, where);
  }

  /**
   * Resolves a name among the loaded scenarios, or validates a definition.
   *
   * @param where names the origin in error messages (`X-Mock-Scenario`, `useScenario()`, `name`).
   * @throws {GatewayError} 400 `<where>: unknown scenario "<name>"; loaded scenarios: ...` for an unknown name.
   * @throws {ScenarioError} for an invalid definition.
   */
  resolve(nameOrDefinition: string | ScenarioDefinition, where: string): Scenario {
    if (typeof nameOrDefinition !== 'string') return this.parse(nameOrDefinition, where);
    const scenario = this.find(nameOrDefinition);
    if (!scenario) throw new GatewayError(400, { message: `${where}: ${this.unknownName(nameOrDefinition)}` });
    return scenario;
  }

  /** Sets (or with `null` clears) the default scenario (the gateway restarts the counters in its store). */
  useScenario(scenario: Scenario | null): void {
    this.#default = scenario;
  }

  /** Returns to the initial default scenario (the gateway clears the counters in its store). */
  reset(): void {
    this.#default = this.#initial;
  }

  /**
   * The scenario a request runs under: `X-Mock-Status`, else `X-Mock-Scenario`, else the default.
   *
   * @throws {GatewayError} 400 for an unknown scenario name (listing the loaded ones) or a status that is not
   *   an integer from 400 to 599. A header only selects among loaded scenarios; it never reads a path.
   */
  select(status: string | undefined, name: string | undefined): Scenario | null {
    if (status !== undefined) {
      const code = Number(status.trim());
      if (!/^\d{3}$/.test(status.trim()) || code < 400 || code > 599) {
        throw new GatewayError(400, { message: `X-Mock-Status: expected an HTTP error status from 400 to 599, got "${status}"` });
      }
      return statusScenario(code);
    }
    if (name !== undefined) return this.resolve(name.trim(), 'X-Mock-Scenario');
    return this.#default;
  }

  /**
   * Finds the first rule of `scenario` that applies to this request of `session`, counting it.
   *
   * @returns the applied rule, or `undefined` for normal behavior.
   */
  apply(scenario: Scenario, session: string, facts: RequestFacts): MaybePromise<AppliedRule | undefined> {
    return this.#applyFrom(scenario, session, facts, 0);
  }

  /** {@link apply} from rule `start` on: counts the first matching rule, then goes on past it if it does not apply. */
  #applyFrom(scenario: Scenario, session: string, facts: RequestFacts, start: number): MaybePromise<AppliedRule | undefined> {
    for (let index = start; index < scenario.rules.length; index++) {
      const rule = scenario.rules[index]!;
      if (!matches(rule, facts)) continue;
      const key = `${session}\u0000${scenario.name}\u0000${index}`;
      // Kept under the key's digest: a fixed size per counter, however long the session id.
      return andThen(this.#count(digestOf(key)), (seen) => this.#decide(scenario, session, facts, index, key, seen));
    }
    return undefined;
  }

  /** Whether rule `index`, seen `seen` times before, applies now; if not, the rules after it are tried. */
  #decide(scenario: Scenario, session: string, facts: RequestFacts, index: number, key: string, seen: number): MaybePromise<AppliedRule | undefined> {
    const rule = scenario.rules[index]!;
    if (rule.times !== undefined && seen >= rule.times) return this.#applyFrom(scenario, session, facts, index + 1);
    const keyHash = hashString(key);
    const draw = hash32(this.#seed ^ keyHash, seen) / 0x1_0000_0000;
    if (rule.probability !== undefined && draw >= rule.probability) return this.#applyFrom(scenario, session, facts, index + 1);
    return { scenario: scenario.name, ruleName: ruleName(rule, index), rule, draw: hash32(this.#seed, keyHash + seen) };
  }
}
