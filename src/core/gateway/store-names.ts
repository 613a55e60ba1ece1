/**
 * What options `storePrefix` and `replicaId` may be (documented with the other options in
 * `src/core/gateway/options.ts`; `store` itself is checked where it is opened: `src/node-platform/redis-store/url.ts`).
 *
 * @module
 */
import * as z from 'zod';
import { parseOptions, type GatewayOptions } from './options.js';

/** The longest `replicaId`, characters: it is in every journal entry and every shared event. */
export const MAX_REPLICA_ID_LENGTH = 200;

/** What `storePrefix` and `replicaId` may be. */
const StoreOptionsSchema = z.lazy(() =>
  z.object({
    storePrefix: z.string().min(1, { error: 'expected a non-empty string such as "mockrouter:"' }).optional(),
    replicaId: z
      .string()
      .min(1, { error: 'expected a non-empty string' })
      .max(MAX_REPLICA_ID_LENGTH, { error: `expected at most ${MAX_REPLICA_ID_LENGTH} characters` })
      .regex(/^[^\p{C}]*$/u, { error: 'expected printable characters only (no control characters)' })
      .optional(),
  }),
);

/**
 * Checks options `storePrefix` (a non-empty string) and `replicaId` (a non-empty string of printable characters:
 * no Unicode "other" category, at most {@link MAX_REPLICA_ID_LENGTH} characters), in every mode.
 *
 * @throws {OptionsError} naming the option, e.g. `replicaId: expected at most 200 characters`.
 */
export function checkStoreNames(options: Pick<GatewayOptions, 'storePrefix' | 'replicaId'>): void {
  const { storePrefix, replicaId } = options;
  parseOptions(StoreOptionsSchema, { storePrefix, replicaId });
}
