/**
 * The Redis store (`src/node-platform/redis-store/`) against a real `redis-server` (`test/support/redis.ts`):
 * every method with the memory store's semantics (the same cases run against `createMemoryStore`, so the two are
 * seen to agree), exact charges from two connections at once, reset, the generations' bound, the journal, the
 * shared controls, events between two stores, and a store that goes away and comes back.
 *
 * Exact under load: each test works under its own key prefix; waits are on events or on a retry loop with a
 * generous upper bound, never on a fixed sleep.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerationRecord } from '../src/core/formats/fixture-schema.js';
import { GatewayError } from '../src/core/base/error-envelope.js';
import { Journal, type JournalEntry } from '../src/core/journal/journal.js';
import { createMemoryStore } from '../src/core/store/memory-store.js';
import type { GatewayStore, RemoteEvent } from '../src/core/store/types.js';
import { StoreUnavailableError } from '../src/core/store/unavailable.js';
import { StoreConnectError } from '../src/core/base/errors.js';
import { createRedisStore } from '../src/node-platform/redis-store/redis-store.js';
import { parseStoreUrl } from '../src/node-platform/redis-store/url.js';
import { describeWithRedis } from './support/redis.js';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 0, 15, 12);

/** A journal entry as the gateway records it (no `seq`), with the fields a filter reads. */
function entry(session: string, status = 200, operation: JournalEntry['operation'] = 'speech'): Omit<JournalEntry, 'seq'> {
  return {
    time: T0,
    time_iso: new Date(T0).toISOString(),
    replica: 'test',
    session,
    method: 'POST',
    path: '/api/v1/audio/speech',
    query: {},
    headers: { 'content-type': 'application/json' },
    body: { input: 'hello' },
    operation,
    scenario: null,
    rule: null,
    status,
    response_headers: {},
    generation_id: null,
    duration_ms: null,
    response_bytes: null,
    body_end: null,
    error: null,
    audio: null,
  };
}

/** A speech call's record, compact. */
function generation(id: string): { id: string; record(): GenerationRecord } {
  return { id, record: () => ({ id, total_cost: 0.001, model: 'openai/gpt-4o-mini-tts' }) as unknown as GenerationRecord };
}

/** The 503 of a store that is away, naming it. */
async function expectUnavailable(pending: unknown, description: string): Promise<void> {
  const error = await Promise.resolve(pending).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect(error).toBeInstanceOf(GatewayError);
  expect((error as GatewayError).status).toBe(503);
  expect((error as GatewayError).message).toContain(description);
}

