/**
 * Which store a gateway keeps its state in (option `store`, `src/core/gateway/options.ts`): in memory by default,
 * or the shared store the platform opens for a URL (Node.js: `src/node-platform/redis-store/`).
 *
 * @module
 */
import { OptionsError } from '../base/errors.js';
import { type GatewayOptions } from './options.js';
import type { Journal } from '../journal/journal.js';
import type { Platform } from './platform.js';
import type { ErrorReporter } from '../base/report-error.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { GatewayStore } from '../store/types.js';

/** Default of option `storePrefix`. */
export const DEFAULT_STORE_PREFIX = 'mockrouter:';

/** What {@link openStore} needs besides the options. */
export interface StoreNeeds {
  /** The gateway's journal (the memory store's). */
  readonly journal: Journal;
  /** This replica's id (option `replicaId`, or the platform's default). */
  readonly replica: string;
  /** Bound of the journal, entries. */
  readonly journalSize: number;
  /** Bound of speech calls' records. */
  readonly maxGenerations: number;
  /** Where the store's loss goes when option `onStoreStatus` is not given. */
  readonly report: ErrorReporter;
}

/**
 * The gateway's store: in memory, or the shared store of option `store` (opened by the platform, connecting in the
 * background; its connection changes go to option `onStoreStatus`, by default a loss to `report`).
 *
 * @throws {OptionsError} `store` where the platform opens none (browsers), or for a URL it does not take.
 */
export function openStore(platform: Platform, options: GatewayOptions, needs: StoreNeeds): GatewayStore {
  if (options.store === undefined) return createMemoryStore({ journal: needs.journal, maxGenerations: needs.maxGenerations, replica: needs.replica });
  if (!platform.openStore) throw new OptionsError('store', `"${options.store}": a shared store needs Node.js; in browsers state is kept in memory`);
  return platform.openStore({
    url: options.store,
    prefix: options.storePrefix ?? DEFAULT_STORE_PREFIX,
    replica: needs.replica,
    journalSize: needs.journalSize,
    maxGenerations: needs.maxGenerations,
    onStatus: (message, state) => {
      if (options.onStoreStatus) options.onStoreStatus(message, state);
      else if (state === 'lost') needs.report(new Error(message), 'the shared store');
    },
  });
}
