/**
 * Reading option `keys` when it names a JSON/YAML keys file, Node.js only; validation is `parseKeys` of
 * `src/core/accounts/accounts.ts`.
 *
 * @module
 */
import { KeysError } from '../core/base/errors.js';
import { parseKeys, type KeyEntryOutput, type KeysOption } from '../core/accounts/accounts.js';
import { readConfigValue } from './read-config-file.js';

/**
 * Reads option `keys` into key entries: the keys file it names, or the list it holds.
 *
 * @throws {KeysError} for a missing or invalid file or list, naming the file (or option) and the path inside it.
 */
export function loadKeys(option: KeysOption): KeyEntryOutput[] {
  return typeof option === 'string' ? parseKeys(readConfigValue(option, KeysError), option) : parseKeys(option);
}
