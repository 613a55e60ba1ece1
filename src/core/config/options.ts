/**
 * The options of a simulated gateway, shared by `createMockRouter` (in-process) and `startServer` (standalone),
 * and their validation. An invalid option is an {@link OptionsError} naming the option, never an HTTP error.
 *
 * @module
 */
import type { KeysOption } from '../accounts/accounts.js';
import type { Now } from '../clock.js';
import { clockTimeProblem, parseIsoTime } from '../clock.js';
import type { Fixtures } from './fixture-schema.js';
import type { ErrorReporter } from '../report-error.js';
import type { ScenarioDefinition } from '../scenarios/schema.js';
import * as z from 'zod';
import { describeIssue, formatPath } from './zod-issues.js';

/** Options shared by `createMockRouter` (in-process) and `startServer` (standalone). */
export interface GatewayOptions {
  /**
   * Seed of every generated value (generation ids, latencies, audio contour, scenario draws), a safe integer. Same
   * seed and same requests give byte-identical responses. Default `0`.
   */
  seed?: number;
  /**
   * The model catalog and known generation records: the loaded {@link Fixtures}, or (Node.js only) a folder
   * holding `models.json` and `generations.json` (the format of the package's own `fixtures/`). Default: the
   * package's fixtures.
   */
  fixtures?: string | Fixtures;
  /**
   * The valid API keys: key strings, entries `{ key, credits?, user_id?, rate_limit?, management?, free_tier? }`
   * (credits in USD, `rate_limit: { requests, interval_s }`), a `{ keys: [...] }` object, or (Node.js only) the
   * path of a JSON/YAML keys file. Default: any non-empty bearer key is valid, with unlimited credit. When given,
   * any other key gets 401 `User not found.`, and a speech call the balance cannot pay gets 402
   * (`docs/behaviour.md`, "Keys and credits").
   */
  keys?: KeysOption;
  /**
   * The base clock, epoch ms. Default `Date.now` (which vitest's fake timers control). Record timestamps,
   * generation readiness, rate-limit windows and `Retry-After` all read it.
   */
  now?: Now;
  /** Freeze the clock at this time (ISO 8601 string or epoch ms); it then moves only by `clock.advance`/`set`. */
  clock?: string | number;
  /**
   * Delay before a speech call's generation record is readable, ms, or `'realistic'` (500–2000 ms, seeded per
   * record). Lookups before it answer 404 `Generation not found`, as the real gateway does. Default 0.
   */
  generationDelayMs?: number | 'realistic';
  /** How many speech-call generation records to keep (least recently used evicted first). Default 10,000. */
  maxGenerations?: number;
  /** Bound of the audio cache, in bytes. Default 8 MiB. */
  audioCacheBytes?: number;
  /**
   * Extra scenarios, loaded beside the built-ins: definitions, or (Node.js only) folders of scenario files (JSON
   * or YAML), in any mix.
   */
  scenarios?: string | readonly (string | ScenarioDefinition)[];
  /**
   * The default scenario, applied to every request without a scenario header: a loaded scenario's name, a
   * definition, or (Node.js only) a path to a scenario file (containing `/` or ending `.json`, `.yaml`, `.yml`).
   */
  scenario?: string | ScenarioDefinition;
  /** Bound of the request journal, in entries. Default 1000. */
  journalSize?: number;
  /**
   * Bound of the request journal in bytes: its kept entries' sizes together (each about its JSON's length; a body
   * over 64 KiB is kept as a note). Past it the oldest entries go first. Default 32 MiB.
   */
  journalBytes?: number;
  /**
   * Receives each unexpected error inside the gateway, once, with where it happened (an event listener that threw,
   * a failure while answering or sending a request): such an error ends at most its own request (a 500 envelope, or
   * the connection closed once bytes were sent) and never reaches the process. Default: one `console.error` line;
   * the standalone server logs it through its request logger. See `src/core/report-error.ts`.
   */
  onError?: ErrorReporter;
}

/** The name of an option of `createMockRouter` or `startServer`, as {@link OptionsError.option} gives it. */
export type OptionName = keyof GatewayOptions | 'cors' | 'allowedHosts' | 'port' | 'host' | 'timeouts';

