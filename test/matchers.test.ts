/**
 * `mockrouter/vitest`: each journal matcher passes against a real client that behaves (the `openai` SDK with its
 * default retries, `@openrouter/sdk` polling a generation) and fails, naming the requests, against a hand-rolled
 * client that does not. Real time: the whole file takes about 5 s (the `openai` SDK waits out `Retry-After: 1`
 * twice and backs off about 0.5 s then 1 s on 529).
 *
 * Standalone server, not msw in-process: with msw 2.15 (@mswjs/interceptors 0.41), cancelling the body of a mocked
 * response never resolves (mswjs/interceptors#799), and the `openai` SDK cancels the error body before each retry,
 * so any retried status hangs the SDK in-process.
 */
import { stripVTControlCharacters } from 'node:util';
import { OpenRouter } from '@openrouter/sdk';
import * as sdkErrors from '@openrouter/sdk/models/errors';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../src/index.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import {
  backsOffBetweenRetries,
  honorsRetryAfter,
  journalEntries,
  pollsGenerationUntilReady,
  retriesStatus,
  retryChains,
} from '../src/vitest/index.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const KEY = 'sk-test';
const SPEECH = { model: TTS, input: 'Hello there.', voice: 'alloy' } as const;

let server: RunningServer;
let BASE: string;
/** The server's gateway and journal, shaped like `createMockRouter`'s. */
const mock = {
  get journal() {
    return server.gateway.journal;
  },
  useScenario: (name: string) => void server.gateway.useScenario(name),
};
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 5, generationDelayMs: 300 });
  BASE = server.baseUrl;
});
afterEach(() => server.gateway.reset());
afterAll(() => server.close());

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An `openai` client on the mock (`maxRetries` undefined: the SDK's default, 2). */
function openai(maxRetries?: number): OpenAI {
  return new OpenAI({ baseURL: BASE, apiKey: KEY, ...(maxRetries === undefined ? {} : { maxRetries }) });
}

/** One speech call with the `openai` SDK; resolves to the response or the error it threw. */
async function openaiSpeech(client: OpenAI): Promise<Response | unknown> {
  try {
    const response = await client.audio.speech.create(SPEECH);
    await response.arrayBuffer();
    return response;
  } catch (error) {
    return error;
  }
}

/** One speech call with plain fetch, the body read to the end. */
async function fetchSpeech(): Promise<number> {
  const response = await postSpeech(BASE, SPEECH, { Authorization: `Bearer ${KEY}` });
  await response.arrayBuffer();
  return response.status;
}

/** A naive client: calls, and after each failure waits `waits[i]` ms (then gives up when they run out). */
async function naiveSpeech(waits: number[]): Promise<number> {
  let status = await fetchSpeech();
  for (const wait of waits) {
    if (status < 400) break;
    await sleep(wait);
    status = await fetchSpeech();
  }
  return status;
}

/** The message of the assertion error `assertion` throws. */
function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  return expect.fail('expected the assertion to fail');
}

/** `#<seq> METHOD path at hh:mm:ss.mmm`, as the messages name a request. */
function named(entry: JournalEntry | undefined): string {
  if (!entry) return expect.fail('missing journal entry');
  return `#${entry.seq} ${entry.method} ${entry.path}${entry.query.id ? `?id=${entry.query.id}` : ''} at ${new Date(entry.time).toISOString().slice(11, 23)}`;
}

/** `#<seq> at hh:mm:ss.mmm`. */
function at(entry: JournalEntry | undefined): string {
  if (!entry) return expect.fail('missing journal entry');
  return `#${entry.seq} at ${new Date(entry.time).toISOString().slice(11, 23)}`;
}

