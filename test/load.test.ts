/**
 * Load (bounded, loopback only): 200 concurrent connections against the standalone server, 180 of them for
 * `LOAD_SECONDS` (4 s in `npm test`, 10 s in `npm run test:load`: `support/load-layer.ts`) of mixed operations and
 * scenarios, 20 for a fixed number of `slow-audio` streams alongside. The server runs in its own process
 * (test/support/instrumented-server.ts), so its sockets and handles can be counted apart from autocannon's.
 *
 * Proves: no autocannon errors or timeouts; every response has the status expected for its request (200 for
 * model, alias, variant and generation lookups and cached PCM/MP3 speech; 503 for `X-Mock-Status: 503`; 429 for
 * `X-Mock-Scenario: rate-limited`; 200 for `slow-audio` streams), counted per request on the client and again
 * from the server's journal; every journaled response ended (`duration_ms` set); and once autocannon stops, the
 * server's open TCP connections and active handles (sockets, timers) are back to their baseline within 2 s.
 */
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSockets, startInstrumented, type InstrumentedServer, type ServerStats } from './support/instrumented.js';
import { LOAD_SECONDS, LOAD_TAG } from './support/load-layer.js';
import { TTS } from './support/speech-model.js';

/** Seconds of the fast mix: {@link LOAD_SECONDS} unless env `LOAD_SECONDS` says otherwise. */
const SECONDS = Number(process.env.LOAD_SECONDS ?? LOAD_SECONDS);
if (!(SECONDS > 0)) throw new Error(`LOAD_SECONDS must be a positive number, got "${process.env.LOAD_SECONDS}"`);
/** Connections of the fast mix and of the `slow-audio` streams: 200 in all. */
const FAST_CONNECTIONS = 180;
const SLOW_CONNECTIONS = 20;
/**
 * Requests of the `slow-audio` connections in all: a fixed number (about one every 2 s per connection; each takes
 * about 1.3 s), not a duration, so they are all answered however slow the machine is: with a duration, a
 * connection whose first stream is still running when it ends answers nothing (the 20 streams run in lockstep).
 */
const SLOW_REQUESTS = SLOW_CONNECTIONS * Math.max(2, Math.floor(SECONDS / 2));
/** Time the server has to close every socket once the clients are gone. */
const SETTLE_MS = 2_000;

