/**
 * The answer of a request whose state the shared store holds in a form the simulator cannot read (a control field
 * that is not the JSON it writes, a key of another type: written by hand, by another program, or by a bug): a 500
 * envelope naming the store, the key and the problem, since retrying cannot help (`docs/scale-out.md`, "When the
 * store holds what it cannot read"). Not the 503 of a store away (`unavailable.ts`): the store answers.
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';

/** `error.metadata.error_type` of the 500: the simulator's own fault, not a provider's. */
const STORE_ERROR_TYPE = 'server';

/** A request needed state that the shared store holds in a form the simulator cannot read. */
export class StoreDataError extends GatewayError {
  override name = 'StoreDataError';
  /** The store's key at fault (with its prefix). */
  readonly key: string;

  constructor(key: string, message: string) {
    super(500, { message, metadata: { error_type: STORE_ERROR_TYPE } });
    this.key = key;
  }
}

/**
 * The 500 of data the store holds but the simulator cannot read: `mockrouter's state store <description> holds data
 * it cannot read: store data invalid at <key> (<problem>); <remedy>`.
 *
 * @param description the store, as `GatewayStore.description` gives it (its URL without credentials).
 * @param key the key at fault, with its prefix (`mockrouter:control`).
 * @param problem what is wrong, naming the field of a hash and what was expected (`field clock: offsetMs: ...`).
 * @param remedy what makes it right, e.g. `POST /__mock/reset (reset()) rewrites it`.
 * @example throw storeDataInvalid('redis://127.0.0.1:6379/0', 'mockrouter:control', 'field clock: not JSON', 'POST /__mock/reset rewrites it');
 */
export function storeDataInvalid(description: string, key: string, problem: string, remedy: string): StoreDataError {
  return new StoreDataError(key, `mockrouter's state store ${description} holds data it cannot read: store data invalid at ${key} (${problem}); ${remedy}`);
}
