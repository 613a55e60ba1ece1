/**
 * Replicas sharing one store, under faults, through HTTP as a user sees them: a replica killed mid-run
 * (its generations, the credit it spent and its journal entries stay, answered by the other replica), the store
 * killed and restarted (503 envelopes naming the store, never a hang, health still 200, answers back by themselves),
 * both replicas restarted on a store that kept its state, a start with the store unreachable, and (a measurement
 * only, in `npm run test:load`) lookups through a store 5 ms away in each direction.
 *
 * Exact under load: each step waits for an answer, a process's exit or a stream's bytes; time bounds are upper ones
 * only (a request must answer within 10 s: the store's 2 s command timeout and a busy machine; recovery within
 * 15 s; a start against an unreachable store within its 10 s connect bound plus a slow start).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { freePort } from './support/free-port.js';
import { itLoad } from './support/load-layer.js';
import { describeWithRedis, startRedisServer } from './support/redis.js';
import { spawnReplica, startDelayProxy, waitFor, type ReplicaProcess } from './support/replica-faults.js';
import { postSpeech } from './support/speech-request.js';

/** A speech model with a price unlike the others (as in `test/credits.test.ts`). */
const MODEL = 'x-ai/grok-voice-tts-1.0';
const VOICE = 'eve';
/** 30 characters: every call of it costs the same. */
const INPUT = 'Three paid calls, then a 402.!';
const KEY = 'sk-a';
const MESSAGE_402 = 'Insufficient credits. Add more using https://openrouter.ai/credits';
/** Upper bound for one request's answer: the store's 2 s command timeout, on a busy machine. Not a latency claim. */
const ANSWER_WITHIN_MS = 10_000;
/** Upper bound for the answers to come back after the store does (it reconnects by itself). */
const RECOVER_WITHIN_MS = 15_000;
/** Upper bound for a start against an unreachable store: its 10 s connect bound plus a slow start. */
const UNREACHABLE_WITHIN_MS = 15_000;
/** Room for a test that starts processes and waits for bounds above. */
const SLOW_TEST_MS = 90_000;

/** Everything a test started, closed after it whatever happened (servers, child processes, proxies, stores). */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

let prefixes = 0;
/** A key prefix no other test (nor another run on the same store) uses. */
const freshPrefix = (): string => `replicas-faults-${process.pid}-${++prefixes}:`;

