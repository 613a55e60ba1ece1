/**
 * The gateway's events: `GET /__mock/events` (Server-Sent Events) on the standalone server, `gateway.events` in
 * process. A request made after a client connected arrives as `entry` then `entry-done`; clock moves, default
 * scenario changes and resets arrive too; every event has an id. Bounds: 8 clients at once (the 9th gets a 503
 * envelope), 500 queued events per client (past that the client is dropped, and nothing more is kept for it); a
 * client that goes away frees its subscription; a quiet stream gets `: ping` every 15 s.
 */
import { connect, type Socket } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventStream, eventStreamClients, MAX_EVENT_CLIENTS, MAX_QUEUED_EVENTS, PING_INTERVAL_MS } from '../src/core/admin/event-stream.js';
import { GatewayEvents, type GatewayEvent } from '../src/core/journal/gateway-events.js';
import type { JournalEntry } from '../src/core/journal/journal.js';
import { createMockRouter } from '../src/index.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comments: string[];
}

/** A client of `GET /__mock/events` over fetch: the blocks it received, parsed. */
class SseClient {
  readonly events: SseEvent[] = [];
  ended = false;
  #buffer = '';
  readonly #wakers = new Set<() => void>();

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    void this.#read();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const controller = new AbortController();
    const res = await fetch(url, { headers, signal: controller.signal });
    return new SseClient(res, controller);
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body!) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
          const block = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          const event: SseEvent = { comments: [] };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) event.comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = line.slice(0, colon) as 'id' | 'event' | 'data';
              event[field] = line.slice(colon + 1).replace(/^ /, '');
            }
          }
          this.events.push(event);
        }
        for (const wake of this.#wakers) wake();
      }
    } catch {
      // Aborted by close().
    }
    this.ended = true;
    for (const wake of this.#wakers) wake();
  }

  /** Waits until `predicate` holds of the events received (or the stream ended), at most `ms`. */
  async until(predicate: (events: SseEvent[]) => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this.events)) {
      if (this.ended) throw new Error(`the stream ended; received ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; received ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#wakers.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#wakers.add(wake);
      });
    }
  }

  /** The events named `type`, with their JSON data. */
  named<T = unknown>(type: string): { id: number; data: T }[] {
    return this.events.filter((e) => e.event === type).map((e) => ({ id: Number(e.id), data: JSON.parse(e.data!) as T }));
  }

  close(): void {
    this.controller.abort();
  }
}

async function waitFor(condition: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('standalone: GET /__mock/events', () => {
  let server: RunningServer;
  const clients: SseClient[] = [];
  const open = async () => {
    const client = await SseClient.open(`${server.url}/__mock/events`);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 5, clock: '2026-01-01T00:00:00Z', journalSize: 20 });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await waitFor(() => server.gateway.events.listenerCount === 0, 5000, 'every subscription to end');
  });
  afterAll(() => server.close());

  it('streams text/event-stream; a request made after connecting arrives as entry, then entry-done once its body ended', async () => {
    const client = await open();
    expect(client.response.status).toBe(200);
    expect(client.response.headers.get('content-type')).toBe('text/event-stream');
    expect(client.response.headers.get('cache-control')).toBe('no-store');
    await client.until((events) => events.length > 0);
    expect(client.events[0]).toEqual({ comments: ['connected'] });

    const res = await postSpeech(server.baseUrl, { model: TTS, input: 'Watch me arrive.', voice: 'alloy' }, auth());
    const bytes = (await res.arrayBuffer()).byteLength;
    await client.until((events) => events.some((e) => e.event === 'entry-done'));
    const [entry] = client.named<JournalEntry>('entry');
    const [done] = client.named<JournalEntry>('entry-done');
    expect(entry!.data).toMatchObject({ operation: 'speech', status: 200, duration_ms: null, response_bytes: null, body_end: null });
    expect(entry!.data.generation_id).toBe(res.headers.get('x-generation-id'));
    expect(done!.data).toMatchObject({ seq: entry!.data.seq, status: 200, response_bytes: bytes, body_end: 'complete' });
    expect(done!.data.duration_ms).toEqual(expect.any(Number));
    expect(done!.id).toBeGreaterThan(entry!.id);
    // Every event block has an id, event and data line.
    for (const event of client.events.slice(1)) expect(Object.keys(event).sort()).toEqual(['comments', 'data', 'event', 'id']);
    // Admin requests are not journaled, so they make no entry events.
    await fetch(`${server.url}/__mock/requests`);
    await (await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: auth() })).arrayBuffer();
    await client.until((events) => events.filter((e) => e.event === 'entry-done').length === 2);
    expect(client.named<JournalEntry>('entry').map((e) => e.data.path)).toEqual(['/api/v1/audio/speech', '/api/v1/model/openai/gpt-4o']);
  });

  it('sends clock, scenario, journal-cleared and reset events', async () => {
    const client = await open();
    await client.until((events) => events.length > 0);
    const post = (path: string, body?: unknown, method = 'POST') =>
      fetch(`${server.url}/__mock/${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await post('clock', { advance_ms: 60_000 })).status).toBe(200);
    expect((await post('scenario', { name: 'not-found' }, 'PUT')).status).toBe(200);
    expect((await post('requests', undefined, 'DELETE')).status).toBe(204);
    expect((await post('reset')).status).toBe(204);
    await client.until((events) => events.filter((e) => e.event === 'scenario').length === 2);
    expect(client.events.slice(1).map((e) => e.event)).toEqual(['clock', 'scenario', 'journal-cleared', 'journal-cleared', 'reset', 'scenario']);
    expect(client.named('journal-cleared')[0]!.data).toEqual({});
    expect(client.named('clock')[0]!.data).toEqual({ now: '2026-01-01T00:01:00.000+00:00', now_ms: Date.parse('2026-01-01T00:01:00Z'), frozen: true });
    expect(client.named('scenario').map((e) => e.data)).toEqual([{ default: 'not-found' }, { default: null }]);
    expect(client.named('reset')[0]!.data).toEqual({});
    const ids = client.events.slice(1).map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it(`takes ${MAX_EVENT_CLIENTS} clients at once; the next gets a 503 envelope until one leaves`, async () => {
    const first = await Promise.all(Array.from({ length: MAX_EVENT_CLIENTS }, () => open()));
    for (const client of first) expect(client.response.status).toBe(200);
    await waitFor(() => eventStreamClients(server.gateway.events) === MAX_EVENT_CLIENTS);
    const refused = await fetch(`${server.url}/__mock/events`);
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(503);
    expect(body.error.message).toMatch(/at most 8 clients may follow GET \/__mock\/events/);
    first[0]!.close();
    await waitFor(() => eventStreamClients(server.gateway.events) === MAX_EVENT_CLIENTS - 1);
    const again = await open();
    expect(again.response.status).toBe(200);
  });

  it('a client that goes away frees its subscription', async () => {
    const before = server.gateway.events.listenerCount;
    const client = await open();
    await client.until((events) => events.length > 0);
    expect(server.gateway.events.listenerCount).toBe(before + 1);
    client.close();
    await waitFor(() => server.gateway.events.listenerCount === before, 5000, 'the subscription to end');
    expect(eventStreamClients(server.gateway.events)).toBe(0);
  });

  it(`a client that reads but falls ${MAX_QUEUED_EVENTS} events behind gets event: overflow, and the stream ends`, async () => {
    const client = await open();
    await client.until((events) => events.length > 0);
    // Events made in one go, with no chance to write in between: the queue fills at once.
    for (let i = 0; i < MAX_QUEUED_EVENTS + 10; i++) server.gateway.clock.advance(1);
    await client.until(() => client.ended || client.events.some((e) => e.event === 'overflow')).catch(() => undefined);
    await waitFor(() => client.ended, 5000, 'the stream to end');
    const overflow = client.events.find((e) => e.event === 'overflow');
    expect(overflow).toBeDefined();
    expect(JSON.parse(overflow!.data!)).toEqual({ max_queued_events: MAX_QUEUED_EVENTS });
    expect(overflow!.id).toEqual(expect.any(String));
    // What was queued is dropped with the client (it reads the journal again when it reconnects).
    expect(client.named('clock').length).toBeLessThan(10);
    expect(server.gateway.events.listenerCount).toBe(0);
  });

  it('a client that stops reading is dropped past its queue bound: its subscription ends and its connection closes', async () => {
    const socket: Socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    let received = 0;
    let stalled = false;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      // Read the answer's head, then stall.
      if (!stalled) socket.pause();
      stalled = true;
    });
    socket.on('error', () => undefined);
    await waitFor(() => server.gateway.events.listenerCount === 1, 5000, 'the subscription');
    // Big entries (a 60 KB JSON body each), until the socket's buffers are full and the queue bound is passed.
    const body = new TextEncoder().encode(JSON.stringify({ padding: 'z'.repeat(60_000) }));
    let requests = 0;
    while (server.gateway.events.listenerCount > 0 && requests < 5000) {
      for (let i = 0; i < 10; i++) void server.gateway.handle({ method: 'POST', path: '/api/v1/stall', query: '', headers: {}, body });
      requests += 10;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.gateway.events.listenerCount).toBe(0);
    expect(eventStreamClients(server.gateway.events)).toBe(0);
    // Nothing is kept for it any more: more events cost it nothing.
    for (let i = 0; i < 1000; i++) server.gateway.clock.advance(1);
    expect(server.gateway.events.listenerCount).toBe(0);
    // The server closed the connection: reading what was sent reaches its end.
    socket.resume();
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the connection stayed open')), 10_000))]);
    expect(received).toBeGreaterThan(1_000_000);
    expect(requests).toBeLessThan(5000);
  }, 30_000);
});