/** A TCP port with nothing listening on 127.0.0.1 (a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('store URL', () => {
  it('never quotes a password, whatever it holds, in the message of a URL that does not parse', () => {
    expect(() => parseStoreUrl('redis://user:pa/ss@bad host:6379/0')).toThrow(/redis:\/\/\*\*\*@bad host/);
    expect(() => parseStoreUrl('redis://user:pa/ss@bad host:6379/0')).not.toThrow(/pa\/ss/);
  });

  it('names the store without credentials, with port and database', () => {
    expect(parseStoreUrl('redis://127.0.0.1:6399').description).toBe('redis://127.0.0.1:6399/0');
    expect(parseStoreUrl('redis://user:secret@cache/3').description).toBe('redis://cache:6379/3');
    expect(parseStoreUrl('rediss://:secret@cache:6380/1')).toMatchObject({ tls: true, description: 'rediss://cache:6380/1' });
  });

  it('refuses other schemes and databases, naming the URL without its password and what was expected', () => {
    expect(() => parseStoreUrl('http://user:secret@cache:6379')).toThrow('store: expected a redis:// or rediss:// URL (redis://host:6379/0), got http://cache:6379/');
    expect(() => parseStoreUrl('http://user:secret@cache:6379')).not.toThrow(/secret/);
    expect(() => parseStoreUrl('not a url')).toThrow(/expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseStoreUrl('redis://cache/x')).toThrow('store: the database of redis://cache/x must be a whole number');
    expect(() => createRedisStore({ url: 'memcached://cache', prefix: 'p:', replica: 'a', journalSize: 10, maxGenerations: 10 })).toThrow(/memcached:\/\/cache/);
  });

  it('loads ioredis only when a store is opened', () => {
    const probe = [
      "const { createRequire } = await import('node:module');",
      "const cache = createRequire(import.meta.url).cache;",
      "const loaded = () => Object.keys(cache).some((file) => file.includes('/node_modules/ioredis/'));",
      "const { createRedisStore } = await import('./src/node-platform/redis-store/redis-store.ts');",
      "await import('./src/node-platform/platform.ts');",
      'const before = loaded();',
      "const store = createRedisStore({ url: 'redis://127.0.0.1:1', prefix: 'p:', replica: 'a', journalSize: 1, maxGenerations: 1 });",
      'console.log(JSON.stringify({ before, after: loaded() }));',
      'await store.close();',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout.trim())).toEqual({ before: false, after: true });
  }, 60_000);
});

let prefixes = 0;
const open: GatewayStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

/** The same cases, against the memory store and against the Redis store, so that both are seen to agree. */
function sharedCases(make: (options: { journalSize: number; maxGenerations: number }) => GatewayStore): void {
  const store = (journalSize = 5, maxGenerations = 3): GatewayStore => {
    const made = make({ journalSize, maxGenerations });
    open.push(made);
    return made;
  };

  it('counts fixed windows: a window starts at its first request, a new one at its end or when the clock goes back', async () => {
    const s = store();
    const limit = { requests: 2, interval_s: 10 };
    expect(await s.countWindow('k', limit, T0)).toEqual({ allowed: true });
    expect(await s.countWindow('k', limit, T0 + 1000)).toEqual({ allowed: true });
    expect(await s.countWindow('k', limit, T0 + 9999)).toEqual({ allowed: false, resetMs: T0 + 10_000 });
    expect(await s.countWindow('other', limit, T0 + 9999)).toEqual({ allowed: true });
    expect(await s.countWindow('k', limit, T0 + 10_000)).toEqual({ allowed: true }); // new window at T0+10s
    expect(await s.countWindow('k', limit, T0 + 10_001)).toEqual({ allowed: true });
    expect(await s.countWindow('k', limit, T0 + 10_002)).toEqual({ allowed: false, resetMs: T0 + 20_000 });
    expect(await s.countWindow('k', limit, T0 - 5000)).toEqual({ allowed: true }); // clock moved back: a new window
    expect(await s.countWindow('k', limit, T0 - 4999.5)).toEqual({ allowed: true });
    expect(await s.countWindow('k', limit, T0 - 4999)).toEqual({ allowed: false, resetMs: T0 + 5000 });
    const fractional = { requests: 1, interval_s: 0.25 };
    expect(await s.countWindow('f', fractional, T0)).toEqual({ allowed: true });
    expect(await s.countWindow('f', fractional, T0 + 249)).toEqual({ allowed: false, resetMs: T0 + 250 });
  });

  it('charges against a limit, refusing without writing, and keeps sums by UTC day rounded like roundUsd', async () => {
    const s = store();
    expect(await s.ledger('usage', 'd1')).toEqual({ total: 0, days: new Map() });
    expect(await s.charge('d1', 0.3, 0.1, T0)).toBe(true);
    expect(await s.charge('d1', 0.3, 0.2, T0 + DAY_MS)).toBe(true);
    expect(await s.charge('d1', 0.3, 0.000_001, T0 + DAY_MS)).toBe(false); // 0.1 + 0.2 spent: nothing left
    expect(await s.charge('d1', null, 1.5, T0 + 2 * DAY_MS)).toBe(true);
    expect(await s.ledger('usage', 'd1')).toEqual({
      total: 1.8,
      days: new Map([
        [Math.floor(T0 / DAY_MS), 0.1],
        [Math.floor(T0 / DAY_MS) + 1, 0.2],
        [Math.floor(T0 / DAY_MS) + 2, 1.5],
      ]),
    });
    // Days older than 40 before the latest addition go (they stay in the total).
    await s.addToLedger('usage', 'd1', 0.000_000_000_0004, T0 + 42 * DAY_MS);
    const later = await s.ledger('usage', 'd1');
    expect(later.total).toBe(1.8);
    expect([...later.days.keys()].sort()).toEqual([Math.floor(T0 / DAY_MS) + 2, Math.floor(T0 / DAY_MS) + 42]);
    expect(later.days.get(Math.floor(T0 / DAY_MS) + 42)).toBe(0);
    await s.addToLedger('free', 'd1', 1, T0);
    await s.addToLedger('free', 'd1', 1, T0);
    expect(await s.ledger('free', 'd1')).toEqual({ total: 2, days: new Map([[Math.floor(T0 / DAY_MS), 2]]) });
    expect((await s.ledger('usage', 'd2')).total).toBe(0);
  });

  it('counts scenario counters from 0, restarted by setScenario (and a reset)', async () => {
    const s = store();
    expect(await s.countRule('slot-a')).toBe(0);
    expect(await s.countRule('slot-a')).toBe(1);
    expect(await s.countRule('slot-b')).toBe(0);
    await s.setScenario({ kind: 'name', name: 'flaky' });
    expect(await s.countRule('slot-a')).toBe(0);
    await s.reset();
    expect(await s.countRule('slot-a')).toBe(0);
  });

  it('gives serials 0, 1, 2 and keeps generations up to the bound, the least recently used going first', async () => {
    const s = store(5, 2);
    expect([await s.nextSerial(), await s.nextSerial(), await s.nextSerial()]).toEqual([0, 1, 2]);
    await s.putGeneration(generation('gen-1'), T0);
    await s.putGeneration(generation('gen-2'), T0 + 5);
    expect(await s.getGeneration('gen-1')).toEqual({ body: JSON.stringify({ data: generation('gen-1').record() }), readyAt: T0 });
    await s.putGeneration(generation('gen-3'), T0 + 10); // gen-1 was looked up: gen-2 goes
    expect(await s.getGeneration('gen-2')).toBeUndefined();
    expect((await s.getGeneration('gen-3'))?.readyAt).toBe(T0 + 10);
    await s.putGeneration(generation('gen-4'), -Infinity); // gen-1 is now the least recently used
    expect(await s.getGeneration('gen-1')).toBeUndefined();
    expect(await s.getGeneration('gen-3')).toEqual({ body: JSON.stringify({ data: generation('gen-3').record() }), readyAt: T0 + 10 });
    expect((await s.getGeneration('gen-4'))?.readyAt).toBe(-Infinity);
    expect(await s.getGeneration('gen-none')).toBeUndefined();
  });

  it('keeps no generation with a bound of 0', async () => {
    const s = store(5, 0);
    await s.putGeneration(generation('gen-0'), T0);
    expect(await s.getGeneration('gen-0')).toBeUndefined();
  });

  it('reset clears ledgers, windows, counters and the journal; keeps generations, serials and the journal sequence', async () => {
    const s = store();
    const limit = { requests: 1, interval_s: 60 };
    await s.countWindow('k', limit, T0);
    expect(await s.countWindow('k', limit, T0)).toEqual({ allowed: false, resetMs: T0 + 60_000 });
    await s.charge('d', 1, 1, T0);
    expect(await s.charge('d', 1, 0.5, T0)).toBe(false);
    await s.countRule('slot');
    await s.nextSerial();
    await s.putGeneration(generation('gen-kept'), T0);
    await s.journal.record(entry('s'), 10);
    await s.journal.record(entry('s'), 10);

    await s.reset();
    expect(await s.countWindow('k', limit, T0)).toEqual({ allowed: true });
    expect(await s.ledger('usage', 'd')).toEqual({ total: 0, days: new Map() });
    expect(await s.charge('d', 1, 0.5, T0)).toBe(true);
    expect(await s.countRule('slot')).toBe(0);
    expect(await s.nextSerial()).toBe(1);
    expect(await s.getGeneration('gen-kept')).toBeDefined();
    expect(await s.journal.list()).toEqual([]);
    expect(await s.journal.lastSeq()).toBe(2);
    expect((await s.journal.record(entry('s'), 10)).entry.seq).toBe(3);
  });

  it('journals in order, bounded to the newest entries, with filters, paging, get and clear', async () => {
    const s = store(5);
    expect(await s.journal.lastSeq()).toBe(0);
    const recorded: JournalEntry[] = [];
    for (let i = 1; i <= 7; i++) recorded.push((await s.journal.record(entry(i % 2 ? 'odd' : 'even', i === 6 ? 429 : 200, i === 7 ? 'key' : 'speech'), 10)).entry);
    expect(recorded.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await s.journal.lastSeq()).toBe(7);
    const seqs = (entries: JournalEntry[]): number[] => entries.map((e) => e.seq);
    expect(seqs(await s.journal.list())).toEqual([3, 4, 5, 6, 7]);
    expect(seqs(await s.journal.list({ session: 'odd' }))).toEqual([3, 5, 7]);
    expect(seqs(await s.journal.list({ status: 429 }))).toEqual([6]);
    expect(seqs(await s.journal.list({ operation: 'key' }))).toEqual([7]);
    expect(seqs(await s.journal.after(0))).toEqual([3, 4, 5, 6, 7]);
    expect(seqs(await s.journal.after(4, 2))).toEqual([5, 6]);
    expect(seqs(await s.journal.after(3, 2, { session: 'odd' }))).toEqual([5, 7]);
    expect(seqs(await s.journal.after(7))).toEqual([]);
    expect(() => s.journal.after(-1)).toThrow(new RangeError('seq: expected a whole number ≥ 0, got -1'));
    expect(() => s.journal.after(1.5)).toThrow(new RangeError('seq: expected a whole number ≥ 0, got 1.5'));
    expect(() => s.journal.after(0, 0)).toThrow(new RangeError('limit: expected a whole number ≥ 1, got 0'));
    expect(await s.journal.get(2)).toBeUndefined();
    expect(await s.journal.get(8)).toBeUndefined();
    expect(await s.journal.get(3)).toEqual({ ...entry('odd'), seq: 3 });

    await s.journal.clear();
    expect(await s.journal.list()).toEqual([]);
    expect(await s.journal.get(7)).toBeUndefined();
    expect(await s.journal.lastSeq()).toBe(7);
    expect((await s.journal.record(entry('odd'), 10)).entry.seq).toBe(8);
    expect(seqs(await s.journal.list())).toEqual([8]);
  });

  it('shows the fields an entry gets when its answer ends', async () => {
    const s = store(3);
    const { entry: first } = await s.journal.record(entry('s'), 10);
    expect(first).toMatchObject({ seq: 1, status: 200, duration_ms: null, body_end: null });
    first.status = 0;
    first.duration_ms = 12.5;
    first.response_bytes = 0;
    first.body_end = 'reset';
    await s.journal.finish(first);
    const read = await s.journal.get(1);
    expect(read).toEqual({ ...entry('s'), seq: 1, status: 0, duration_ms: 12.5, response_bytes: 0, body_end: 'reset' });
    expect(Object.keys(read!)).toEqual(Object.keys({ ...entry('s'), seq: 1 }));
    expect(await s.journal.list({ status: 0 })).toEqual([read]);
  });

  it('remembers said audio by its hash, and keeps it through a reset', async () => {
    const s = store();
    const hash = 'a'.repeat(64);
    expect(await s.recallSaid(hash)).toBeUndefined();
    await s.rememberSaid(hash, '{"input":"hello"}');
    expect(await s.recallSaid(hash)).toBe('{"input":"hello"}');
    await s.rememberSaid(hash, '{"input":"again"}');
    expect(await s.recallSaid(hash)).toBe('{"input":"again"}');
    await s.reset();
    expect(await s.recallSaid(hash)).toBe('{"input":"again"}');
  });
}