/**
 * An option of {@link GatewayOptions} (or of `startServer`) is invalid. The message is `<option>: <what was expected>, got <value>`;
 * `option` names it, so the CLI can name its flag instead.
 *
 * @example new OptionsError('clock', 'expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"')
 */
export class OptionsError extends Error {
  override name = 'OptionsError';
  /**
   * The option at fault, as named in {@link GatewayOptions} (`clock`, `generationDelayMs`, `scenario`, ...), or
   * `cors` (an option of the handlers and the server, `src/core/http/cors.ts`), or `allowedHosts` (the server's,
   * `src/core/admin/hosts.ts`), or `port`, `host`, `timeouts` (the server's, `src/server/listen-options.ts`).
   */
  readonly option: OptionName;
  /** What was wrong, without the option's name. */
  readonly problem: string;

  constructor(option: OptionName, problem: string) {
    super(`${option}: ${problem}`);
    this.option = option;
    this.problem = problem;
  }
}

/** The numeric options, checked before anything is built. */
const NumericOptionsSchema = z.object({
  seed: z.int().optional(),
  journalSize: z.int().min(1).optional(),
  journalBytes: z.int().min(1).optional(),
  maxGenerations: z.int().min(0).optional(),
  audioCacheBytes: z.int().min(0).optional(),
});

/**
 * Checks the numeric options: `seed` a safe integer (`1.5` would act as `1` in some draws and not in others);
 * `journalSize` and `journalBytes` whole numbers ≥ 1; `maxGenerations` and `audioCacheBytes` whole numbers ≥ 0 (0 keeps nothing).
 *
 * @throws {OptionsError} naming the first option at fault.
 */
export function checkNumericOptions(options: GatewayOptions): void {
  const { seed, journalSize, journalBytes, maxGenerations, audioCacheBytes } = options;
  parseOptions(NumericOptionsSchema, { seed, journalSize, journalBytes, maxGenerations, audioCacheBytes });
}

/**
 * Parses options with `schema`, whose top-level keys are option names.
 *
 * @returns the parsed options.
 * @throws {OptionsError} for the first issue: `option` its first path segment, `problem` the rest of the path and
 *   what was expected (`timeouts` / `headers: Too small: expected number to be >=0`).
 */
export function parseOptions<S extends z.ZodType>(schema: S, options: z.input<S>): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const [option, ...inner] = issue.path;
  const where = formatPath(inner);
  throw new OptionsError(option as OptionName, where ? `${where}: ${describeIssue(issue)}` : describeIssue(issue));
}

/**
 * The frozen time of option `clock` (`--clock`), epoch ms, or `undefined` when not given: an ISO 8601 time, or
 * whole epoch ms, within years 1970–9999 (`clockTimeProblem` of `clock.ts`, the bound every clock move keeps).
 *
 * @throws {OptionsError} `clock: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"` for a string
 *   that is no time; `clock: expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999),
 *   got …` for a time or number out of that range or not whole.
 */
export function frozenTimeOf(clock: string | number | undefined): number | undefined {
  if (clock === undefined) return undefined;
  const ms = typeof clock === 'number' ? clock : parseIsoTime(clock);
  if (ms === undefined) throw new OptionsError('clock', `expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${clock}"`);
  const problem = clockTimeProblem(ms, typeof clock === 'number' ? String(clock) : `"${clock}"`);
  if (problem) throw new OptionsError('clock', problem);
  return ms;
}

/**
 * Option `generationDelayMs`, checked: ms ≥ 0 or `'realistic'`; default 0.
 *
 * @throws {OptionsError} for anything else.
 */
export function generationDelayOf(delay: number | 'realistic' | undefined): number | 'realistic' {
  const value = delay ?? 0;
  if (value !== 'realistic' && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
    throw new OptionsError('generationDelayMs', `expected a number of ms ≥ 0 or "realistic", got ${String(value)}`);
  }
  return value;
}

/** Whether option `scenario` names a file rather than a loaded scenario: it has a `/` or `\`, or a JSON/YAML extension. */
export function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || /\.(json|ya?ml)$/i.test(value);
}
