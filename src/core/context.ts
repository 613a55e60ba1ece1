/**
 * What every operation of the simulator shares: the catalog, the stores, the audio renderer, the seed and the
 * clock. Built once per {@link createGateway} call.
 *
 * @module
 */
import type { AudioRenderer } from './audio/index.js';
import type { Accounts } from './accounts.js';
import type { Catalog } from './catalog/index.js';
import type { Clock, Now } from './clock.js';
import type { GenerationStore } from './generations/store.js';
import type { createIdSequence } from './ids.js';

/** Shared state of one simulated gateway. */
export interface GatewayContext {
  /** The model catalog (fixtures' models, variants, aliases). */
  readonly catalog: Catalog;
  /** Generation records (fixtures and speech calls). */
  readonly generations: GenerationStore;
  /** Renders and caches audio. */
  readonly audio: AudioRenderer;
  /** Seeded id source for generation ids. */
  readonly ids: ReturnType<typeof createIdSequence>;
  /** The seed every generated value derives from. */
  readonly seed: number;
  /** The clock (epoch ms): `clock.now` bound. */
  readonly now: Now;
  /** The controllable clock behind {@link now}. */
  readonly clock: Clock;
  /** The API keys, their balances and rate-limit windows. */
  readonly accounts: Accounts;
  /**
   * How long after a speech call its generation record becomes readable, ms, or `realistic` (500 to 2000 ms,
   * seeded per record). Before that, lookups answer 404 `Generation not found` (facts file).
   */
  readonly generationDelay: number | 'realistic';
  /** A counter of generated records, advanced by each speech call; seeds per-record values such as latency. */
  serial: number;
}