describe('toHonorRetryAfter', () => {
  it('passes for openai with default retries on rate-limited-then-ok (Retry-After: 1)', async () => {
    mock.useScenario('rate-limited-then-ok');
    const result = await openaiSpeech(openai());
    expect(result).toBeInstanceOf(Response);
    expect(mock.journal.list().map((e) => e.status)).toEqual([429, 429, 200]);
    expect(mock.journal).toHonorRetryAfter();
    expect(mock.journal).toRetryStatus(429);
    expect(mock.journal).not.toRetryStatus(402);
    // Every accepted input: the Journal, its entries, the admin API's `{ requests }`.
    expect(mock.journal.list()).toHonorRetryAfter();
    const admin = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { requests: JournalEntry[] };
    expect(admin.requests).toHaveLength(3);
    expect(admin).toHonorRetryAfter();
    // The `.not` form fails, listing the retries that waited.
    expect(failureOf(() => expect(mock.journal).not.toHonorRetryAfter())).toMatch(/every retry waited long enough:\n {2}- #\d+ POST \/api\/v1\/audio\/speech at .* retried #\d+ at .*, \d+ ms later; Retry-After asked 1000 ms/);
  });

  it('fails for a client that retries at once, naming the early retries and their times', async () => {
    mock.useScenario('rate-limited-then-ok');
    expect(await naiveSpeech([0, 0, 0])).toBe(200);
    const [first, second, third] = mock.journal.list();
    expect(() => expect(mock.journal).toHonorRetryAfter()).toThrow(/retried/);
    const message = failureOf(() => expect(mock.journal).toHonorRetryAfter());
    expect(message).toContain('toHonorRetryAfter');
    expect(message).toContain(`${named(first)} retried ${at(second)}, ${second!.time - first!.time} ms later; Retry-After asked 1000 ms`);
    expect(message).toContain(`${named(second)} retried ${at(third)}, ${third!.time - second!.time} ms later; Retry-After asked 1000 ms`);
    expect(mock.journal).not.toHonorRetryAfter();
    const verdict = honorsRetryAfter(mock.journal);
    expect(verdict.pass).toBe(false);
    expect(verdict.problems).toHaveLength(2);
  });

  it('fails when no response carried Retry-After (nothing to honor)', async () => {
    expect(await fetchSpeech()).toBe(200);
    expect(failureOf(() => expect(mock.journal).toHonorRetryAfter())).toContain('no response in the journal carried Retry-After');
  });
});

describe('toRetryStatus', () => {
  it('.not.toRetryStatus(402) passes for openai with default retries on insufficient-credits', async () => {
    mock.useScenario('insufficient-credits');
    const result = await openaiSpeech(openai());
    expect(result).toBeInstanceOf(OpenAI.APIError);
    expect((result as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect(mock.journal.list().map((e) => e.status)).toEqual([402]);
    expect(mock.journal).not.toRetryStatus(402);
    const message = failureOf(() => expect(mock.journal).toRetryStatus(402));
    expect(message).toContain(`${named(mock.journal.list()[0])} got 402, not retried`);
  });

  it('.not.toRetryStatus(402) fails for a client that retries 402, naming the retried requests', async () => {
    mock.useScenario('insufficient-credits');
    expect(await naiveSpeech([10, 10])).toBe(402);
    const [first, second, third] = mock.journal.list();
    expect(mock.journal).toRetryStatus(402);
    const message = failureOf(() => expect(mock.journal).not.toRetryStatus(402));
    expect(stripVTControlCharacters(message)).toContain('expect(journal).not.toRetryStatus(402)');
    expect(message).toContain('Expected no 402 response to be retried, but 2 were');
    expect(message).toContain(`${named(first)} got 402, retried ${at(second)}`);
    expect(message).toContain(`${named(second)} got 402, retried ${at(third)}`);
    expect(retriesStatus(mock.journal, 402)).toMatchObject({ pass: true, problems: [] });
  });

  it('toRetryStatus fails when no response had the status', async () => {
    expect(await fetchSpeech()).toBe(200);
    expect(failureOf(() => expect(mock.journal).toRetryStatus(429))).toContain('no response in the journal had status 429');
  });
});

describe('toBackOffBetweenRetries', () => {
  it('passes for openai with default retries on overloaded-then-ok (529 twice)', async () => {
    mock.useScenario('overloaded-then-ok');
    const result = await openaiSpeech(openai());
    expect(result).toBeInstanceOf(Response);
    const entries = mock.journal.list();
    expect(entries.map((e) => e.status)).toEqual([529, 529, 200]);
    // The openai SDK sleeps 0.5 s then 1 s, each shortened by up to 25 % of jitter: 375–500 ms, then 750–1000 ms.
    expect(entries[1]!.time - entries[0]!.time).toBeGreaterThanOrEqual(370);
    expect(entries[2]!.time - entries[1]!.time).toBeGreaterThanOrEqual(745);
    expect(mock.journal).toBackOffBetweenRetries();
    expect(mock.journal).toRetryStatus(529);
    expect(backsOffBetweenRetries(mock.journal).evidence).toHaveLength(1);
  });

  it('fails for a client whose delays shrink, naming the chain and its gaps', async () => {
    mock.useScenario('overloaded-then-ok');
    expect(await naiveSpeech([300, 50])).toBe(200);
    const [first, second, third] = mock.journal.list();
    const gaps = [second!.time - first!.time, third!.time - second!.time];
    expect(gaps[1]).toBeLessThan(gaps[0]! - 100);
    const message = failureOf(() => expect(mock.journal).toBackOffBetweenRetries());
    expect(message).toContain(
      `POST /api/v1/audio/speech chain ${at(first)} → ${at(second)} → ${at(third)}: gaps ${gaps[0]} ms, ${gaps[1]} ms; the delay shrank`,
    );
    expect(mock.journal).not.toBackOffBetweenRetries();
  });

  it('fails when there are no retries to judge', async () => {
    mock.useScenario('rate-limited-then-ok');
    expect(await openaiSpeech(openai(0))).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failureOf(() => expect(mock.journal).toBackOffBetweenRetries())).toContain('no retry chain in the journal has two or more retries');
  });
});

describe('toPollGenerationUntilReady', () => {
  /** Speech through openai, then polls the record with @openrouter/sdk every `everyMs` until `stop(lookups, ready)`. */
  async function speechThenPoll(everyMs: number, stop: (lookups: number, ready: boolean) => boolean): Promise<string> {
    const response = await openaiSpeech(openai(0));
    expect(response).toBeInstanceOf(Response);
    const id = (response as Response).headers.get('x-generation-id');
    expect(id).toMatch(/^gen-tts-/);
    const openRouter = new OpenRouter({ serverURL: BASE, apiKey: KEY, retryConfig: { strategy: 'none' } });
    for (let lookups = 1; ; lookups++) {
      let ready = false;
      try {
        const { data } = await openRouter.generations.getGeneration({ id: id! });
        expect(data.id).toBe(id);
        ready = true;
      } catch (error) {
        if (!(error instanceof sdkErrors.NotFoundResponseError)) throw error;
      }
      if (stop(lookups, ready)) return id!;
      await sleep(everyMs);
    }
  }

  // generation-pending: the first three lookups of the session answer 404, whatever the time; the record is
  // ready 300 ms after the speech call (generationDelayMs), before the fourth lookup 300 ms later.
  it('passes for a poller that polls until the record and stops', async () => {
    mock.useScenario('generation-pending');
    const id = await speechThenPoll(100, (_, ready) => ready);
    expect(mock.journal.list({ operation: 'generation' }).map((e) => e.status)).toEqual([404, 404, 404, 200]);
    expect(mock.journal).toPollGenerationUntilReady();
    expect(pollsGenerationUntilReady(mock.journal).evidence).toEqual([expect.stringContaining(`${id}: 3 lookups not ready from `)]);
  });

  it('fails for a poller that gives up before the record is ready', async () => {
    mock.useScenario('generation-pending');
    const id = await speechThenPoll(50, (lookups) => lookups === 2);
    const [a, b] = mock.journal.list({ operation: 'generation' });
    const message = failureOf(() => expect(mock.journal).toPollGenerationUntilReady());
    expect(message).toContain(`${id}: never got the record; 2 lookups: ${at(a)} (404), ${at(b)} (404)`);
  });

  it('fails for a poller that keeps polling after the record came', async () => {
    mock.useScenario('generation-pending');
    let readyAt = 0;
    const id = await speechThenPoll(100, (lookups, ready) => {
      if (ready && !readyAt) readyAt = lookups;
      return readyAt > 0 && lookups === readyAt + 2;
    });
    const lookups = mock.journal.list({ operation: 'generation' });
    const ready = lookups[readyAt - 1];
    const message = failureOf(() => expect(mock.journal).toPollGenerationUntilReady());
    expect(message).toContain(`${id}: the record came with ${at(ready)} (200), then looked up again: ${at(lookups[readyAt])} (200), ${at(lookups[readyAt + 1])} (200)`);
  });

  it('fails when there were no generation lookups', async () => {
    expect(await fetchSpeech()).toBe(200);
    expect(failureOf(() => expect(mock.journal).toPollGenerationUntilReady())).toContain('no generation lookups');
  });
});

describe('retry chains (pure)', () => {
  const entry = (seq: number, over: Partial<JournalEntry>): JournalEntry => ({
    seq,
    time: 1_767_225_600_000 + seq * 100,
    time_iso: '',
    replica: 'test',
    session: 's1',
    method: 'POST',
    path: '/api/v1/audio/speech',
    query: {},
    headers: {},
    body: { a: 1, b: 2 },
    operation: 'speech',
    scenario: null,
    rule: null,
    status: 500,
    response_headers: {},
    generation_id: null,
    duration_ms: 1,
    response_bytes: 0,
    body_end: 'complete',
    error: null,
    audio: null,
    ...over,
  });

  it('retries are the next same request (session, method, path, query, canonical body) after a failure', () => {
    const entries = [
      entry(1, {}),
      entry(2, { session: 's2' }), // another session: a new call
      entry(3, { body: { b: 2, a: 1 } }), // same body, other key order: retry of #1
      entry(4, { body: { a: 1, b: 3 } }), // another body: a new call
      entry(5, { status: 200 }), // retry of #3, succeeds
      entry(6, {}), // after a success: a new call
    ];
    expect(retryChains(entries).map((c) => c.attempts.map((e) => e.seq))).toEqual([[1, 3, 5], [2], [4], [6]]);
  });

  it('a 200 whose body was cut or reset is a failure a retry follows', () => {
    const entries = [
      entry(1, { status: 200, body_end: 'cut' }), // truncated audio: the client retries
      entry(2, { status: 200 }), // retry of #1, succeeds
      entry(3, { status: 200 }), // after a success: a new call
    ];
    expect(retryChains(entries).map((c) => c.attempts.map((e) => e.seq))).toEqual([[1, 2], [3]]);
  });

  it('reads retry-after-ms before Retry-After, and HTTP dates', () => {
    const early = [
      entry(1, { status: 503, response_headers: { 'retry-after-ms': '250', 'Retry-After': '1' } }),
      entry(2, { time: 1_767_225_600_000 + 100 + 300 }),
    ];
    expect(honorsRetryAfter(early).pass).toBe(true);
    const dated = [
      entry(1, { status: 503, time: 1_767_225_600_000, response_headers: { 'Retry-After': 'Thu, 01 Jan 2026 00:00:02 GMT' } }),
      entry(2, { time: 1_767_225_601_000 }),
    ];
    expect(honorsRetryAfter(dated).problems).toEqual([
      '#1 POST /api/v1/audio/speech at 00:00:00.000 retried #2 at 00:00:01.000, 1000 ms later; Retry-After asked 2000 ms',
    ]);
  });

  it('a fixed interval does not back off', () => {
    const entries = [entry(1, { time: 0 }), entry(2, { time: 200 }), entry(3, { time: 401 }), entry(4, { time: 600, status: 200 })];
    expect(backsOffBetweenRetries(entries).problems).toEqual([
      'POST /api/v1/audio/speech chain #1 at 00:00:00.000 → #2 at 00:00:00.200 → #3 at 00:00:00.401 → #4 at 00:00:00.600: gaps 200 ms, 201 ms, 199 ms; the delay does not grow',
    ]);
  });

  it('rejects what is not a journal', () => {
    expect(() => journalEntries(42)).toThrow(/expected a Journal/);
    expect(() => expect({ nope: true }).toHonorRetryAfter()).toThrow(/expected a Journal/);
  });
});
