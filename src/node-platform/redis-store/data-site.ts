/**
 * Where each command of the Redis store reads and writes, to name the key when the store holds what the simulator
 * cannot read there (`src/core/store/invalid-data.ts`), and what makes it right.
 *
 * @module
 */
import { CONTROL_REMEDY } from '../../core/store/shared-control.js';
import type { StoreKeys } from './key-names.js';

/**
 * A command's data: the key (for per-key state, its name with `<epoch>` for the epoch the script reads), what makes
 * it right, and for per-key state its index.
 */
export interface DataSite {
  readonly key: string;
  readonly remedy: string;
  readonly index?: string;
}

/** What makes per-key state the simulator cannot read right: a reset deletes it. */
const STATE_REMEDY = 'POST /__mock/reset (in code, reset()) deletes it';

/** `text` with control characters escaped as JSON does (scopes hold NUL separators), for messages. */
function shown(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The shared controls (`keys.control`): a reset rewrites them. */
export function controlSite(keys: StoreKeys): DataSite {
  return { key: keys.control, remedy: CONTROL_REMEDY };
}

/** The journal (`keys.journal` and the fields of ended entries): clearing it, or a reset, makes it right. */
export function journalSite(keys: StoreKeys): DataSite {
  return { key: keys.journal, remedy: 'DELETE /__mock/requests or POST /__mock/reset clears the journal' };
}

/** A key the simulator writes anew once deleted (serials, generation records). */
export function keySite(key: string): DataSite {
  return { key, remedy: `delete it (redis-cli DEL ${shown(key)}): the simulator writes it anew` };
}

/**
 * The per-key state of `member` of kind `name` (`window`, `ledger:usage`, `ledger:free`, `rule`) in its index
 * (`windows`, `ledgers`, `rules`).
 */
export function stateSite(keys: StoreKeys, name: string, index: string, member: string): DataSite {
  return { key: `${keys.prefix}${name}:${shown(member)}@<epoch>`, remedy: STATE_REMEDY, index: `${keys.prefix}${index}@<epoch>` };
}

/** The index of a {@link DataSite} of per-key state, as a site of its own (the site itself when it has none). */
export function indexSite(site: DataSite): DataSite {
  return { key: site.index ?? site.key, remedy: site.remedy };
}
