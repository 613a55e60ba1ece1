/**
 * Option `store` in-process: two `createMockRouter`s (as two test workers would make) and an express
 * `createMiddleware` given the same store URL and prefix are one simulated gateway: one key's credit, one
 * generation sequence, one clock, one default scenario; `reset()` and `useScenario()` resolve once every replica
 * sees them, and `close()` lets the process exit. Driven through `gateway.handle` (no msw interception: three
 * mocks in one process would answer each other's requests).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockRouter, type MockRouter } from '../src/index.js';
import { createMiddleware } from '../src/express/index.js';
import type { CoreRequest } from '../src/core/base/types.js';
import { Redis } from 'ioredis';
import { describeWithRedis } from './support/redis.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest } from './support/speech-request.js';

const KEYS = [{ key: 'sk-shared', credits: 0.01 }];

function keyRequest(): CoreRequest {
  return { method: 'GET', path: '/api/v1/key', query: '', headers: { authorization: 'Bearer sk-shared' } };
}

function speechRequest(input: string): CoreRequest {
  return coreSpeechRequest({ model: TTS, input, voice: 'alloy' }, { authorization: 'Bearer sk-shared', 'content-type': 'application/json' });
}

/** The JSON body of a one-piece answer. */
function json(body: unknown): { data: Record<string, unknown> } {
  return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body as Uint8Array)) as { data: Record<string, unknown> };
}

describeWithRedis('option store in-process', (redis) => {
  let a: MockRouter;
  let b: MockRouter;
  let c: ReturnType<typeof createMiddleware>;
  beforeAll(async () => {
    const options = { keys: KEYS, store: redis.url, storePrefix: 'inprocess:', seed: 4, clock: '2026-03-01T00:00:00Z' };
    a = createMockRouter({ ...options, replicaId: 'a' });
    b = createMockRouter({ ...options, replicaId: 'b' });
    c = createMiddleware({ ...options, replicaId: 'c' });
    await Promise.all([a.gateway.connect(), b.gateway.connect(), c.gateway.connect()]);
    await a.reset();
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('spends one credit: a call on one mock is charged to the key every mock reads, to the exact 402', async () => {
    const before = json((await b.gateway.handle(keyRequest())).body).data.limit_remaining as number;
    expect(before).toBe(0.01);
    const spoken = await a.gateway.handle(speechRequest('Charged once, seen everywhere.'));
    expect(spoken.status).toBe(200);
    const after = json((await c.gateway.handle(keyRequest())).body).data.limit_remaining as number;
    expect(after).toBeLessThan(before);
    // Spend the rest on alternating mocks, with calls of the same price: exactly as many pass as the rest pays for.
    const cost = before - after;
    const paid = Math.floor(after / cost + 1e-9);
    const statuses: number[] = [];
    for (let i = 0; i < paid + 2; i++) statuses.push((await [a, b, c][i % 3]!.gateway.handle(speechRequest('Charged once, seen everywhere.'))).status);
    expect(statuses).toEqual([...Array<number>(paid).fill(200), 402, 402]);
  });

  it('reads a generation made on one mock on another', async () => {
    await a.reset();
    const spoken = await b.gateway.handle(speechRequest('A record for someone else.'));
    const id = spoken.headers['X-Generation-Id']!;
    const found = await c.gateway.handle({ method: 'GET', path: '/api/v1/generation', query: `id=${id}`, headers: { authorization: 'Bearer sk-shared' } });
    expect(found.status).toBe(200);
    expect(json(found.body).data.id).toBe(id);
  });

  it('reset() and useScenario() resolve once the other mocks see them; the clock moves for all', async () => {
    expect((await a.useScenario('rate-limited'))?.name).toBe('rate-limited');
    expect((await b.gateway.handle(keyRequest())).status).toBe(429);
    await b.reset();
    expect((await a.gateway.handle(keyRequest())).status).toBe(200);
    expect(json((await c.gateway.handle(keyRequest())).body).data.limit_remaining).toBe(0.01);
    const before = b.gateway.clock.now();
    a.gateway.clock.advance(86_400_000);
    await a.gateway.sync();
    await b.gateway.sync();
    expect(b.gateway.clock.now()).toBe(before + 86_400_000);
  });

  it('journals every mock in one sequence, each entry naming its replica', async () => {
    await a.reset();
    await a.gateway.handle(keyRequest());
    await b.gateway.handle(keyRequest());
    await c.gateway.handle(keyRequest());
    const entries = await b.gateway.sharedJournal.list();
    expect(entries.map((entry) => entry.replica)).toEqual(['a', 'b', 'c']);
    expect(entries.map((entry) => entry.seq)).toEqual([...entries.map((entry) => entry.seq)].sort((x, y) => x - y));
    // Each mock's own journal holds its own answers, numbered in the shared sequence.
    expect(a.journal.list().map((entry) => entry.seq)).toEqual([entries[0]!.seq]);
  });

  it("empties every mock's own journal when one clears the shared one, and tells their listeners", async () => {
    await b.gateway.handle(keyRequest());
    expect(b.journal.size).toBeGreaterThan(0);
    const heard = new Promise<string>((resolve) => {
      const stop = b.gateway.events.subscribe((event) => {
        if (event.type === 'journal-cleared') {
          stop();
          resolve(event.type);
        }
      });
    });
    await a.reset();
    expect(await heard).toBe('journal-cleared');
    expect(b.journal.size).toBe(0);
    expect(await b.gateway.sharedJournal.list()).toEqual([]);
  });

  it('takes the shared default scenario again after the store lost its keys, though its version counts from 0 again', async () => {
    await a.useScenario('provider-overloaded');
    expect((await b.gateway.handle(keyRequest())).status).toBe(529);
    // The store restarts empty (a flush stands for it): the controls' version counts from 0 again.
    const raw = new Redis(redis.url);
    try {
      const version = Number(await raw.hget('inprocess:control', 'version'));
      await raw.flushall();
      // Counting again from 0, the store reaches the very version b took, with other controls.
      await raw.hset('inprocess:control', 'version', String(version - 1));
    } finally {
      raw.disconnect();
    }
    await a.useScenario(null);
    expect((await b.gateway.handle(keyRequest())).status).toBe(200);
  });
});
