/**
 * The command's flags of the shared store (`docs/scale-out.md`): `--store`, `--store-prefix`,
 * `--replica-id` (checked by the functions that check options `store`, `storePrefix` and `replicaId`:
 * `parseStoreUrl` of `src/node-platform/redis-store/url.ts`, `checkStoreNames` of `src/core/gateway/store-names.ts`)
 * and `--workers`, and how the store is named on the ready line.
 *
 * @module
 */
import { InvalidArgumentError } from 'commander';
import { type OptionsError } from '../core/base/errors.js';

import { checkStoreNames } from '../core/gateway/store-names.js';
import { parseStoreUrl } from '../node-platform/redis-store/url.js';

/** The most worker processes `--workers` starts. */
export const MAX_WORKERS = 64;

/** Default of `--store-prefix` (and of option `storePrefix`). */
export { DEFAULT_STORE_PREFIX } from '../core/gateway/open-store.js';

/** Runs `check` on one flag's value; its `OptionsError` becomes commander's invalid-argument error (the flag named by commander). */
function checked(check: (value: string) => void) {
  return (value: string): string => {
    try {
      check(value);
    } catch (error) {
      throw new InvalidArgumentError((error as OptionsError).problem);
    }
    return value;
  };
}

/** `--store <url>`: a `redis://` or `rediss://` URL (the message names it without its password). */
export const storeUrl = checked((store) => void parseStoreUrl(store));

/** `--store-prefix <prefix>`: a non-empty string. */
export const storePrefix = checked((prefix) => checkStoreNames({ storePrefix: prefix }));

/** `--replica-id <id>`: a non-empty string of printable characters, at most 200. */
export const replicaId = checked((id) => checkStoreNames({ replicaId: id }));

/** `--workers <n>`: a whole number from 1 to {@link MAX_WORKERS}. */
export function workerCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new InvalidArgumentError(`expected a whole number of processes from 1 to ${MAX_WORKERS}, got "${value}"`);
  }
  return n;
}

/**
 * The store as the ready line names it: its `description` (`parseStoreUrl` of `src/node-platform/redis-store/url.ts`),
 * `scheme://host:port/db` without user or password, port 6379 and database 0 when the URL leaves them out.
 *
 * @example storeLabel('redis://app:s3cret@cache') // 'redis://cache:6379/0'
 */
export function storeLabel(url: string): string {
  return parseStoreUrl(url).description;
}