describe('memory store (the reference)', () => {
  sharedCases(({ journalSize, maxGenerations }) => createMemoryStore({ journal: new Journal(journalSize), maxGenerations, replica: 'memory' }));
});

describeWithRedis('Redis store', (redis) => {
  const openRedis = (options: { journalSize?: number; maxGenerations?: number; prefix?: string; replica?: string; url?: string; onStatus?: (message: string) => void } = {}): GatewayStore => {
    const store = createRedisStore({
      url: options.url ?? redis.url,
      prefix: options.prefix ?? `t${++prefixes}:`,
      replica: options.replica ?? 'replica-a',
      journalSize: options.journalSize ?? 5,
      maxGenerations: options.maxGenerations ?? 3,
      onStatus: options.onStatus,
    });
    open.push(store);
    return store;
  };
  const description = (): string => `redis://127.0.0.1:${redis.port}/0`;

  describe('agrees with the memory store', () => {
    sharedCases((options) => openRedis(options));
  });

  it('bounds said audio by entries and by bytes, the least recently used going first; a read is a use', async () => {
    const prefix = `t${++prefixes}:`;
    const a = createRedisStore({ url: redis.url, prefix, replica: 'a', journalSize: 5, maxGenerations: 3, saidBound: { entries: 3, bytes: 40 } });
    const b = createRedisStore({ url: redis.url, prefix, replica: 'b', journalSize: 5, maxGenerations: 3, saidBound: { entries: 3, bytes: 40 } });
    open.push(a, b);
    const hash = (n: number) => String(n).repeat(64).slice(0, 64);
    await a.rememberSaid(hash(1), 'one.......');
    await b.rememberSaid(hash(2), 'two.......');
    await a.rememberSaid(hash(3), 'three.....');
    expect(await b.recallSaid(hash(1))).toBe('one.......'); // 1 is now the most recently used
    await b.rememberSaid(hash(4), 'four......'); // past 3 entries: 2 goes
    expect(await a.recallSaid(hash(2))).toBeUndefined();
    expect(await a.recallSaid(hash(3))).toBe('three.....');
    // The read of 3 made it more recent than 4. 10 + 10 + 10 + 21 bytes, past 40: the two least recent, 1 and 4, go.
    await a.rememberSaid(hash(5), 'five-five-five-five..');
    expect(await b.recallSaid(hash(1))).toBeUndefined();
    expect(await b.recallSaid(hash(4))).toBeUndefined();
    expect(await b.recallSaid(hash(3))).toBe('three.....');
    expect(await b.recallSaid(hash(5))).toBe('five-five-five-five..');
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      expect(Number(await raw.get(`${prefix}said:bytes`))).toBe(31);
      expect(await raw.zcard(`${prefix}said`)).toBe(2);
    } finally {
      raw.disconnect();
    }
  });

  it('drops as many said audios as one write takes to bring the bytes under the bound, and keeps none longer alone than it', async () => {
    const prefix = `t${++prefixes}:`;
    const s = createRedisStore({ url: redis.url, prefix, replica: 'a', journalSize: 5, maxGenerations: 3, saidBound: { entries: 1000, bytes: 300 } });
    open.push(s);
    const hash = (n: number) => n.toString(16).padStart(64, '0');
    for (let n = 0; n < 250; n++) await s.rememberSaid(hash(n), 'x'); // 250 entries, 250 bytes
    await s.rememberSaid(hash(999), 'y'.repeat(240)); // 490 bytes: the 190 least recently used go, in one write
    expect(await s.recallSaid(hash(189))).toBeUndefined();
    expect(await s.recallSaid(hash(190))).toBe('x');
    expect(await s.recallSaid(hash(999))).toBe('y'.repeat(240));
    await s.rememberSaid(hash(1000), 'z'.repeat(301)); // longer than the bound alone: not kept, nothing dropped
    expect(await s.recallSaid(hash(1000))).toBeUndefined();
    expect(await s.recallSaid(hash(249))).toBe('x');
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      expect(Number(await raw.get(`${prefix}said:bytes`))).toBe(300);
      expect(await raw.zcard(`${prefix}said`)).toBe(61);
      // A said entry of another type: the store's invalid data (a 500 naming the key), as a generation record's.
      await raw.hset(`${prefix}said-entry:${hash(7)}`, 'not', 'a string');
      await expect(s.recallSaid(hash(7))).rejects.toMatchObject({ status: 500, message: expect.stringContaining(`${prefix}said-entry:${hash(7)}`) });
    } finally {
      raw.disconnect();
    }
  });

  it('is shared, named by its URL, and ready once connected', async () => {
    const store = openRedis();
    expect(store.shared).toBe(true);
    expect(store.description).toBe(description());
    await store.ready();
    expect(await store.nextSerial()).toBe(0);
  });

  it('charges exactly from two replicas at once: 200 parallel charges of 0.01 against 1.00, exactly 100 pass', async () => {
    const prefix = `t${++prefixes}:`;
    const a = openRedis({ prefix, replica: 'a' });
    const b = openRedis({ prefix, replica: 'b' });
    await Promise.all([a.ready(), b.ready()]);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).charge('shared', 1, 0.01, T0)));
    expect(results.filter(Boolean)).toHaveLength(100);
    expect((await a.ledger('usage', 'shared')).total).toBe(1);
    expect(await b.charge('shared', 1, 0.01, T0)).toBe(false);
  });

  it('shares controls: clock, scenario and a version that changes with every write; a reset keeps the clock', async () => {
    const prefix = `t${++prefixes}:`;
    const a = openRedis({ prefix });
    const b = openRedis({ prefix });
    const initial = await b.control();
    expect(initial).toEqual({ clock: null, scenario: { kind: 'initial' }, version: '0' });
    await a.setClock({ offsetMs: 0, frozenAtMs: T0 });
    await a.setScenario({ kind: 'definition', definition: { rules: [{ status: 500 }] } });
    const shared = await b.control();
    expect(shared).toMatchObject({ clock: { offsetMs: 0, frozenAtMs: T0 }, scenario: { kind: 'definition', definition: { rules: [{ status: 500 }] } } });
    expect(shared?.version).not.toBe(initial?.version);
    await b.setScenario({ kind: 'none' });
    expect((await a.control())?.scenario).toEqual({ kind: 'none' });
    await a.reset();
    const after = await b.control();
    expect(after).toMatchObject({ clock: { offsetMs: 0, frozenAtMs: T0 }, scenario: { kind: 'initial' } });
    expect(after?.version).not.toBe(shared?.version);
  });

  it("counts a request from a replica whose running clock is a little behind in the same window (less than CLOCK_SKEW_MS), so the limit holds across replicas", async () => {
    const a = openRedis({ prefix: 'skew:' });
    const b = openRedis({ prefix: 'skew:' });
    const limit = { requests: 3, interval_s: 60 };
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push((await (i % 2 === 0 ? a : b).countWindow('key', limit, i % 2 === 0 ? T0 + i : T0 + i - 200)).allowed);
    expect(verdicts).toEqual([true, true, true, false, false, false]);
  });

  it('a reset on one replica applies to the next request on another', async () => {
    const prefix = `t${++prefixes}:`;
    const a = openRedis({ prefix });
    const b = openRedis({ prefix });
    const limit = { requests: 1, interval_s: 60 };
    await a.countWindow('k', limit, T0);
    expect(await b.countWindow('k', limit, T0)).toMatchObject({ allowed: false });
    await a.reset();
    expect(await b.countWindow('k', limit, T0)).toEqual({ allowed: true });
  });

  it('gives every key the prefix and an expiry to per-key state and its indexes', async () => {
    const prefix = `t${++prefixes}:`;
    const s = openRedis({ prefix });
    await s.countWindow('k', { requests: 1, interval_s: 60 }, T0);
    await s.charge('d', null, 1, T0);
    await s.countRule('slot');
    await s.nextSerial();
    await s.journal.record(entry('s'), 1);
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      const all = await raw.keys('*');
      const mine = all.filter((key) => key.startsWith(prefix)).sort();
      expect(mine).toEqual([
        `${prefix}journal`,
        `${prefix}journal:seq`,
        `${prefix}ledger:usage:d@0`,
        `${prefix}ledgers@0`, // the indexes of per-key state: its bound, and what a reset deletes
        `${prefix}rule:slot@0`,
        `${prefix}rules@0`,
        `${prefix}run`,
        `${prefix}serial`,
        `${prefix}state:uses`,
        `${prefix}window:k@0`,
        `${prefix}windows@0`,
      ]);
      expect(await raw.pttl(`${prefix}ledgers@0`)).toBeGreaterThan(39 * DAY_MS);
      expect(await raw.pttl(`${prefix}windows@0`)).toBeGreaterThan(23 * 3600_000);
      expect(await raw.pttl(`${prefix}rules@0`)).toBeGreaterThan(23 * 3600_000);
      expect(await raw.pttl(`${prefix}window:k@0`)).toBeGreaterThan(23 * 3600_000);
      expect(await raw.pttl(`${prefix}ledger:usage:d@0`)).toBeGreaterThan(39 * DAY_MS);
      expect(await raw.pttl(`${prefix}rule:slot@0`)).toBeGreaterThan(23 * 3600_000);
    } finally {
      raw.disconnect();
    }
  });

  it('merges done fields from another replica and bounds the done-hash', async () => {
    const prefix = `t${++prefixes}:`;
    const a = openRedis({ prefix, journalSize: 2 });
    const b = openRedis({ prefix, journalSize: 2 });
    const { entry: first } = await a.journal.record(entry('s'), 1);
    first.duration_ms = 3;
    first.response_bytes = 10;
    first.body_end = 'complete';
    await a.journal.finish(first);
    expect(await b.journal.get(1)).toMatchObject({ duration_ms: 3, response_bytes: 10, body_end: 'complete' });
    await b.journal.record(entry('s'), 1);
    await b.journal.record(entry('s'), 1); // seq 3: seq 1 falls out of the bound, and its done fields go
    await a.journal.finish(first); // too old: not stored again
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      expect(await raw.hkeys(`${prefix}journal:done`)).toEqual([]);
    } finally {
      raw.disconnect();
    }
    expect((await a.journal.list()).map((e) => e.seq)).toEqual([2, 3]);
  });

  it('sends events to the other replicas, not back to the sender; ignores malformed messages', async () => {
    const prefix = `t${++prefixes}:`;
    const a = openRedis({ prefix, replica: 'a' });
    const b = openRedis({ prefix, replica: 'b' });
    const seenByA: RemoteEvent[] = [];
    const seenByB: RemoteEvent[] = [];
    a.onRemoteEvent((event) => seenByA.push(event));
    const received = new Promise<void>((resolve) =>
      b.onRemoteEvent((event) => {
        seenByB.push(event);
        if (event.event.type === 'reset') resolve();
      }),
    );
    // The subscription is made in the background: publish until b has it (bounded by the test's timeout).
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    await raw.connect();
    try {
      while ((await raw.pubsub('NUMSUB', `${prefix}events`))[1] !== 2) await new Promise((resolve) => setImmediate(resolve));
      await raw.publish(`${prefix}events`, 'not json');
      await raw.publish(`${prefix}events`, JSON.stringify({ type: 'reset' }));
    } finally {
      raw.disconnect();
    }
    a.publish({ type: 'scenario', data: { default: 'flaky' } });
    a.publish({ type: 'reset', data: {} });
    await received;
    expect(seenByB).toEqual([
      { replica: 'a', event: { type: 'scenario', data: { default: 'flaky' } } },
      { replica: 'a', event: { type: 'reset', data: {} } },
    ]);
    // a's own events come back to a's subscriber too, and are dropped: b's next event is the first a sees.
    const bEvent = new Promise<void>((resolve) => a.onRemoteEvent(() => resolve()));
    b.publish({ type: 'journal-cleared', data: {} });
    await bEvent;
    expect(seenByA).toEqual([{ replica: 'b', event: { type: 'journal-cleared', data: {} } }]);
  }, 30_000);

  it('ready() rejects naming the URL when nothing listens, and methods reject with the 503', async () => {
    const port = await closedPort();
    const store = openRedis({ url: `redis://user:secret@127.0.0.1:${port}` });
    const started = performance.now();
    const error = await store.ready().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(StoreConnectError);
    expect((error as Error).message).toBe(`cannot reach the store redis://127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(performance.now() - started).toBeLessThan(5000); // a refusal is at once; 10 s is the bound for a silent host
    await expectUnavailable(store.nextSerial(), `redis://127.0.0.1:${port}/0`);
    store.publish({ type: 'reset', data: {} }); // fire and forget: no throw, no unhandled rejection
  });

  it('answers a 503 when the store stalls (a command past commandTimeout), and answers again once it resumes', async () => {
    const s = openRedis();
    await s.ready();
    const { Redis } = await import('ioredis');
    const raw = new Redis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      await raw.call('CLIENT', 'PAUSE', '5000', 'ALL'); // from its answer on, the server answers no client for 5 s
      const started = performance.now();
      const error = await Promise.resolve(s.nextSerial()).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/timed out/i);
      expect(performance.now() - started).toBeLessThan(4500); // the command timeout (2 s), not the end of the pause
      for (;;) {
        const answer = await Promise.resolve(s.nextSerial()).then((n) => n, () => undefined);
        if (answer !== undefined) break;
      }
    } finally {
      raw.disconnect();
    }
  }, 30_000);

  it('fails fast with the 503 while the store is killed, reports it once, and answers again after a restart', async () => {
    const statuses: string[] = [];
    const prefix = `t${++prefixes}:`;
    const s = openRedis({ prefix, onStatus: (message) => statuses.push(message) });
    const remote: RemoteEvent[] = [];
    s.onRemoteEvent((event) => remote.push(event));
    await s.ready();
    await s.nextSerial();

    await redis.kill();
    const killed = performance.now();
    await expectUnavailable(s.nextSerial(), description());
    await expectUnavailable(s.countWindow('k', { requests: 1, interval_s: 1 }, T0), description());
    await expectUnavailable(s.journal.list(), description());
    await expectUnavailable(s.control(), description());
    expect(performance.now() - killed).toBeLessThan(1000);
    s.publish({ type: 'reset', data: {} });

    await redis.restart();
    const deadline = performance.now() + 15_000;
    for (;;) {
      const answer = await Promise.resolve(s.nextSerial()).then((n) => n, () => undefined);
      if (answer !== undefined) {
        expect(answer).toBe(0); // a fresh server: nothing was persisted
        break;
      }
      if (performance.now() > deadline) throw new Error('the store did not answer again within 15 s of its restart');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses).toEqual([expect.stringMatching(new RegExp(`^store ${description()} lost: `)), `store ${description()} is back`]);

    // The subscriber came back by itself too: another replica's event reaches it (published until it arrives).
    const other = openRedis({ prefix, replica: 'replica-b' });
    while (remote.length === 0) {
      other.publish({ type: 'journal-cleared', data: {} });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(remote[0]).toEqual({ replica: 'replica-b', event: { type: 'journal-cleared', data: {} } });
  }, 30_000);
});
