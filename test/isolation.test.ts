/**
 * Safe to leave running: no request, listener or journal read can throw into the process.
 * A body nested past the depth bound is a 400 envelope naming the depth, before it is parsed; what the journal keeps
 * always serializes and is bounded in bytes; a listener of the gateway's events that throws is reported once to
 * `onError` and disturbs nothing else; an answer the server cannot send ends only its own request.
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/core/http/request.js';
import { createMockRouter } from '../src/index.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { startServer } from '../src/server/index.js';
import { auth, modes, MSW_MAJOR, type RunningMode } from './support/modes.js';

/** `depth` nested arrays: `[[[...]]]`. */
function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe.each(modes)('$name', (mode) => {
  let running: RunningMode | undefined;
  const reported: [unknown, string][] = [];
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    reported.length = 0;
  });
  const start = async () => (running = await mode.start({ seed: 1, onError: (error, where) => reported.push([error, where]) }));

  it('answers a body nested past the bound with a 400 envelope naming the depth; the journal and its listeners live on', async () => {
    const { baseUrl, gateway } = await start();
    const serialized: string[] = [];
    // A listener that serializes every entry, as the admin event stream does.
    gateway.events.subscribe((event) => serialized.push(JSON.stringify(event.data)));
    const deep = await fetch(`${baseUrl}/audio/speech`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'text/plain' }, body: nested(5000) });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: { message: string } }).error.message).toBe(
      `Invalid JSON body: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    // Without a key it is the 401, and the body is still journaled safely.
    const anonymous = await fetch(`${baseUrl}/audio/speech`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: nested(5000) });
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
    // At the bound itself the body parses (and is then refused for its shape, naming the field).
    const atBound = await fetch(`${baseUrl}/audio/speech`, { method: 'POST', headers: auth(), body: `{"model":${nested(MAX_JSON_DEPTH - 1)}}` });
    expect(atBound.status).toBe(400);
    expect(((await atBound.json()) as { error: { message: string } }).error.message).toMatch(/model/);
    const entries = await gateway.sharedJournal.list();
    expect(entries.map((e) => e.status)).toEqual([400, 401, 400]);
    expect(entries[0]!.body).toBeNull();
    expect(() => JSON.stringify(entries)).not.toThrow();
    expect(serialized.length).toBe(6);
    expect(reported).toEqual([]);
  });

  it('a streamed body that fails by itself (not a scenario cut) is cut after its bytes and reported once', async () => {
    const { baseUrl, gateway } = await start();
    gateway.handle = async () => ({
      status: 200,
      headers: { 'Content-Type': 'audio/pcm' },
      body: (async function* () {
        yield new Uint8Array(100);
        throw new Error('render bug');
      })(),
    });
    const response = await fetch(`${baseUrl}/models/count`, { headers: auth() });
    expect(response.status).toBe(200);
    const read = response.arrayBuffer();
    // msw 3 ends a mocked body cleanly when its stream errors (docs/scenarios.md, "Truncated audio in-process under msw 3").
    if (mode.name === 'msw' && MSW_MAJOR >= 3) await read;
    else await expect(read).rejects.toThrow();
    await expect.poll(() => reported.length).toBe(1);
    expect((reported[0]![0] as Error).message).toBe('render bug');
    expect(reported[0]![1]).toBe('streaming the 200 answer to GET /api/v1/models/count');
  });

  it('a listener that throws is reported once per event and the request is answered as usual', async () => {
    const { baseUrl, gateway } = await start();
    gateway.events.subscribe(() => {
      throw new Error('listener bug');
    });
    const seen: string[] = [];
    gateway.events.subscribe((event) => seen.push(event.type));
    const response = await fetch(`${baseUrl}/models/count`, { headers: auth() });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(seen).toEqual(['entry', 'entry-done']);
    expect(reported.map(([error, where]) => [(error as Error).message, where])).toEqual([
      ['listener bug', 'event listener (entry)'],
      ['listener bug', 'event listener (entry-done)'],
    ]);
    // And the next request too: nothing was left broken.
    expect((await fetch(`${baseUrl}/models/count`, { headers: auth() })).status).toBe(200);
  });
});

describe('the MSW handlers', () => {
  it('answer a fault around the gateway with the 500 envelope (no stack) and report it once', async () => {
    const reported: string[] = [];
    const mock = createMockRouter({ seed: 1, onError: (error, where) => reported.push(`${where}: ${(error as Error).message}`) });
    const server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
    try {
      mock.gateway.handle = () => {
        throw new Error('adapter bug');
      };
      const response = await fetch('https://openrouter.ai/api/v1/models/count', { headers: auth() });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 500, metadata: { error_type: 'server', reason: 'adapter bug' } } });
      expect(text).not.toContain('at ');
      expect(reported).toEqual(['request GET /api/v1/models/count: adapter bug']);
    } finally {
      server.close();
    }
  });
});

describe('the journal is bounded in bytes', () => {
  it('by option journalBytes: the newest entries that fit, always the newest one', async () => {
    expect(() => createMockRouter({ journalBytes: 0 })).toThrow(/^journalBytes: /);
    const mock = createMockRouter({ journalBytes: 3000 });
    const server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
    try {
      for (let i = 0; i < 10; i++) await (await fetch('https://openrouter.ai/api/v1/models/count', { headers: auth() })).arrayBuffer();
      const { journal } = mock.gateway;
      expect(journal.bytes).toBeLessThanOrEqual(3000);
      expect(journal.size).toBeGreaterThanOrEqual(1);
      expect(journal.size).toBeLessThan(10);
      expect(journal.last()!.seq).toBe(10);
    } finally {
      server.close();
    }
  });

  it('keeps the newest entries whose sizes together stay under the bound, each serializable', async () => {
    const mock = createMockRouter({ seed: 1 });
    const server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
    try {
      // 60 KiB bodies (under the 64 KiB kept per body): 600 of them are about 36 MiB, over the 32 MiB bound.
      const input = 'a'.repeat(60 * 1024);
      for (let i = 0; i < 600; i++) {
        const response = await fetch('https://openrouter.ai/api/v1/audio/speech', {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ model: 'no/such-model', input, voice: 'alloy' }),
        });
        await response.arrayBuffer();
      }
      const { journal } = mock.gateway;
      expect(journal.lastSeq).toBe(600);
      expect(journal.size).toBeLessThan(600);
      expect(journal.size).toBeGreaterThan(400);
      expect(journal.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
      expect(journal.last()!.seq).toBe(600);
      expect(JSON.stringify(journal.list()).length).toBeLessThanOrEqual(32 * 1024 * 1024 + journal.size * 2048);
    } finally {
      server.close();
    }
  });
});

describe('the standalone server', () => {
  it('reports an admin route that throws, once, and answers it with the 500 envelope', async () => {
    const reported: string[] = [];
    const server = await startServer({ port: 0, onError: (error, where) => reported.push(`${where}: ${(error as Error).message}`) });
    try {
      server.gateway.reset = () => {
        throw new Error('reset bug');
      };
      const response = await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(500);
      expect(reported).toEqual(['admin POST /__mock/reset: reset bug']);
      expect((await fetch(`${server.url}/__mock/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('survives a deep body while a client follows /__mock/events, and the journal stays readable', async () => {
    const reported: string[] = [];
    const server = await startServer({ port: 0, adminToken: 'admin-secret', onError: (_e, where) => reported.push(where) });
    try {
      const controller = new AbortController();
      const stream = await fetch(`${server.url}/__mock/events`, { headers: auth('admin-secret'), signal: controller.signal });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      await reader.read(); // `: connected`
      const deep = await fetch(`${server.url}/anything`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: nested(5000) });
      // No route: the 404 comes before the body is read (and the body is still journaled safely).
      expect(deep.status).toBe(404);
      await deep.arrayBuffer();
      let text = '';
      while (!text.includes('event: entry-done')) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      const list = await fetch(`${server.url}/__mock/requests`, { headers: auth('admin-secret') });
      expect(list.status).toBe(200);
      const one = await fetch(`${server.url}/__mock/requests/1`, { headers: auth('admin-secret') });
      expect(one.status).toBe(200);
      expect(reported).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
