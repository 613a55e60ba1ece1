/**
 * Validating user-supplied configuration (fixtures, scenarios, keys) with zod, with one-line errors that name the
 * file (or option), the path inside it and what was expected. Pure: reading files is Node.js-only
 * (`src/node-platform/read-config-file.ts`).
 *
 * @module
 */
import { ConfigFileError, type ConfigErrorClass } from './errors.js';
import type * as z from 'zod';
import { describeIssue, formatPath } from './zod-issues.js';





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
