/**
 * Replicas on one Valkey/Redis store, and what the store holds, through the modes a user runs (`startServer({ store })`,
 * `createGateway({ store })`) against a real `redis-server` (`test/support/redis.ts`):
 *
 * - a store that restarts empty starts its journal's numbers over: a replica never serves an entry, or its audio,
 *   from the store's earlier life (`GET /__mock/requests/<seq>` and `.../audio` agree, on every replica);
 * - `POST /__mock/reset` deletes per-key state (ledgers, rate-limit windows, scenario counters) rather than leaving
 *   it to expire, and per-key state is bounded as the memory store bounds it (the least recently used goes first);
 *   what 20,000 keys and their reset cost the store is measured in `npm run test:load` only;
 * - a control hash the simulator cannot read answers a 500 naming the key (`store data invalid at <key>`), not the
 *   503 of a store away, and `POST /__mock/reset` mends it;
 * - the clock: `POST /__mock/clock` with a field it does not take, or a value out of range, is a 400 naming the
 *   field and the range, in memory and with a store; a shared clock out of range is the store's invalid data.
 *
 * Exact under load: each step waits for an answer or an event; time bounds are upper ones only (a store's restart
 * within 15 s, a request within 10 s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { Journal } from '../src/core/journal/journal.js';
import { createMemoryStore } from '../src/core/store/memory-store.js';
import type { GatewayStore } from '../src/core/store/types.js';
import { createRedisStore } from '../src/node-platform/redis-store/redis-store.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { itLoad } from './support/load-layer.js';
import { describeWithRedis, startRedisServer, type RedisServer } from './support/redis.js';
import { waitFor } from './support/replica-faults.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest, postSpeech } from './support/speech-request.js';

const FREE_MODEL = `${TTS}:free`;
/** Upper bound for one request's answer (the store's 2 s command timeout, on a busy machine). */
const ANSWER_WITHIN_MS = 10_000;
/** Upper bound for answers to come back once a killed store is restarted. */
const RECOVER_WITHIN_MS = 15_000;
const SLOW_TEST_MS = 90_000;
/** The largest offset or time the clock takes, epoch ms (`CLOCK_MAX_MS` of `src/core/base/clock.ts`). */
const CLOCK_MAX_MS = 253_402_300_799_999;

