/**
 * How a zod validation problem is told, everywhere: the path of the value at fault (`models[3].pricing.prompt`),
 * for request bodies (`src/core/http/validate-request.ts`, the 400 envelope, whose schemas write their own
 * messages) and for user files and options (`validate-config.ts`, `options.ts`); and, for the latter, a short phrase
 * for what was expected.
 *
 * @module
 */
import type * as z from 'zod';

/**
 * `['models', 3, 'pricing', 'prompt']` → `models[3].pricing.prompt`; keys that are not identifiers are quoted:
 * `speech["a/b"]`. The empty path is `''`.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * One zod issue as a short phrase: the schema's own message, or for zod's built-in type errors
 * `required key is missing (expected string)` / `expected number, received string`; for a record's key that
 * fails, `key: ` and the key schema's message.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  // A record's key that fails its schema: zod says `Invalid key in record`; the key schema's own message says why.
  if (issue.code === 'invalid_key' && issue.issues[0]) return `key: ${describeIssue(issue.issues[0])}`;
  const message = issue.message.replace(/^Invalid input: /, '');
  if (issue.code !== 'invalid_type') return message;
  const expected = issue.expected === 'int' ? 'integer' : issue.expected;
  const received = /received (\w+)$/.exec(message)?.[1];
  if (received === 'undefined') return `required key is missing (expected ${expected})`;
  return received ? `expected ${expected}, received ${received}` : message;
}
