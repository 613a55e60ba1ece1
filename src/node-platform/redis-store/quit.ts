/**
 * Ending a connection to the store (`GatewayStore.close`).
 *
 * @module
 */
import type { Redis } from 'ioredis';

/** Ends a connection: `QUIT` when connected (replies in flight arrive first), else at once. */
export async function quit(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    try {
      await connection.quit();
      return;
    } catch {
      // fall through: the connection is going anyway
    }
  }
  connection.disconnect();
}
