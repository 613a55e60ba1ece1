/**
 * The answer of a request that needs state while the shared store cannot be reached: a 503 envelope naming the
 * store, so a client sees the simulator's own outage, not a fault of the request (`docs/scale-out.md`,
 * "When the store is away"). The store's client reconnects by itself, and answers resume when it is back.
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';

/** `error.metadata.error_type` of the 503: the simulator's own dependency, not a provider. */
const STORE_ERROR_TYPE = 'server';

/** A request needed the shared store, and it could not be reached (or did not answer in time). */
export class StoreUnavailableError extends GatewayError {
  override name = 'StoreUnavailableError';
}

/**
 * The 503 of a store that cannot be reached: `mockrouter's state store <description> is unavailable (<reason>);
 * the simulator reconnects by itself, retry shortly`, with `Retry-After: 1`.
 *
 * @param description the store, as `GatewayStore.description` gives it (its URL without credentials).
 * @param cause what the client said (its message is quoted; it never holds a password: clients name the host only).
 * @example throw storeUnavailable('redis://127.0.0.1:6379/0', new Error('Connection is closed.'));
 */
export function storeUnavailable(description: string, cause: unknown): StoreUnavailableError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StoreUnavailableError(503, {
    message: `mockrouter's state store ${description} is unavailable (${reason}); the simulator reconnects by itself, retry shortly`,
    metadata: { error_type: STORE_ERROR_TYPE },
    headers: { 'Retry-After': '1' },
  });
}
