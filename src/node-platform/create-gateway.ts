/**
 * `createGateway` for Node.js: the core's gateway (`src/core/gateway/gateway.ts`) on the Node.js platform, where options
 * may name files and folders (fixtures, keys, scenarios).
 *
 * @module
 */
import type { GatewayOptions } from '../core/gateway/options.js';
import { createGatewayOn, type Gateway } from '../core/gateway/gateway.js';
import { nodePlatform } from './platform.js';

/**
 * Creates a gateway simulator: the behavior behind both the MSW handlers and the standalone server. Its options
 * ({@link GatewayOptions}, each documented in `src/core/gateway/options.ts`) may name files and folders here.
 *
 * @throws {FixtureError} when `fixtures` names a folder whose files are missing or invalid; `ScenarioError` for an
 *   invalid scenario file, folder or definition; `KeysError` for an invalid keys file or list; `OptionsError` for
 *   an unknown default scenario name or a bad numeric or time option. Every message names the option or the
 *   file, the path inside it, and what was expected.
 * @example
 * const gateway = createGateway({ seed: 1, keys: ['sk-test'] });
 * const response = await gateway.handle({ method: 'GET', path: '/api/v1/key', query: '', headers: { authorization: 'Bearer sk-test' } });
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  return createGatewayOn(nodePlatform, options);
}

export type { Gateway } from '../core/gateway/gateway.js';
export type { GatewayOptions, Options } from '../core/gateway/options.js';