interface Envelope {
  error: { code: number; message: string; metadata: Record<string, unknown> | null };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

let prefixes = 0;
const freshPrefix = (): string => `store-state-${process.pid}-${++prefixes}:`;

async function replica(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer({ port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

/** A plain client of `redis`, closed after the test: to look at and spoil what the store holds. */
async function rawClient(redis: RedisServer): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  const raw = new Client(redis.url, { lazyConnect: true });
  await raw.connect();
  cleanups.push(async () => raw.disconnect());
  return raw;
}

function fetchBounded(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
}

/** `POST /audio/speech` of `input` with `key`: status and the body's bytes. */
async function speech(baseUrl: string, input: string, key = 'sk-a', model = TTS): Promise<{ status: number; body: Buffer }> {
  const res = await postSpeech(baseUrl, { model, input, voice: 'alloy', response_format: 'pcm' }, { Authorization: `Bearer ${key}` }, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** `GET <url>` (with a key): status and JSON body. */
async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetchBounded(url, { headers: { Authorization: 'Bearer sk-a' } });
  return { status: res.status, body: (await res.json()) as T };
}

/** `POST <origin>/__mock/<path>` with a JSON body: status and body (JSON, or null when empty). */
async function postAdmin(origin: string, path: string, body?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetchBounded(`${origin}/__mock/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body ?? '' });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

describe('a store that restarts empty: journal entries and their audio come from the store as it is now', () => {
  it(
    'after the store is killed and restarted empty, GET /__mock/requests/<seq> and its audio are the new entry, on the replica that answered it and on another',
    async () => {
      const redis = await startRedisServer();
      cleanups.push(() => redis.stop());
      const shared = { store: redis.url, storePrefix: freshPrefix() };
      const r1 = await replica({ ...shared, replicaId: 'r1' });
      const r2 = await replica({ ...shared, replicaId: 'r2' });

      // The store's first life: six speech answers on r1, seq 1 to 6, each with other words.
      for (let i = 1; i <= 6; i++) expect((await speech(r1.baseUrl, `Old entry number ${i}, said long ago.`)).status).toBe(200);
      expect(r1.gateway.journal.list().map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);

      await redis.kill();
      await redis.restart();
      // Back once the admin API reads the shared controls again (admin requests are not journaled).
      await waitFor('the store answers again', RECOVER_WITHIN_MS, async () => ((await fetchBounded(`${r1.url}/__mock/clock`)).status === 200 ? true : undefined));
      await waitFor('the store answers r2 again', RECOVER_WITHIN_MS, async () => ((await fetchBounded(`${r2.url}/__mock/clock`)).status === 200 ? true : undefined));

      // The second life: the sequence starts over, so these take seq 1 and 2.
      const onR1 = await speech(r1.baseUrl, 'A new life, answered by the first replica.');
      const onR2 = await speech(r2.baseUrl, 'Another new entry, answered by the second replica.');
      expect([onR1.status, onR2.status]).toEqual([200, 200]);

      for (const [seq, input, bytes] of [
        [1, 'A new life, answered by the first replica.', onR1.body],
        [2, 'Another new entry, answered by the second replica.', onR2.body],
      ] as const) {
        for (const server of [r1, r2]) {
          const entry = await getJson<{ seq: number; body: { input: string } }>(`${server.url}/__mock/requests/${seq}`);
          expect(entry.status).toBe(200);
          expect(entry.body.body.input, `entry ${seq} on ${server.url}`).toBe(input);
          const audio = await fetchBounded(`${server.url}/__mock/requests/${seq}/audio`);
          expect(audio.status).toBe(200);
          const replayed = Buffer.from(await audio.arrayBuffer());
          // The audio of that entry, not of the old entry that had the same number.
          expect(replayed.equals(bytes), `audio of entry ${seq} on ${server.url}`).toBe(true);
          const inProcess = await server.gateway.audioOf(seq);
          expect(Buffer.from(inProcess.bytes).equals(bytes)).toBe(true);
        }
      }
      // No entry of the first life is served: seq 3 to 6 are gone with it.
      expect((await fetchBounded(`${r1.url}/__mock/requests/3/audio`)).status).toBe(404);
      // Each process's own copy holds its entries of the store's current run only, in order.
      expect(r1.gateway.journal.list().map((entry) => [entry.seq, (entry.body as { input: string }).input])).toEqual([[1, 'A new life, answered by the first replica.']]);
      expect(r1.gateway.journal.get(3)).toBeUndefined();
      expect(r2.gateway.journal.list().map((entry) => entry.seq)).toEqual([2]);
    },
    SLOW_TEST_MS,
  );
});

describeWithRedis('per-key state in a store: deleted by a reset, bounded as in memory', (redis) => {
  /** The keys under `prefix` that hold per-key state or its bookkeeping, by kind (`window`, `ledgers@`, ...). */
  async function perKeyState(raw: Redis, prefix: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    let cursor = '0';
    do {
      const [next, keys] = await raw.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const kind = /^(window:|ledger:|rule:|windows@|ledgers@|rules@)/.exec(key.slice(prefix.length))?.[1];
        if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
      }
    } while (cursor !== '0');
    return counts;
  }

  it(
    'POST /__mock/reset deletes the ledgers, windows and counters of every key (none left to expire), and the gateway starts afresh',
    async () => {
      const prefix = freshPrefix();
      const raw = await rawClient(redis);
      const scenario = { name: 'first-fails', rules: [{ match: { operation: 'speech' as const }, times: 1, error: { status: 500 } }] };
      const server = await replica({ store: redis.url, storePrefix: prefix, replicaId: 'r1', scenario });
      const KEYS = 120;
      for (let i = 0; i < KEYS; i++) {
        // Per key (its own session): a scenario counter (the session's first speech fails), a :free window and
        // ledger, a usage ledger.
        expect((await speech(server.baseUrl, 'a', `sk-${i}`, FREE_MODEL)).status).toBe(500);
        expect((await speech(server.baseUrl, 'a', `sk-${i}`, FREE_MODEL)).status).toBe(200);
        expect((await speech(server.baseUrl, 'a', `sk-${i}`)).status).toBe(200);
      }
      const before = await perKeyState(raw, prefix);
      expect(before['ledger:']).toBeGreaterThanOrEqual(2 * KEYS); // usage and free
      expect(before['window:']).toBeGreaterThanOrEqual(KEYS);
      expect(before['rule:']).toBeGreaterThanOrEqual(1);

      const reset = await postAdmin(server.url, 'reset');
      expect(reset.status).toBe(204);
      expect(await perKeyState(raw, prefix)).toEqual({});
      expect(await raw.scard(`${prefix}state:stale`)).toBe(0);

      // Afresh: a key's spending is 0, the scenario counts from the first request again.
      const key = await getJson<{ data: { usage: number } }>(`${server.baseUrl}/key`);
      expect(key.body.data.usage).toBe(0);
      expect((await speech(server.baseUrl, 'a', 'sk-0')).status).toBe(500);
    },
    SLOW_TEST_MS,
  );

  itLoad(
    'MEASUREMENT: 20,000 distinct keys, then a reset: DBSIZE and used_memory before and after (logged); no per-key state is left',
    async () => {
      const store = await startRedisServer();
      cleanups.push(() => store.stop());
      const raw = await rawClient(store);
      const gateway = createGateway({ store: store.url, storePrefix: 'measure:', replicaId: 'm' });
      cleanups.push(() => gateway.close());
      await gateway.connect();
      const figures = async (): Promise<{ keys: number; usedMemory: number }> => ({
        keys: await raw.dbsize(),
        usedMemory: Number(/used_memory:(\d+)/.exec(await raw.info('memory'))![1]),
      });
      const KEYS = 20_000;
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < KEYS) {
            const i = next++;
            const response = await gateway.handle(coreSpeechRequest({ model: TTS, input: 'a', voice: 'alloy', response_format: 'pcm' }, { authorization: `Bearer sk-measure-${i}`, 'content-type': 'application/json' }));
            const body = response.body;
            if (body !== null && typeof body === 'object' && Symbol.asyncIterator in body) for await (const chunk of body as AsyncIterable<Uint8Array>) void chunk;
            response.onDone?.();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          }
        }),
      );
      expect([...statuses]).toEqual([[200, KEYS]]);
      const before = await figures();
      const stateBefore = await perKeyState(raw, 'measure:');
      expect(stateBefore['ledger:']).toBe(KEYS);
      const started = performance.now();
      gateway.reset();
      await gateway.sync();
      const resetMs = performance.now() - started;
      const after = await figures();
      expect(await perKeyState(raw, 'measure:')).toEqual({});
      // What stays: the generation records (maxGenerations, 10,000 by default) and a few keys of the gateway's own.
      expect(after.keys).toBeLessThanOrEqual(before.keys - KEYS);
      console.log(
        `${KEYS} distinct keys (one paid speech call each), then a reset: DBSIZE ${before.keys} -> ${after.keys} ` +
          `(per-key state ${JSON.stringify(stateBefore)} -> none), used_memory ${(before.usedMemory / 1e6).toFixed(1)} MB -> ` +
          `${(after.usedMemory / 1e6).toFixed(1)} MB, the reset took ${resetMs.toFixed(0)} ms`,
      );
    },
    SLOW_TEST_MS * 3,
  );

  /** The same operations on a store bounded to 3 per kind: what was least recently used is gone. */
  async function boundedCases(store: GatewayStore): Promise<unknown[]> {
    const T0 = Date.UTC(2026, 0, 15, 12);
    const limit = { requests: 1, interval_s: 60 };
    const seen: unknown[] = [];
    for (const scope of ['a', 'b', 'c']) await store.countWindow(scope, limit, T0);
    await store.countWindow('a', limit, T0); // a use of 'a': 'b' is now the least recently used
    await store.countWindow('d', limit, T0); // 'b' goes
    seen.push(await store.countWindow('a', limit, T0), await store.countWindow('b', limit, T0), await store.countWindow('c', limit, T0));
    for (const digest of ['d1', 'd2', 'd3']) await store.charge(digest, null, 1, T0);
    await store.ledger('usage', 'd1'); // a read is a use too
    await store.addToLedger('free', 'd4', 1, T0); // 'd2' goes, both its ledgers
    seen.push((await store.ledger('usage', 'd1')).total, (await store.ledger('usage', 'd2')).total, (await store.ledger('usage', 'd3')).total);
    for (const slot of ['s1', 's2', 's3', 's4']) await store.countRule(slot); // 's1' goes
    seen.push(await store.countRule('s1'), await store.countRule('s4'));
    return seen;
  }

  it('bounds per-key state as the memory store does: past the bound the least recently used goes, its keys deleted', async () => {
    const memory = await boundedCases(createMemoryStore({ journal: new Journal(5), maxGenerations: 3, replica: 'memory', stateBound: 3 }));
    const prefix = freshPrefix();
    const store = createRedisStore({ url: redis.url, prefix, replica: 'r', journalSize: 5, maxGenerations: 3, stateBound: 3 });
    cleanups.push(() => store.close());
    const shared = await boundedCases(store);
    expect(shared).toEqual(memory);
    expect(memory).toEqual([{ allowed: false, resetMs: expect.any(Number) }, { allowed: true }, { allowed: true }, 1, 0, 1, 0, 1]);
    const raw = await rawClient(redis);
    const held = await perKeyState(raw, prefix);
    expect(held).toEqual({ 'window:': 3, 'windows@': 1, 'ledger:': 3, 'ledgers@': 1, 'rule:': 3, 'rules@': 1 });
  });
});

describeWithRedis('a control hash the simulator cannot read', (redis) => {
  async function setUp(options: Parameters<typeof startServer>[0] = {}): Promise<{ server: RunningServer; raw: Redis; prefix: string }> {
    const prefix = freshPrefix();
    const server = await replica({ store: redis.url, storePrefix: prefix, replicaId: 'r1', ...options });
    const raw = await rawClient(redis);
    // The store's controls exist once a replica wrote them: a move of the clock does.
    expect((await postAdmin(server.url, 'clock', '{"advance_ms": 0}')).status).toBe(200);
    return { server, raw, prefix };
  }

  /** The 500 of invalid store data at `key`, naming `what`, for a request and for an admin read. */
  async function expectInvalid(server: RunningServer, key: string, what: string): Promise<void> {
    for (const url of [`${server.baseUrl}/models`, `${server.url}/__mock/clock`]) {
      const { status, body } = await getJson<Envelope>(url);
      expect(status, url).toBe(500);
      expect(body.error.message).toContain(`store data invalid at ${key}`);
      expect(body.error.message).toContain(what);
      expect(body.error.message).not.toMatch(/unavailable/);
      expect(body.error.message).toContain('POST /__mock/reset');
    }
  }

  it.each([
    ['a clock that is not JSON', 'clock', 'garbage', 'field clock: not JSON'],
    ['a clock offset of 1e300', 'clock', '{"offsetMs":1e300,"frozenAtMs":null}', `field clock: offsetMs: expected a number of ms from -${CLOCK_MAX_MS} to ${CLOCK_MAX_MS}, got 1e+300`],
    ['a clock frozen past 9999', 'clock', '{"offsetMs":0,"frozenAtMs":1e300}', 'field clock: frozenAtMs: expected a time within years 1970–9999'],
    ['a scenario of no known kind', 'scenario', '{"kind":"weird"}', 'field scenario: expected {"kind": "initial" | "none"}'],
    ['a scenario that is not JSON', 'scenario', '{', 'field scenario: not JSON'],
  ])('%s answers a 500 naming the key and the field, and POST /__mock/reset mends it', async (_what, field, value, what) => {
    const { server, raw, prefix } = await setUp();
    await raw.hset(`${prefix}control`, field, value);
    await expectInvalid(server, `${prefix}control`, what);
    // A reset does not need to read the controls first: it rewrites them.
    expect((await postAdmin(server.url, 'reset')).status).toBe(204);
    expect((await getJson(`${server.baseUrl}/models`)).status).toBe(200);
    const clock = await getJson<{ now_ms: number }>(`${server.url}/__mock/clock`);
    expect(clock.status).toBe(200);
    expect(clock.body.now_ms).toBeLessThanOrEqual(CLOCK_MAX_MS);
  });

  it('a control key of another type answers a 500 naming it; a reset replaces it, and the state of the old epochs goes too', async () => {
    const { server, raw, prefix } = await setUp();
    expect((await speech(server.baseUrl, 'a')).status).toBe(200); // a usage ledger of the current epoch
    await raw.del(`${prefix}control`);
    await raw.set(`${prefix}control`, 'not a hash');
    await expectInvalid(server, `${prefix}control`, 'WRONGTYPE');
    expect((await speech(server.baseUrl, 'a')).status).toBe(500);
    expect((await postAdmin(server.url, 'reset')).status).toBe(204);
    expect(await raw.type(`${prefix}control`)).toBe('hash');
    expect((await getJson(`${server.baseUrl}/models`)).status).toBe(200);
    expect(await raw.keys(`${prefix}ledger*`)).toEqual([]);
  });

  it('a reset keeps a valid clock while it mends the other fields', async () => {
    const { server, raw, prefix } = await setUp({ clock: '2026-01-01T00:00:00Z' });
    expect((await postAdmin(server.url, 'clock', '{"advance_ms": 60000}')).status).toBe(200);
    await raw.hset(`${prefix}control`, 'scenario', 'nonsense');
    await expectInvalid(server, `${prefix}control`, 'field scenario');
    expect((await postAdmin(server.url, 'reset')).status).toBe(204);
    const clock = await getJson<{ now_ms: number; frozen: boolean }>(`${server.url}/__mock/clock`);
    expect(clock.body).toMatchObject({ now_ms: Date.parse('2026-01-01T00:01:00Z'), frozen: true });
  });

  it('per-key state of another type answers a 500 naming that key, and a reset deletes it', async () => {
    const { server, raw, prefix } = await setUp();
    expect((await speech(server.baseUrl, 'a')).status).toBe(200);
    const [ledger] = await raw.keys(`${prefix}ledger:usage:*`);
    await raw.del(ledger!);
    await raw.set(ledger!, 'not a hash');
    const { status, body } = await getJson<Envelope>(`${server.baseUrl}/key`);
    expect(status).toBe(500);
    expect(body.error.message).toMatch(new RegExp(`store data invalid at ${prefix}ledger:usage:[0-9a-f]+@<epoch> \\(holds a string, expected a hash\\); POST /__mock/reset`));
    expect((await postAdmin(server.url, 'reset')).status).toBe(204);
    expect((await getJson(`${server.baseUrl}/key`)).status).toBe(200);
    expect(await raw.exists(ledger!)).toBe(0);
  });
});

/** The clock's bodies that must be refused, with the start of the message (the field and the range). */
const REFUSED_CLOCK_BODIES: [string, string, RegExp][] = [
  ['offsetMs 1e300 (how a store keeps the clock, not a field of the request)', '{"offsetMs": 1e300}', /^offsetMs: not a field of POST \/__mock\/clock, which takes \{"advance_ms": <whole ms from 0 to \d+>\} or \{"now": "<ISO 8601 time within years 1970–9999>"\}$/],
  ['frozenAtMs', '{"frozenAtMs": 1e300}', /^frozenAtMs: not a field of POST \/__mock\/clock/],
  ['offsetMs beside advance_ms', '{"advance_ms": 1, "offsetMs": -1e300}', /^offsetMs: not a field/],
  ['advance_ms 1e300', '{"advance_ms": 1e300}', /^advance_ms: expected a whole number of ms from 0 to \d+ \(the clock stays within years 1970–9999\), got 1e\+300$/],
  ['advance_ms infinite', '{"advance_ms": 1e999}', /^advance_ms: expected a whole number of ms ≥ 0, got Infinity$/],
  ['advance_ms negative and huge', '{"advance_ms": -1e300}', /^advance_ms: expected a whole number of ms from 0 to \d+ .*got -1e\+300$/],
  ['now past 9999', '{"now": "+275760-09-13T00:00:00Z"}', /^now: expected an ISO 8601 time/],
  ['now before 1970', '{"now": "0001-01-01T00:00:00Z"}', /^now: expected a time within years 1970–9999 \(whole epoch ms from 0 to 253402300799999\)/],
];

describe('POST /__mock/clock refuses out-of-range and unknown fields with a 400 (in memory)', () => {
  it.each(REFUSED_CLOCK_BODIES)('%s', async (_what, body, message) => {
    const server = await replica({ clock: '2026-01-01T00:00:00Z' });
    const answer = await postAdmin(server.url, 'clock', body);
    expect(answer.status).toBe(400);
    expect((answer.body as Envelope).error.message).toMatch(message);
    expect(server.gateway.clock.now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect((await getJson(`${server.url}/__mock/clock`)).status).toBe(200);
  });
});

describeWithRedis('POST /__mock/clock refuses out-of-range and unknown fields with a 400 (with a store)', (redis) => {
  it.each(REFUSED_CLOCK_BODIES)('%s', async (_what, body, message) => {
    const server = await replica({ store: redis.url, storePrefix: freshPrefix(), clock: '2026-01-01T00:00:00Z' });
    const answer = await postAdmin(server.url, 'clock', body);
    expect(answer.status).toBe(400);
    expect((answer.body as Envelope).error.message).toMatch(message);
    const clock = await getJson<{ now_ms: number }>(`${server.url}/__mock/clock`);
    expect(clock).toEqual({ status: 200, body: expect.objectContaining({ now_ms: Date.parse('2026-01-01T00:00:00Z') }) });
    expect((await getJson(`${server.baseUrl}/models`)).status).toBe(200);
  });
});