async function replica(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer({ port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

async function childReplica(options: Parameters<typeof spawnReplica>[0]): Promise<ReplicaProcess> {
  const child = await spawnReplica(options);
  cleanups.push(() => child.kill());
  return child;
}

/** `fetch` that must answer within {@link ANSWER_WITHIN_MS} (an abort fails the test: a hang is a fault). */
function fetchBounded(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
}

/** `POST <baseUrl>/audio/speech` of {@link INPUT} with `key`: status, generation id and body (bytes read whole). */
async function speech(baseUrl: string, key = KEY): Promise<{ status: number; id: string | null; body: Buffer }> {
  const res = await postSpeech(baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, { Authorization: `Bearer ${key}` }, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  return { status: res.status, id: res.headers.get('x-generation-id'), body: Buffer.from(await res.arrayBuffer()) };
}

/** `GET <baseUrl><path>` with `key`: status and JSON body. */
async function getJson<T>(baseUrl: string, path: string, key = KEY): Promise<{ status: number; body: T }> {
  const res = await fetchBounded(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as T };
}

interface Envelope {
  error: { code: number; message: string; metadata: Record<string, unknown> | null };
}
interface GenerationData {
  id: string;
  total_cost: number;
}
interface KeyData {
  limit: number | null;
  usage: number;
  limit_remaining: number | null;
}
interface JournalEntry {
  seq: number;
  replica: string;
  operation: string;
  status: number;
  generation_id: string | null;
  body_end: string | null;
}
interface ClockState {
  now_ms: number;
  frozen: boolean;
}

/** USD per character of {@link MODEL} (`GET /model/...` of a throwaway in-memory server). */
async function promptPrice(): Promise<number> {
  const probe = await startServer({ port: 0 });
  try {
    const { status, body } = await getJson<{ data: { pricing: { prompt: string } } }>(probe.baseUrl, `/model/${MODEL}`);
    expect(status).toBe(200);
    return Number(body.data.pricing.prompt);
  } finally {
    await probe.close();
  }
}

/** What one call of {@link INPUT} costs, USD. */
let callCost: number | undefined;
async function costOfCall(): Promise<number> {
  callCost ??= [...INPUT].length * (await promptPrice());
  return callCost;
}

/** `GET /__mock/requests` of `origin`: the journal, oldest first. */
async function journal(origin: string): Promise<JournalEntry[]> {
  const res = await fetchBounded(`${origin}/__mock/requests`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { requests: JournalEntry[] }).requests;
}

/** The generation `id` as `GET /generation?id=` on `baseUrl` answers it (status 200 expected). */
async function generation(baseUrl: string, id: string): Promise<GenerationData> {
  const { status, body } = await getJson<{ data: GenerationData }>(baseUrl, `/generation?id=${encodeURIComponent(id)}`);
  expect(status, `GET /generation?id=${id}`).toBe(200);
  expect(body.data.id).toBe(id);
  return body.data;
}

/** `GET /key` of {@link KEY} on `baseUrl`. */
async function keyState(baseUrl: string): Promise<KeyData> {
  const { status, body } = await getJson<{ data: KeyData }>(baseUrl, '/key');
  expect(status).toBe(200);
  return body.data;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeWithRedis('replicas on one store: faults and restarts', (redis) => {
  it(
    'a replica killed mid-run (SIGKILL) loses nothing: the other finds its generations, its spent credit and its journal entries',
    async () => {
      const cost = await costOfCall();
      // Credit for exactly five calls: three before the kill, two after, then the 402.
      const shared = { store: redis.url, storePrefix: freshPrefix(), keys: [{ key: KEY, credits: 5 * cost }] };
      const r1 = await replica({ ...shared, replicaId: 'r1' });
      const r2 = await childReplica({ ...shared, replicaId: 'r2' });

      const onR1 = await speech(r1.baseUrl);
      const onR2 = [await speech(r2.baseUrl), await speech(r2.baseUrl)];
      for (const call of [onR1, ...onR2]) {
        expect(call.status).toBe(200);
        expect(call.id).toMatch(/^gen-/);
        expect(call.body.byteLength).toBeGreaterThan(0);
      }

      await r2.kill();
      expect(processAlive(r2.pid)).toBe(false);

      // The generations made on the killed replica are found, with what they cost.
      for (const call of onR2) expect((await generation(r1.baseUrl, call.id!)).total_cost).toBeCloseTo(cost, 12);
      // The credit it spent is spent: two calls are left, then the exact 402.
      expect((await keyState(r1.baseUrl)).limit_remaining).toBeCloseTo(2 * cost, 12);
      expect((await speech(r1.baseUrl)).status).toBe(200);
      expect((await speech(r1.baseUrl)).status).toBe(200);
      const refused = await speech(r1.baseUrl);
      expect(refused.status).toBe(402);
      const envelope = JSON.parse(refused.body.toString('utf8')) as Envelope;
      expect(envelope.error).toMatchObject({ code: 402, message: MESSAGE_402 });
      expect((await keyState(r1.baseUrl)).limit_remaining).toBeCloseTo(0, 12);

      // The journal still has the killed replica's entries, finished (their status), under its id.
      const entries = await journal(r1.url);
      const speeches = entries.filter((entry) => entry.operation === 'speech');
      for (const call of onR2) {
        expect(speeches.find((entry) => entry.generation_id === call.id), `journal entry of ${call.id}`).toMatchObject({ replica: 'r2', status: 200 });
      }
      expect(speeches.find((entry) => entry.generation_id === onR1.id)).toMatchObject({ replica: 'r1', status: 200 });
      expect(speeches.map((entry) => entry.status)).toEqual([200, 200, 200, 200, 200, 402]);
      // Each entry's end is written after its answer's last byte went out: a kill in between leaves it unfinished
      // (`body_end` null), which the journal then shows as it is rather than inventing an end.
      for (const entry of speeches.filter((e) => e.replica === 'r2')) expect(['complete', null]).toContain(entry.body_end);
    },
    SLOW_TEST_MS,
  );

  it(
    'closing both replicas and starting two new ones on the same store and prefix keeps generations, credit, journal and clock',
    async () => {
      const cost = await costOfCall();
      const shared = { store: redis.url, storePrefix: freshPrefix(), keys: [{ key: KEY, credits: 4 * cost }] };
      const first = [await startServer({ ...shared, port: 0, replicaId: 'r1' }), await startServer({ ...shared, port: 0, replicaId: 'r2' })];
      cleanups.push(() => Promise.all(first.map((server) => server.close())));

      const made = [await speech(first[0]!.baseUrl), await speech(first[1]!.baseUrl)];
      for (const call of made) expect(call.status).toBe(200);
      const clockBefore = (await (await fetchBounded(`${first[0]!.url}/__mock/clock`)).json()) as ClockState;
      const movedAt = Date.now();
      const moved = await fetchBounded(`${first[1]!.url}/__mock/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance_ms: 86_400_000 }),
      });
      expect(moved.status).toBe(200);
      const movedTo = ((await moved.json()) as ClockState).now_ms;
      expect(movedTo).toBeGreaterThanOrEqual(clockBefore.now_ms + 86_400_000);
      const journalBefore = await journal(first[0]!.url);
      expect(journalBefore.filter((entry) => entry.operation === 'speech')).toHaveLength(2);

      await Promise.all(first.map((server) => server.close()));
      const second = [await replica({ ...shared, replicaId: 'r3' }), await replica({ ...shared, replicaId: 'r4' })];

      // The clock is where it was moved to (a running clock: plus at most the real time since).
      const clockAfter = (await (await fetchBounded(`${second[0]!.url}/__mock/clock`)).json()) as ClockState;
      expect(clockAfter.frozen).toBe(false);
      expect(clockAfter.now_ms).toBeGreaterThanOrEqual(movedTo);
      expect(clockAfter.now_ms - movedTo).toBeLessThanOrEqual(Date.now() - movedAt);
      // The generations are found on either new replica.
      for (const call of made) for (const server of second) expect((await generation(server.baseUrl, call.id!)).total_cost).toBeCloseTo(cost, 12);
      // The credit is still spent: two calls left.
      expect((await keyState(second[1]!.baseUrl)).limit_remaining).toBeCloseTo(2 * cost, 12);
      // The journal still lists the old entries, with the replicas that answered them.
      const journalAfter = await journal(second[1]!.url);
      for (const entry of journalBefore) expect(journalAfter.find((after) => after.seq === entry.seq)).toMatchObject({ replica: entry.replica, status: entry.status, generation_id: entry.generation_id });
      expect(journalBefore.map((entry) => entry.replica).sort()).toEqual(expect.arrayContaining(['r1', 'r2']));
    },
    SLOW_TEST_MS,
  );

  it(
    'a frozen clock moved by the admin API stays where it was moved when new replicas start with the same option clock',
    async () => {
      const shared = { store: redis.url, storePrefix: freshPrefix(), clock: '2026-01-01T00:00:00Z' };
      const start = Date.parse('2026-01-01T00:00:00Z');
      const first = await startServer({ ...shared, port: 0, replicaId: 'r1' });
      cleanups.push(() => first.close());
      const moved = await fetchBounded(`${first.url}/__mock/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance_ms: 86_400_000 }),
      });
      expect(moved.status).toBe(200);
      expect(((await moved.json()) as ClockState).now_ms).toBe(start + 86_400_000);
      await first.close();

      const second = await replica({ ...shared, replicaId: 'r2' });
      const clock = (await (await fetchBounded(`${second.url}/__mock/clock`)).json()) as ClockState;
      expect(clock).toMatchObject({ frozen: true, now_ms: start + 86_400_000 });
    },
    SLOW_TEST_MS,
  );
});

describe('replicas on one store: the store killed and restarted', () => {

  it(
    'answers 503 envelopes naming the store while it is away (never a hang), health stays 200, and recovers by itself when it returns',
    async () => {
      const store = await startRedisServer();
      cleanups.push(() => store.stop());
      const storeUrl = `${store.url}/0`;
      const r1 = await childReplica({ store: store.url, storePrefix: freshPrefix(), replicaId: 'r1' });
      expect((await speech(r1.baseUrl, 'sk-any')).status).toBe(200);

      // An event-stream client, connected before the store goes away.
      const events = await fetchBounded(`${r1.url}/__mock/events`);
      expect(events.status).toBe(200);
      const eventReader = events.body!.getReader();
      let eventText = '';
      let eventsEnded = false;
      const reading = (async () => {
        for (;;) {
          const { done, value } = await eventReader.read();
          if (done) break;
          eventText += Buffer.from(value).toString('utf8');
        }
      })().catch(() => undefined).finally(() => (eventsEnded = true));
      cleanups.push(() => eventReader.cancel());
      await waitFor('the event stream opens', ANSWER_WITHIN_MS, async () => (eventText.includes(': connected') ? true : undefined));

      await store.kill();

      // Every API request answers (within the bound) a 503 envelope naming the store.
      const lookups = [`/model/${MODEL}`, '/key', '/models'];
      for (const path of lookups) {
        const { status, body } = await getJson<Envelope>(r1.baseUrl, path, 'sk-any');
        expect(status, path).toBe(503);
        expect(body.error.code).toBe(503);
        expect(body.error.message).toContain(storeUrl);
        expect(body.error.message).toMatch(/unavailable/);
      }
      const refused = await speech(r1.baseUrl, 'sk-any');
      expect(refused.status).toBe(503);
      expect((JSON.parse(refused.body.toString('utf8')) as Envelope).error.message).toContain(storeUrl);
      // Several at once, too: each answers.
      const burst = await Promise.all(Array.from({ length: 8 }, () => getJson<Envelope>(r1.baseUrl, `/model/${MODEL}`, 'sk-any')));
      expect(burst.map((answer) => answer.status)).toEqual(Array(8).fill(503));
      // The admin API's reads and moves of shared state answer the same 503; a new event-stream client is served.
      for (const [path, init] of [
        ['requests', {}],
        ['clock', {}],
        ['clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_ms: 1000 }) }],
      ] as const) {
        const res = await fetchBounded(`${r1.url}/__mock/${path}`, init);
        expect(res.status, `${init.method ?? 'GET'} /__mock/${path}`).toBe(503);
        expect(((await res.json()) as Envelope).error.message).toContain(storeUrl);
      }
      const lateEvents = await fetchBounded(`${r1.url}/__mock/events`);
      expect(lateEvents.status).toBe(200);
      await lateEvents.body!.cancel();
      // The readiness probe is served without the store.
      const health = await fetchBounded(`${r1.url}/__mock/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(processAlive(r1.pid)).toBe(true);

      await store.restart();
      // Answers come back by themselves; the restarted store is empty (no persistence): state starts over.
      await waitFor('a model lookup answers 200 after the store returns', RECOVER_WITHIN_MS, async () =>
        (await getJson(r1.baseUrl, `/model/${MODEL}`, 'sk-any')).status === 200 ? true : undefined,
      );
      expect((await getJson(r1.baseUrl, `/model/${MODEL}`, 'sk-any')).status).toBe(200);
      const after = await speech(r1.baseUrl, 'sk-any');
      expect(after.status).toBe(200);
      expect(after.body.byteLength).toBeGreaterThan(0);
      expect(processAlive(r1.pid)).toBe(true);

      // The event stream either carried on (it shows the speech call's entry) or was ended by the server; either
      // way the server survived it.
      await waitFor('the event stream shows the new entry or has ended', ANSWER_WITHIN_MS, async () =>
        eventsEnded || eventText.includes(after.id!) ? true : undefined,
      );
      console.log(`event stream across the store's restart: ${eventsEnded ? 'ended by the server' : 'stayed connected and carried the next entry'}`);
      const reported = r1.output().split('\n').filter((line) => line.startsWith('mockrouter: unexpected error'));
      console.log(`replica stderr during the outage: ${reported.length} "unexpected error" lines, e.g.\n${reported.slice(0, 3).join('\n')}`);
      expect((await fetchBounded(`${r1.url}/__mock/health`)).status).toBe(200);
      await eventReader.cancel().catch(() => undefined);
      await reading;
    },
    SLOW_TEST_MS,
  );
});

describe('replicas on one store: startup', () => {
  it(
    'startServer with the store unreachable rejects naming the URL within 15 s, and nothing listens',
    async () => {
      const storePort = await freePort();
      const listenPort = await freePort();
      const started = Date.now();
      const error = await startServer({ store: `redis://127.0.0.1:${storePort}`, port: listenPort }).then(
        async (server) => {
          await server.close();
          throw new Error('startServer resolved with the store unreachable');
        },
        (reason: unknown) => reason,
      );
      expect(Date.now() - started).toBeLessThan(UNREACHABLE_WITHIN_MS);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(`redis://127.0.0.1:${storePort}`);
      const refused = await fetch(`http://127.0.0.1:${listenPort}/__mock/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).then(
        () => 'answered',
        (reason: { cause?: { code?: string } }) => reason.cause?.code,
      );
      expect(refused).toBe('ECONNREFUSED');
    },
    SLOW_TEST_MS,
  );
});

describe('replicas on one store: a slow store (measurement)', () => {

  itLoad(
    'MEASUREMENT ONLY: 500 sequential model lookups through a store 5 ms away each direction all answer 200 (p50/p99 logged, not asserted)',
    async () => {
      const store = await startRedisServer();
      cleanups.push(() => store.stop());
      const proxy = await startDelayProxy(store.port, 5);
      cleanups.push(() => proxy.close());
      const r1 = await replica({ store: `redis://127.0.0.1:${proxy.port}`, storePrefix: freshPrefix(), replicaId: 'r1' });
      const times: number[] = [];
      const statuses = new Set<number>();
      for (let i = 0; i < 500; i++) {
        const begun = performance.now();
        const res = await fetchBounded(`${r1.baseUrl}/model/${MODEL}`, { headers: { Authorization: 'Bearer sk-any' } });
        await res.arrayBuffer();
        times.push(performance.now() - begun);
        statuses.add(res.status);
      }
      expect([...statuses]).toEqual([200]);
      times.sort((a, b) => a - b);
      const at = (q: number): string => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(1);
      console.log(`slow store (5 ms each way), 500 sequential model lookups: p50=${at(0.5)} ms p99=${at(0.99)} ms max=${times.at(-1)!.toFixed(1)} ms`);
    },
    SLOW_TEST_MS * 2,
  );
});
