/**
 * Bearer authentication (spec §5; `facts/real-gateway.md`, "Messages seen on the real service").
 *
 * @module
 */
import { GatewayError } from './errors.js';
import { header } from './request.js';
import type { HeaderMap } from './types.js';

/**
 * Which API keys are valid: `undefined` accepts any non-empty key (the default); a set accepts only its members.
 */
export type KeyPolicy = ReadonlySet<string> | undefined;

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

/**
 * Checks the request's credential.
 *
 * @returns the API key.
 * @throws {GatewayError} 401 `No auth credentials found` when there is no bearer key; 401 `User not found.` when
 *   `policy` lists the valid keys and this one is not among them. Neither carries a `user_id`, as on the real
 *   gateway.
 */
export function authenticate(headers: HeaderMap, policy: KeyPolicy): string {
  const key = bearerKey(headers);
  if (key === undefined) throw new GatewayError(401, { message: 'No auth credentials found' });
  if (policy && !policy.has(key)) throw new GatewayError(401, { message: 'User not found.' });
  return key;
}
