/**
 * Every error class a user of mockrouter can catch, in one module that each entry (`mockrouter`,
 * `mockrouter/server`, `mockrouter/express`, `mockrouter/browser`) re-exports whole. Each carries what a caller acts
 * on: the option, the file and the path inside it, the store; messages are one line and name what was expected.
 *
 * - {@link GatewayError}: an HTTP error answer of the simulated gateway, as thrown inside the core (its envelope is
 *   built by `./error-envelope.ts`).
 * - {@link OptionsError}: an option is invalid.
 * - {@link ConfigFileError} and its kinds {@link FixtureError}, {@link ScenarioError}, {@link KeysError}: a file (or a
 *   definition given in code) does not read or does not match its format.
 * - {@link StoreConnectError}: the shared store cannot be reached at start.
 * - {@link MswMissingError}, {@link MswCompatibilityError}: the in-process handlers cannot run (msw missing, or too
 *   new for this Node.js).
 *
 * @module
 */
export { GatewayError, type GatewayErrorInit } from './error-envelope.js';

/** One problem found in a configuration file: where in it, and what was expected. */
export interface ConfigProblem {
  /** Location inside the file (`models[3].pricing.prompt`, `line 4, column 7`), or `''` for the whole file. */
  location: string;
  /** What was expected or went wrong (`expected string, received number`). */
  problem: string;
}

/**
 * A file given by the user is missing, unreadable, not JSON/YAML, or does not match its schema.
 *
 * The message is one line: `<file>: <path inside it>: <what was expected>`, for example
 * `/srv/fixtures/models.json: models[3].pricing.prompt: expected string, received number`.
 * For a syntax error the path is `line L, column C`. When several problems exist, the first is named and the
 * count of the others is appended; {@link ConfigFileError.problems} lists them all (the `mockrouter` CLI prints
 * each on its own line).
 */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
  /** Path of the file at fault, as it was opened. */
  readonly file: string;
  /** Location inside the file (`models[3].pricing.prompt`, `line 4, column 7`), or `''` for the whole file. */
  readonly location: string;
  /** Every problem found, the one the message names first; one entry when only one is known (a syntax error). */
  readonly problems: readonly ConfigProblem[];

  /**
   * @param problem what was expected at `location`; the message appends ` (and N more problems)` for `others`.
   * @param others the problems found besides the first, for {@link ConfigFileError.problems}.
   */
  constructor(file: string, location: string, problem: string, others: readonly ConfigProblem[] = []) {
    const more = others.length > 0 ? ` (and ${others.length} more problem${others.length === 1 ? '' : 's'})` : '';
    super(`${problemLine(file, { location, problem })}${more}`);
    this.file = file;
    this.location = location;
    this.problems = [{ location, problem }, ...others];
  }
}

/**
 * One problem as a line: `<file>: <location>: <problem>`, or `<file>: <problem>` for the whole file.
 *
 * @example problemLine('models.json', { location: 'models[3].id', problem: 'expected string' })
 *   // 'models.json: models[3].id: expected string'
 */
export function problemLine(file: string, { location, problem }: ConfigProblem): string {
  return location ? `${file}: ${location}: ${problem}` : `${file}: ${problem}`;
}

/** A constructor of a {@link ConfigFileError} subclass, so each kind of file raises its own error class. */
export type ConfigErrorClass = new (file: string, location: string, problem: string, others?: readonly ConfigProblem[]) => ConfigFileError;

/**
 * A fixture file is missing, is not valid JSON or does not match its schema. The message is one line:
 * `<file>: <path inside it>: <what was expected>` (see {@link ConfigFileError}).
 */
export class FixtureError extends ConfigFileError {
  override name = 'FixtureError';
}

/** A scenario file or definition is invalid: the message names the file, the path inside it and what was expected. */
export class ScenarioError extends ConfigFileError {
  override name = 'ScenarioError';
}

/** A keys file or definition is invalid (message: file, path inside it, what was expected). */
export class KeysError extends ConfigFileError {
  override name = 'KeysError';
}

/**
 * An option is invalid (the options of `createMockRouter`, `startServer` and `createMiddleware`, typed `Options` in
 * `src/core/gateway/options.ts`). The message is `<option>: <what was expected>, got <value>`; `option` names it, so
 * the CLI can name its flag instead.
 *
 * @example new OptionsError('clock', 'expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"')
 */
export class OptionsError extends Error {
  override name = 'OptionsError';
  /** The option at fault, a key of `Options` (`clock`, `generationDelayMs`, `scenario`, `cors`, `port`, ...). */
  readonly option: string;
  /** What was wrong, without the option's name. */
  readonly problem: string;

  constructor(option: string, problem: string) {
    super(`${option}: ${problem}`);
    this.option = option;
    this.problem = problem;
  }
}

/**
 * msw is not installed where the package can see it; the message says how to install it (`npm i -D msw`). Raised by
 * importing `mockrouter` or `mockrouter/browser` without msw (`src/msw/compat.ts`).
 */
export class MswMissingError extends Error {
  override name = 'MswMissingError';
}

/**
 * msw's version cannot run on this Node.js (msw 3 needs Node.js 22.12, its `engines`); the message names both versions
 * and what is needed. Raised by `createMockRouter` in Node.js (`src/msw/compat.ts`).
 */
export class MswCompatibilityError extends Error {
  override name = 'MswCompatibilityError';
}

/**
 * The first connection to the shared store (option `store`, flag `--store`) failed: the message names the store (no
 * password) and why. Raised by `createMockRouter`, `startServer` and `createMiddleware` with a `store`
 * (`src/node-platform/redis-store/redis-store.ts`).
 */
export class StoreConnectError extends Error {
  override name = 'StoreConnectError';
  /** The store, as `GatewayStore.description` gives it. */
  readonly store: string;

  constructor(store: string, reason: string) {
    super(`cannot reach the store ${store}: ${reason}`);
    this.store = store;
  }
}
