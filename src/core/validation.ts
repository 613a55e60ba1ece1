/**
 * Turns zod validation failures into the gateway's 400 envelope with a message that names each field.
 *
 * @module
 */
import type { z } from 'zod';
import { GatewayError } from './errors.js';

/** Formats a zod issue path as `provider.options.openai` or `body` for the root. */
function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}

/**
 * Parses `value` with `schema`.
 *
 * @returns the parsed value.
 * @throws {GatewayError} 400 with message `<field>: <problem>` (issues joined by `; `) and
 *   `metadata.error_type: invalid_request`.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues.map((issue) => `${fieldName(issue.path)}: ${issue.message}`).join('; ');
  throw new GatewayError(400, { message });
}
