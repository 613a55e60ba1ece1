/**
 * `GET /__mock/events`: the gateway's events ({@link GatewayEvent}) as Server-Sent Events
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html), for a live view such as the dashboard. The
 * answer is a streamed core body, written by the adapter like any other stream; it subscribes to the gateway's
 * events when the adapter starts reading it and unsubscribes when the adapter stops (the client went away), when
 * the client falls too far behind, or when the server closes.
 *
 * Each event is one block: `id: <n>` (the gateway's event counter), `event: <type>` (`entry`, `entry-done`,
 * `clock`, `scenario`, `journal-cleared`, `reset`) and `data: <JSON>` (the event's data on one line, typed by
 * `EventData` in `wire.ts`). The stream opens with the
 * comment `: connected` (so the headers go out at once), and sends the comment `: ping` every
 * {@link PING_INTERVAL_MS} so proxies and the server's idle timeout leave a quiet stream open.
 *
 * Bounds: at most {@link MAX_EVENT_CLIENTS} clients per gateway at once (another gets a 503 envelope); at most
 * {@link MAX_QUEUED_EVENTS} events waiting for a client that does not read. A client past that bound is dropped:
 * its subscription ends at once (nothing more is kept for it), the stream sends `event: overflow` and ends, and
 * the body's `abandoned` signal tells the adapter, which closes the connection at once when the client is not
 * reading (the line could not be written anyway).
 *
 * @module
 */
import { errorResponse } from '../base/error-envelope.js';
import type { GatewayEvent, GatewayEventSource } from '../journal/gateway-events.js';
import type { CoreResponse } from '../base/types.js';
import type { EventData } from './wire.js';

/** Most clients of one gateway's event stream at once. */
export const MAX_EVENT_CLIENTS = 8;
/** Most events queued for one client that is not reading; one more and the client is dropped. */
export const MAX_QUEUED_EVENTS = 500;
/** Interval of the `: ping` comment, ms. */
export const PING_INTERVAL_MS = 15_000;
/** Most text joined into one chunk of the stream, UTF-16 code units (a client catching up gets several chunks). */
const MAX_CHUNK_CHARS = 64 * 1024;

/** Clients reading each gateway's event stream now. */
const clients = new WeakMap<GatewayEventSource, number>();

/** Each event's block, made once however many clients send it. */
const blocks = new WeakMap<GatewayEvent, string>();

/** The Server-Sent Events block of `event`: `id`, `event` and one `data` line, then a blank line. */
export function eventBlock(event: GatewayEvent): string {
  let block = blocks.get(event);
  if (block === undefined) {
    block = `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
    blocks.set(event, block);
  }
  return block;
}

const utf8 = new TextEncoder();
const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** One client's reading of the stream: a subscription, a queue and a ping timer, all freed by {@link release}. */
class EventStreamReader implements AsyncIterator<Uint8Array> {
  #queue: string[] = [': connected\n\n'];
  #waiting: ((result: IteratorResult<Uint8Array>) => void) | undefined;
  /** No more events: the queue is sent, then the stream ends. */
  #closing = false;
  #lastId = 0;
  readonly #release: () => void;
  readonly #abandon: AbortController;

  constructor(events: GatewayEventSource, abandon: AbortController) {
    this.#abandon = abandon;
    clients.set(events, (clients.get(events) ?? 0) + 1);
    const unsubscribe = events.subscribe((event) => {
      this.#lastId = event.id;
      this.#push(eventBlock(event));
    });
    const timer = setInterval(() => this.#push(': ping\n\n'), PING_INTERVAL_MS);
    (timer as { unref?: () => void }).unref?.();
    let released = false;
    this.#release = () => {
      if (released) return;
      released = true;
      unsubscribe();
      clearInterval(timer);
      clients.set(events, Math.max(0, (clients.get(events) ?? 1) - 1));
    };
  }

  #push(text: string): void {
    if (this.#closing) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting({ done: false, value: utf8.encode(text) });
      return;
    }
    if (this.#queue.length < MAX_QUEUED_EVENTS) {
      this.#queue.push(text);
      return;
    }
    // Too far behind: forget what is queued, stop listening, say so if the client ever reads again, and end.
    this.#queue = [`id: ${this.#lastId}\nevent: overflow\ndata: ${JSON.stringify({ max_queued_events: MAX_QUEUED_EVENTS } satisfies EventData['overflow'])}\n\n`];
    this.#closing = true;
    this.#release();
    this.#abandon.abort();
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#queue.length > 0) {
      let size = 0;
      let count = 0;
      while (count < this.#queue.length && (count === 0 || size + this.#queue[count]!.length <= MAX_CHUNK_CHARS)) size += this.#queue[count++]!.length;
      const text = this.#queue.splice(0, count).join('');
      return Promise.resolve({ done: false, value: utf8.encode(text) });
    }
    if (this.#closing) {
      this.#release();
      return Promise.resolve(DONE);
    }
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    this.#closing = true;
    this.#queue = [];
    this.#release();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(DONE);
    return Promise.resolve(DONE);
  }
}

/**
 * The answer to `GET /__mock/events` for a gateway's `events`.
 *
 * @returns 200 with `Content-Type: text/event-stream`, `Cache-Control: no-store` and the stream as a streamed body
 *   (with its `abandoned` signal); a 503 envelope when {@link MAX_EVENT_CLIENTS} clients already read it.
 */
export function eventStream(events: GatewayEventSource): CoreResponse {
  if ((clients.get(events) ?? 0) >= MAX_EVENT_CLIENTS) {
    return errorResponse(503, {
      message: `Admin API: at most ${MAX_EVENT_CLIENTS} clients may follow GET /__mock/events at once; close one (a dashboard tab) first`,
    });
  }
  const abandon = new AbortController();
  return {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
    body: { [Symbol.asyncIterator]: () => new EventStreamReader(events, abandon), abandoned: abandon.signal },
  };
}

/** How many clients read `events` as a stream now (for tests and the bound). */
export function eventStreamClients(events: GatewayEventSource): number {
  return clients.get(events) ?? 0;
}
