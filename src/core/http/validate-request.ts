/**
 * Turns zod validation failures of a request into the gateway's 400 envelope with a message that names each
 * field (`input: required, a string`), as the gateway's own 400s name the parameter at fault.
 *
 * @module
 */
import type { z } from 'zod';
import { GatewayError } from '../base/error-envelope.js';
import { formatPath } from '../base/zod-issues.js';

/**
 * Parses `value` with `schema`.
 *
 * @returns the parsed value.
 * @throws {GatewayError} 400 with message `<field>: <problem>` (issues joined by `; `; the field of the whole body
 *   is `body`) and `metadata.error_type: invalid_request`.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues.map((issue) => `${formatPath(issue.path) || 'body'}: ${issue.message}`).join('; ');
  throw new GatewayError(400, { message });
}