describe('the event stream body (core)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`sends ": ping" every ${PING_INTERVAL_MS / 1000} s, and stops its timer and subscription when the reader stops`, async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const events = new GatewayEvents();
    const response = eventStream(events);
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const text = async () => new TextDecoder().decode((await iterator.next()).value as Uint8Array);
    expect(await text()).toBe(': connected\n\n');
    expect(events.listenerCount).toBe(1);
    const next = text();
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(await next).toBe(': ping\n\n');
    events.emit('reset', () => ({}));
    expect(await text()).toMatch(/^id: \d+\nevent: reset\ndata: \{\}\n\n$/);
    await iterator.return!();
    expect(events.listenerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('a listener that throws does not disturb the others; its error is reported once, never rethrown', () => {
    const reported: [unknown, string][] = [];
    const events = new GatewayEvents((error, where) => reported.push([error, where]));
    const deferred: (() => void)[] = [];
    const seen: string[] = [];
    events.subscribe(() => {
      throw new Error('listener bug');
    });
    events.subscribe((event) => seen.push(event.type));
    // Only around the emit: msw and undici schedule their own work with queueMicrotask.
    vi.stubGlobal('queueMicrotask', (callback: () => void) => deferred.push(callback));
    try {
      expect(() => events.emit('reset', () => ({}))).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(seen).toEqual(['reset']);
    expect(deferred).toHaveLength(0);
    expect(reported).toHaveLength(1);
    expect((reported[0]![0] as Error).message).toBe('listener bug');
    expect(reported[0]![1]).toBe('event listener (reset)');
  });

  it('is not read until the adapter reads it: no subscription for a response never sent', () => {
    const events = new GatewayEvents();
    const response = eventStream(events);
    expect(response.status).toBe(200);
    expect(events.listenerCount).toBe(0);
    expect(eventStreamClients(events)).toBe(0);
  });
});

describe('in-process: gateway.events', () => {
  const mock = createMockRouter({ seed: 6 });
  const server = mock.attach(setupServer(...mock.handlers));
  beforeAll(() => server.listen(errorOnUnhandled()));
  afterAll(() => server.close());

  it('calls a subscriber with entry and entry-done for each request, and clock, scenario, journal-cleared and reset events; unsubscribing stops it', async () => {
    const seen: GatewayEvent[] = [];
    const stop = mock.gateway.events.subscribe((event) => seen.push(event));
    expect(mock.gateway.events.listenerCount).toBe(1);
    const res = await postSpeech('https://openrouter.ai/api/v1', { model: TTS, input: 'In process.', voice: 'alloy', response_format: 'mp3' }, auth());
    const bytes = (await res.arrayBuffer()).byteLength;
    await waitFor(() => seen.some((e) => e.type === 'entry-done'));
    mock.gateway.clock.advance(1000);
    mock.useScenario('server-error');
    mock.journal.clear();
    mock.reset();
    expect(seen.map((e) => e.type)).toEqual(['entry', 'entry-done', 'clock', 'scenario', 'journal-cleared', 'journal-cleared', 'reset', 'scenario']);
    const [entry, done] = seen as [Extract<GatewayEvent, { type: 'entry' }>, Extract<GatewayEvent, { type: 'entry-done' }>];
    expect(entry.data).toMatchObject({ status: 200, body_end: null, response_bytes: null });
    expect(done.data).toMatchObject({ seq: entry.data.seq, body_end: 'complete', response_bytes: bytes, audio: { format: 'mp3' } });
    expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort((a, b) => a - b));
    stop();
    stop();
    expect(mock.gateway.events.listenerCount).toBe(0);
    mock.gateway.clock.advance(1);
    expect(seen).toHaveLength(8);
  });

});
