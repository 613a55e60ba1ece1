/**
 * What every operation of the simulator shares: the catalog, the stores, the audio renderer, the seed and the
 * clock. Built once per `createGateway` call and internal to the core: users reach the clock, the journal and
 * the scenarios through the `Gateway`, never this object.
 *
 * @module
 */
import type { Accounts } from './accounts/accounts.js';
import type { AudioRenderer } from './audio/index.js';
import type { Catalog } from './catalog/catalog.js';
import type { Clock } from './clock.js';
import type { GenerationStore } from './generations/store.js';
import type { GenerationIds } from './ids.js';

/** Shared state of one simulated gateway. */
export interface GatewayContext {
  /** The model catalog (fixtures' models, variants, aliases). */
  readonly catalog: Catalog;
  /** Generation records (fixtures and speech calls). */
  readonly generations: GenerationStore;
  /** Renders and caches audio. */
  readonly audio: AudioRenderer;
  /** The one source of generation ids (and of the serial that seeds per-record values). */
  readonly ids: GenerationIds;
  /** The seed every generated value derives from. */
  readonly seed: number;
  /** The controllable clock (epoch ms). */
  readonly clock: Clock;
  /** The API keys, their balances and rate-limit windows. */
  readonly accounts: Accounts;
  /**
   * How long after a speech call its generation record becomes readable, ms, or `realistic` (500 to 2000 ms,
   * seeded per record). Before that, lookups answer 404 `Generation not found`.
   */
  readonly generationDelay: number | 'realistic';
}
