/**
 * `GET /api/v1/model/{author}/{slug}`: the gateway's OpenAPI operation `getModel` (`docs/behaviour.md`, "Model
 * lookup").
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';

const JSON_HEADERS = Object.freeze({ 'Content-Type': 'application/json' });

/**
 * The model id of a lookup path: `author/slug` from the raw segments, percent-decoded (the official SDK sends
 * `gpt-4o%3Afree`; `docs/behaviour.md`, "Percent-encoded paths").
 *
 * @returns the id, or `undefined` when a segment is not valid percent-encoding.
 */
export function modelIdOf(author: string, slug: string): string | undefined {
  try {
    return `${decodeURIComponent(author)}/${decodeURIComponent(slug)}`;
  } catch {
    return undefined;
  }
}

/**
 * The model id of a route's `{author}/{slug}` parameters (see {@link modelIdOf}).
 *
 * @throws {GatewayError} 400 `Invalid model path: ...` for broken percent-encoding.
 */
export function modelIdOfPath(params: Readonly<Record<string, string>>): string {
  const { author = '', slug = '' } = params;
  const id = modelIdOf(author, slug);
  if (id === undefined) {
    throw new GatewayError(400, { message: `Invalid model path: "${author}/${slug}" is not valid percent-encoding` });
  }
  return id;
}

/**
 * Looks up one model. `author` and `slug` are the raw path segments; they are percent-decoded here
 * (the official SDK sends `gpt-4o%3Afree`). Variant suffixes and aliases resolve through the catalog.
 *
 * @returns 200 `{"data": Model}` (the JSON serialized and encoded once by the catalog, `Catalog.bytes`).
 * @throws {GatewayError} 404 `Model <id> not found` for an unknown model; 400 for broken percent-encoding.
 */
export function getModel({ ctx, params }: OperationCall): CoreResponse {
  const id = modelIdOfPath(params);
  const body = ctx.catalog.bytes(id);
  if (body === undefined) throw new GatewayError(404, { message: `Model ${id} not found` });
  return { status: 200, headers: { ...JSON_HEADERS }, body };
}
