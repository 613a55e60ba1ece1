/**
 * Bearer authentication: every operation needs `Authorization: Bearer <key>` (`docs/behaviour.md`, "Keys and
 * credits" and "Messages seen").
 *
 * @module
 */
import { header } from '../http/request.js';
import type { HeaderMap } from '../base/types.js';

const BEARER = /^Bearer[ \t]+(.*)$/i;

/**
 * Returns the bearer key of `Authorization: Bearer <key>`, trimmed, or `undefined` when the header is missing,
 * of another scheme, or empty.
 */
export function bearerKey(headers: HeaderMap): string | undefined {
  const value = header(headers, 'authorization');
  if (value === undefined) return undefined;
  const key = BEARER.exec(value.trim())?.[1]?.trim();
  return key ? key : undefined;
}
