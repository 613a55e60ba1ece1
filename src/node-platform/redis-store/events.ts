/**
 * Events between replicas (`GatewayStore.publish` and `onRemoteEvent`, `src/core/store/types.ts`): each replica
 * publishes its events on one pub/sub channel of the store (`<prefix>events`), those of one turn of the event loop
 * together as one `{replica, events: [{type, data}, ...]}` JSON message (a request's `entry` and `entry-done`, and
 * under load many requests', cost one PUBLISH), and hears the others' on a second connection, made on first use,
 * that subscribes again after every reconnection.
 * Fire and forget: an event published while the store is away is lost (a client of `GET /__mock/events` catches up
 * from the journal).
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { GatewayEvent } from '../../core/journal/gateway-events.js';
import type { RemoteEvent } from '../../core/store/types.js';
import { quit } from './quit.js';

/** One event as published. */
type PublishedEvent = Pick<GatewayEvent, 'type' | 'data'>;

/** The message the events of one turn are published as, in the order they happened. */
interface EventMessage {
  readonly replica: string;
  readonly events: readonly PublishedEvent[];
}

/** One replica's end of the channel. */
export interface EventChannel {
  /** Publishes `event` as this replica's; never throws, never rejects. */
  publish(event: Pick<GatewayEvent, 'type' | 'data'>): void;
  /** Calls `listener` with each event another replica publishes (malformed messages are ignored). @returns stop. */
  listen(listener: (event: RemoteEvent) => void): () => void;
  /** Ends the subscriber connection, if one was made. */
  close(): Promise<void>;
}

/**
 * The channel `name` of `client`'s store, for replica `replica`.
 *
 * @example const channel = eventChannel(client, 'mockrouter:events', 'pod-a'); channel.publish({ type: 'reset', data: {} });
 */
export function eventChannel(client: Redis, name: string, replica: string): EventChannel {
  let subscriber: Redis | undefined;
  const listeners = new Set<(event: RemoteEvent) => void>();

  const subscribe = (): void => {
    if (subscriber) return;
    const sub = (subscriber = client.duplicate({ autoResubscribe: false }));
    sub.on('error', () => {}); // seen and reported through the main connection
    // Subscribes on every (re)connection: the subscription is not queued while the store is away.
    sub.on('ready', () => void sub.subscribe(name).catch(() => {}));
    sub.on('message', (channel: string, text: string) => {
      if (channel !== name) return;
      const message = parse(text);
      if (!message || message.replica === replica) return;
      for (const event of message.events) {
        if (event === null || typeof event !== 'object' || typeof event.type !== 'string') continue;
        const remote: RemoteEvent = { replica: message.replica, event: { type: event.type, data: event.data } as RemoteEvent['event'] };
        for (const listener of [...listeners]) listener(remote);
      }
    });
    sub.connect().catch(() => {});
  };

  /** Events of this turn of the event loop, published together once it ends. */
  let queued: PublishedEvent[] = [];
  const flush = (): void => {
    const message: EventMessage = { replica, events: queued };
    queued = [];
    try {
      client.publish(name, JSON.stringify(message)).catch(() => {});
    } catch {
      // fire and forget: an event another replica misses while the store is away is not an error of this one
    }
  };

  return {
    publish(event) {
      if (queued.length === 0) setImmediate(flush);
      queued.push({ type: event.type, data: event.data });
    },
    listen(listener) {
      subscribe();
      const own = (event: RemoteEvent): void => listener(event);
      listeners.add(own);
      return () => void listeners.delete(own);
    },
    async close() {
      listeners.clear();
      if (subscriber) await quit(subscriber);
    },
  };
}

/** A published message, or `undefined` when `text` is not one (not JSON, or without a replica and a list of events). */
function parse(text: string): EventMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (message === null || typeof message !== 'object') return undefined;
  const { replica, events } = message as Partial<EventMessage>;
  return typeof replica === 'string' && Array.isArray(events) ? (message as EventMessage) : undefined;
}
