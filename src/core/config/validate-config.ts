/**
 * Validating user-supplied configuration (fixtures, scenarios, keys) with zod, with one-line errors that name the
 * file (or option), the path inside it and what was expected. Pure: reading files is Node.js-only
 * (`src/node/read-config-file.ts`).
 *
 * @module
 */
import type * as z from 'zod';
import { describeIssue, formatPath } from './zod-issues.js';

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
   * @param problem - what was expected at `location`; the message appends ` (and N more problems)` for `others`.
   * @param others - the problems found besides the first, for {@link ConfigFileError.problems}.
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
 * Validates `value` against `schema`.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) naming the first issue's path, plus the count of the others;
 *   its `problems` list every issue. When zod itself gives up (a list of some hundred thousand bad values passes
 *   the stack's limit on the arguments of one call), the whole file, `does not match its schema (too many problems
 *   to list)`.
 */
export function validateConfig<S extends z.ZodType>(file: string, value: unknown, schema: S, ErrorClass: ConfigErrorClass = ConfigFileError): z.output<S> {
  let result: ReturnType<S['safeParse']>;
  try {
    result = schema.safeParse(value) as ReturnType<S['safeParse']>;
  } catch (err) {
    if (err instanceof RangeError) throw new ErrorClass(file, '', 'does not match its schema (too many problems to list)');
    throw err;
  }
  if (result.success) return result.data as z.output<S>;
  const [first, ...rest] = result.error.issues;
  if (first === undefined) throw new ErrorClass(file, '', 'does not match its schema');
  const others = rest.map((issue) => ({ location: formatPath(issue.path), problem: describeIssue(issue) }));
  throw new ErrorClass(file, formatPath(first.path), describeIssue(first), others);
}
