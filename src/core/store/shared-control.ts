/**
 * The shared controls as a store holds them (`SharedControl` of `types.ts`: the clock and the default scenario, as
 * JSON text, and a version), read back and checked: a field that is not what a replica writes is reported as the
 * store's invalid data (`invalid-data.ts`), never taken (a clock offset of 1e300 would make every time unwritable)
 * nor mistaken for the store being away.
 *
 * @module
 */
import { clockSettingProblem, type ClockSetting } from '../base/clock.js';
import { storeDataInvalid } from './invalid-data.js';
import type { SharedControl, SharedScenario } from './types.js';

/** The control fields as stored: text, or `null` when the field is absent. */
export interface ControlFields {
  readonly clock: string | null;
  readonly scenario: string | null;
  readonly version: string | null;
}

/** Where the fields were read: the store (`GatewayStore.description`) and the control key, with its prefix. */
export interface ControlSource {
  readonly description: string;
  readonly key: string;
}

/** What mends a control hash the simulator cannot read. */
export const CONTROL_REMEDY = 'POST /__mock/reset (in code, reset()) rewrites it, keeping the clock when it is valid';

/** JSON text parsed, or the problem (`not JSON: ...`). */
function parsed(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Why `text` (the stored field `clock`) is not a clock setting a replica writes, or `undefined` when it is
 * (`clockSettingProblem` of `clock.ts`).
 */
export function storedClockProblem(text: string): string | undefined {
  const read = parsed(text);
  return 'problem' in read ? read.problem : clockSettingProblem(read.value);
}

/** Why `value` is not a {@link SharedScenario}, or `undefined`. */
function scenarioProblem(value: unknown): string | undefined {
  const expected = 'expected {"kind": "initial" | "none"}, {"kind": "name", "name": <string>} or {"kind": "definition", "definition": <object>}';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${expected}, got ${JSON.stringify(value)}`;
  const { kind, name, definition } = value as { kind?: unknown; name?: unknown; definition?: unknown };
  if (kind === 'initial' || kind === 'none') return undefined;
  if (kind === 'name' && typeof name === 'string') return undefined;
  if (kind === 'definition' && definition !== null && typeof definition === 'object') return undefined;
  return `${expected}, got ${JSON.stringify(value)}`;
}

/**
 * The shared controls of `fields`: an absent clock is `null` (no replica moved it), an absent scenario each
 * replica's initial one, an absent version `'0'`.
 *
 * @throws {StoreDataError} (a 500 `GatewayError`) `... store data invalid at <key> (field <name>: <problem>); ...`
 *   for a field that is not JSON or not of the shape a replica writes (the clock also within its ranges).
 */
export function readSharedControl(fields: ControlFields, source: ControlSource): SharedControl {
  const invalid = (field: string, problem: string) => storeDataInvalid(source.description, source.key, `field ${field}: ${problem}`, CONTROL_REMEDY);
  let clock: ClockSetting | null = null;
  if (fields.clock !== null) {
    const problem = storedClockProblem(fields.clock);
    if (problem) throw invalid('clock', problem);
    const { offsetMs, frozenAtMs } = JSON.parse(fields.clock) as ClockSetting;
    clock = { offsetMs, frozenAtMs };
  }
  let scenario: SharedScenario = { kind: 'initial' };
  if (fields.scenario !== null) {
    const read = parsed(fields.scenario);
    const problem = 'problem' in read ? read.problem : scenarioProblem(read.value);
    if (problem) throw invalid('scenario', problem);
    scenario = (read as { value: SharedScenario }).value;
  }
  return { clock, scenario, version: fields.version ?? '0' };
}
