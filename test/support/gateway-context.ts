/**
 * The shared state behind a gateway (accounts, stores, catalog, audio renderer), for tests that check what no
 * request or gateway method shows: a key's remaining balance, the audio cache's counters, the generation store.
 * Test-only: `contextOf` of `src/core/gateway/gateway.ts` is no part of the package's API.
 *
 * @module
 */
export { contextOf } from '../../src/core/gateway/gateway.js';