const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';
const AUTH = { Authorization: 'Bearer sk-load' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

interface Case {
  name: string;
  expected: number;
  request: autocannon.Request;
}

const speechBody = (input: string, voice: string, format: 'pcm' | 'mp3') => JSON.stringify({ model: TTS, input, voice, response_format: format });

/** The fast mix: every connection cycles through these in order. */
const FAST: Case[] = [
  { name: 'model :free variant', expected: 200, request: { method: 'GET', path: '/api/v1/model/openai/gpt-4o-mini:free', headers: AUTH } },
  { name: 'model %3Anitro variant', expected: 200, request: { method: 'GET', path: '/api/v1/model/openai/gpt-4o%3Anitro', headers: AUTH } },
  { name: 'model alias', expected: 200, request: { method: 'GET', path: '/api/v1/model/anthropic/claude-3-5-sonnet', headers: AUTH } },
  { name: 'model ~alias', expected: 200, request: { method: 'GET', path: '/api/v1/model/~anthropic/claude-sonnet-latest', headers: AUTH } },
  { name: 'generation fixture', expected: 200, request: { method: 'GET', path: `/api/v1/generation?id=${FIXTURE_GENERATION}`, headers: AUTH } },
  { name: 'speech pcm (cached)', expected: 200, request: { method: 'POST', path: '/api/v1/audio/speech', headers: JSON_AUTH, body: speechBody('Hello there.', 'alloy', 'pcm') } },
  { name: 'speech mp3 (cached)', expected: 200, request: { method: 'POST', path: '/api/v1/audio/speech', headers: JSON_AUTH, body: speechBody('Hello there.', 'nova', 'mp3') } },
  { name: 'X-Mock-Status: 503 (model)', expected: 503, request: { method: 'GET', path: '/api/v1/model/openai/gpt-4o', headers: { ...AUTH, 'X-Mock-Status': '503' } } },
  { name: 'X-Mock-Status: 503 (speech)', expected: 503, request: { method: 'POST', path: '/api/v1/audio/speech', headers: { ...JSON_AUTH, 'X-Mock-Status': '503' }, body: speechBody('Hello there.', 'alloy', 'pcm') } },
  { name: 'rate-limited (speech)', expected: 429, request: { method: 'POST', path: '/api/v1/audio/speech', headers: { ...JSON_AUTH, 'X-Mock-Scenario': 'rate-limited' }, body: speechBody('Hello there.', 'alloy', 'mp3') } },
  { name: 'rate-limited (generation)', expected: 429, request: { method: 'GET', path: `/api/v1/generation?id=${FIXTURE_GENERATION}`, headers: { ...AUTH, 'X-Mock-Scenario': 'rate-limited' } } },
];

/** Streams held open for about a second each (800 ms delay, then real-time audio), on their own connections. */
const SLOW: Case[] = [
  { name: 'slow-audio (speech)', expected: 200, request: { method: 'POST', path: '/api/v1/audio/speech', headers: { ...JSON_AUTH, 'X-Mock-Scenario': 'slow-audio' }, body: speechBody('Hi.', 'echo', 'pcm') } },
];

/** Per case: responses seen, and the statuses that were not the expected one. */
type Tally = Map<string, { responses: number; wrong: Map<number, number> }>;

function withChecks(cases: Case[], tally: Tally): autocannon.Request[] {
  return cases.map(({ name, expected, request }) => {
    const counts = { responses: 0, wrong: new Map<number, number>() };
    tally.set(name, counts);
    return {
      ...request,
      onResponse: (status: number) => {
        counts.responses++;
        if (status !== expected) counts.wrong.set(status, (counts.wrong.get(status) ?? 0) + 1);
      },
    };
  });
}

function summary(result: autocannon.Result) {
  return {
    total: result.requests.total,
    sent: result.requests.sent,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    non2xx: result.non2xx,
    statusCodeStats: result.statusCodeStats,
    rps: Math.round(result.requests.average),
    p99ms: result.latency.p99,
  };
}

let server: InstrumentedServer;
let baseline: ServerStats;

beforeAll(async () => {
  // Journal large enough to keep every request of the run (it grows only as requests arrive).
  server = await startInstrumented({ journalSize: 2_000_000, journalBytes: 2 ** 40 });
  baseline = await server.stats();
});
afterAll(() => server?.close());

describe('load', { tags: [LOAD_TAG] }, () => {
  it(
    `200 connections for ${SECONDS} s of mixed operations and scenarios: no failed request, sockets and handles back to baseline`,
    async () => {
      expect(openSockets(baseline)).toBe(0);
      const tally: Tally = new Map();
      const common = { url: server.url, duration: SECONDS, timeout: 10 };
      const [fast, slow] = await Promise.all([
        autocannon({ ...common, connections: FAST_CONNECTIONS, requests: withChecks(FAST, tally) }),
        // A slow-audio answer takes about 2 s (800 ms, then the audio at real time); under the fast load on a busy
        // machine its timers fire late, so its client waits 30 s before it counts a timeout (a hung stream still does).
        autocannon({ ...common, timeout: 30, connections: SLOW_CONNECTIONS, amount: SLOW_REQUESTS, requests: withChecks(SLOW, tally) }),
      ]);

      // Once autocannon has stopped, the server closes every socket and every timer of the aborted streams.
      const settled = await server.waitFor(
        (s) => openSockets(s) === openSockets(baseline) && JSON.stringify(s.handles) === JSON.stringify(baseline.handles) && s.journal.unfinished === 0,
        SETTLE_MS,
      );
      const after = settled.stats;

      const wrong = [...tally].flatMap(([name, t]) => [...t.wrong].map(([status, n]) => `${name}: ${n} × ${status}`));
      const report = {
        fast: summary(fast),
        slow: summary(slow),
        perCase: Object.fromEntries([...tally].map(([name, t]) => [name, t.responses])),
        server: { journal: after.journal, baselineHandles: baseline.handles, handlesAfter: after.handles },
        sockets: { before: openSockets(baseline), after: openSockets(after), settledInMs: Math.round(settled.ms) },
      };
      console.log(`load report: ${JSON.stringify(report, null, 2)}`);

      // Client side: no transport failure, and every status as expected for its request.
      for (const result of [fast, slow]) {
        expect(result.errors).toBe(0);
        expect(result.timeouts).toBe(0);
        expect(result.mismatches).toBe(0);
      }
      expect(wrong).toEqual([]);
      for (const [name, t] of tally) expect(t.responses, `${name} was never answered`).toBeGreaterThan(0);
      const responses = [...tally.values()].reduce((sum, t) => sum + t.responses, 0);
      expect(responses).toBe(fast.requests.total + slow.requests.total);
      // A meaningful load, not a handful of requests (loose: CI machines vary).
      expect(fast.requests.total).toBeGreaterThan(200 * SECONDS);
      expect(slow.requests.total).toBe(SLOW_REQUESTS);

      // Server side: only the expected statuses were ever sent, at least as many of each as the clients counted
      // (requests in flight when autocannon stopped were answered but not counted), and every response ended.
      const byStatus = (status: number) => after.journal.statuses[status] ?? 0;
      expect(Object.keys(after.journal.statuses).sort()).toEqual(['200', '429', '503']);
      expect(after.journal.size).toBe(after.journal.lastSeq); // the journal kept everything
      const expectedCount = (status: number) =>
        [...FAST, ...SLOW].filter((c) => c.expected === status).reduce((sum, c) => sum + tally.get(c.name)!.responses, 0);
      for (const status of [200, 429, 503]) expect(byStatus(status)).toBeGreaterThanOrEqual(expectedCount(status));
      const inFlightAtStop = after.journal.lastSeq - responses;
      expect(inFlightAtStop).toBeGreaterThanOrEqual(0);
      expect(inFlightAtStop).toBeLessThanOrEqual(FAST_CONNECTIONS + SLOW_CONNECTIONS);
      expect(after.journal.unfinished).toBe(0);

      // Sockets and handles back to the baseline within SETTLE_MS.
      expect(openSockets(after)).toBe(openSockets(baseline));
      expect(after.handles).toEqual(baseline.handles);
      expect(settled.ok).toBe(true);

      // And the server still answers normally.
      const res = await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: AUTH });
      expect(res.status).toBe(200);
      expect((await res.json()).data.id).toBe('openai/gpt-4o');
    },
    (SECONDS + 30) * 1000,
  );
});
