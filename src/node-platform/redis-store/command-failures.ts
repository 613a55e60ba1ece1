/**
 * What a failed command of the Redis store is to the gateway (`redis-store.ts`): the 500 of the store's invalid data
 * at the key it read (a script's `MRDATA` error, a reply that the key holds another type or not a number, text that
 * is not JSON; `src/core/store/invalid-data.ts`), or else the 503 of a store that is away
 * (`src/core/store/unavailable.ts`); and the runner every command of the store goes through, which waits for the
 * first connection attempt and turns each failure into one of them.
 *
 * @module
 */
import { GatewayError } from '../../core/base/error-envelope.js';
import { storeDataInvalid } from '../../core/store/invalid-data.js';
import { storeUnavailable } from '../../core/store/unavailable.js';
import type { StoreConnection } from './connection.js';
import { indexSite, type DataSite } from './data-site.js';

/** Error replies that say the data at a key is not what the command needs. */
const DATA_REPLY = /^WRONGTYPE|not an integer|not a valid float/;
/** The `MRDATA <what> <problem>` error of a script (`scripts.ts`), with the location the server appends. */
const FLAGGED = /^MRDATA (control|state|index) ([^]*?)(?: script: \w+, on @user_script:\d+\.)?$/;

/** Runs a command of the store, the failures of which are the invalid data at `site` or the store away. */
export type CommandRunner = <T>(command: () => Promise<T>, site?: DataSite) => Promise<T>;

/**
 * The runner of the commands of the store `description` over `connection`; `control` is where the control hash
 * lives (a script's `MRDATA control` names it).
 */
export function commandRunner(description: string, control: DataSite, connection: Pick<StoreConnection, 'afterFirstAttempt'>): CommandRunner {
  /**
   * What a failure of a command on `site` is: the store's invalid data there (a 500: a script's `MRDATA` error, a
   * reply that the key holds another type or not a number, text that is not JSON), or else the store away (the 503).
   */
  const failure = (error: unknown, site: DataSite | undefined): GatewayError => {
    if (error instanceof GatewayError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const flagged = FLAGGED.exec(message);
    if (flagged && site) {
      const at = flagged[1] === 'control' ? control : flagged[1] === 'index' ? indexSite(site) : site;
      return storeDataInvalid(description, at.key, flagged[2]!, at.remedy);
    }
    if (site && (error instanceof SyntaxError || (error instanceof Error && error.name === 'ReplyError' && DATA_REPLY.test(message)))) {
      return storeDataInvalid(description, site.key, message.replace(/ script: \w+, on @user_script:\d+\.$/, ''), site.remedy);
    }
    return storeUnavailable(description, plainReason(error));
  };

  /**
   * Runs `command` (after the first attempt), turning every failure into the store's 503, or the 500 of invalid
   * data at `site`.
   */
  const run = <T>(command: () => Promise<T>, site?: DataSite): Promise<T> => {
    const go = (): Promise<T> => {
      let pending: Promise<T>;
      try {
        pending = command();
      } catch (error) {
        pending = Promise.reject(error);
      }
      return pending.catch((error: unknown) => {
        throw failure(error, site);
      });
    };
    return connection.afterFirstAttempt(go);
  };
  return run;
}

/**
 * What went wrong, in a user's words: the client's messages for a connection that is down (`Stream isn't writeable
 * and enableOfflineQueue options is false`, `Connection is closed.`) read `not connected`; others as they are.
 */
function plainReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /Stream isn't writeable|Connection is closed/i.test(message) ? 'not connected' : message;
}
