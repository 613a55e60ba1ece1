/**
 * The clock: record `created_at`, the unix seconds in generation ids and the journal's times follow it.
 * `clock` (`--clock <ISO time>`) freezes it; `POST /__mock/clock` with `{"advance_ms": N}` or
 * `{"now": "<ISO time>"}` moves it (in-process: `gateway.clock.advance/set`); in-process an option takes
 * a `now()` function. Bad bodies to `/__mock/clock` are 400 envelopes naming the field; every move (and the
 * option) keeps the clock at whole milliseconds within years 1970–9999, else it is refused and the clock stays.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockRouter, OptionsError } from '../src/index.js';
import { modes, serverMode, type Mode, type RunningMode } from './support/modes.js';
import { runCli } from './support/cli.js';
import { adminOrigin, getJson, postClock, speech, type Envelope } from './support/stateful.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest } from './support/speech-request.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

interface Stamp {
  /** Unix seconds in the generation id. */
  idSeconds: number;
  createdAt: string;
}

/** Makes a speech call and returns the id's unix seconds and the record's `created_at`. */
async function stamp(baseUrl: string): Promise<Stamp> {
  const { res, id } = await speech(baseUrl, { model: TTS, input: 'What time is it?', voice: 'alloy' });
  expect(res.status).toBe(200);
  const match = /^gen-tts-(\d{10})-[A-Za-z0-9]{20}$/.exec(id ?? '');
  expect(match, `generation id ${id}`).not.toBeNull();
  const { res: lookup, body } = await getJson<{ data: { created_at: string } }>(baseUrl, `/generation?id=${id}`);
  expect(lookup.status).toBe(200);
  return { idSeconds: Number(match![1]), createdAt: body.data.created_at };
}

/** What {@link stamp} must give at `ms`. */
function expected(ms: number): Stamp {
  return { idSeconds: Math.floor(ms / 1000), createdAt: new Date(ms).toISOString().replace('Z', '+00:00') };
}

/** Moves the clock: `POST /__mock/clock` on the standalone server, the gateway's clock in-process. */
async function move(mode: Mode, mock: RunningMode, body: { advance_ms: number } | { now: string }): Promise<void> {
  const origin = adminOrigin(mode, mock);
  if (origin) {
    const events: unknown[] = [];
    const stop = mock.gateway.events.subscribe((event) => void (event.type === 'clock' && events.push(event.data)));
    const { res, body: state } = await postClock(origin, body);
    stop();
    expect(res.status).toBe(200);
    const nowMs = mock.gateway.clock.now();
    expect(state).toEqual({ now: new Date(nowMs).toISOString().replace('Z', '+00:00'), now_ms: nowMs, frozen: true });
    // The clock has one shape: the move's event carries what the answer does.
    expect(events).toEqual([state]);
  } else if ('advance_ms' in body) mock.gateway.clock.advance(body.advance_ms);
  else mock.gateway.clock.set(Date.parse(body.now));
}

describe.each(modes)('frozen clock ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 4, clock: '2026-01-01T00:00:00Z' });
  });
  afterAll(() => mock.stop());

  it('record created_at and the id seconds follow the clock as it is frozen, advanced and set', async () => {
    expect(await stamp(mock.baseUrl)).toEqual(expected(T0));
    await new Promise((r) => setTimeout(r, 20));
    expect(await stamp(mock.baseUrl)).toEqual(expected(T0)); // frozen: real time does not move it

    await move(mode, mock, { advance_ms: 90_500 });
    expect(await stamp(mock.baseUrl)).toEqual(expected(T0 + 90_500));

    await move(mode, mock, { now: '2026-06-15T12:34:56.789+02:00' });
    expect(await stamp(mock.baseUrl)).toEqual(expected(Date.UTC(2026, 5, 15, 10, 34, 56, 789)));

    await move(mode, mock, { now: '2025-12-31T23:59:59.999Z' }); // backwards is allowed with "now"
    expect(await stamp(mock.baseUrl)).toEqual(expected(Date.UTC(2025, 11, 31, 23, 59, 59, 999)));

    const times = mock.gateway.journal.list({ operation: 'speech' }).map((e) => e.time_iso);
    expect(times).toEqual([T0, T0, T0 + 90_500, Date.UTC(2026, 5, 15, 10, 34, 56, 789), Date.UTC(2025, 11, 31, 23, 59, 59, 999)].map((ms) => expected(ms).createdAt));
  });
});

describe('in-process now() option', () => {
  it('reads every timestamp from the function; advance adds to it', async () => {
    let t = Date.UTC(2027, 2, 3, 4, 5, 6, 7);
    const mock = createMockRouter({ seed: 4, now: () => t });
    const res = await mock.gateway.handle(coreSpeechRequest({ model: TTS, input: 'Now.', voice: 'alloy' }, { authorization: 'Bearer sk-test', 'content-type': 'application/json' }));
    const record = async (id: string) =>
      (JSON.parse((await mock.gateway.handle({ method: 'GET', path: '/api/v1/generation', query: `id=${id}`, headers: { authorization: 'Bearer sk-test' } })).body as string) as { data: { created_at: string } }).data.created_at;
    const first = res.headers['X-Generation-Id']!;
    expect(first.startsWith(`gen-tts-${Math.floor(t / 1000)}-`)).toBe(true);
    expect(await record(first)).toBe(expected(t).createdAt);

    t += 5_000;
    mock.gateway.clock.advance(60_000);
    expect(mock.gateway.clock.frozen).toBe(false);
    expect(mock.gateway.clock.now()).toBe(t + 60_000);
    const second = (
      await mock.gateway.handle(coreSpeechRequest({ model: TTS, input: 'Later.', voice: 'alloy' }, { authorization: 'Bearer sk-test', 'content-type': 'application/json' }))
    ).headers['X-Generation-Id']!;
    expect(second.startsWith(`gen-tts-${Math.floor((t + 60_000) / 1000)}-`)).toBe(true);
    expect(await record(second)).toBe(expected(t + 60_000).createdAt);
    expect(() => mock.gateway.clock.advance(-1)).toThrow(RangeError);
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z'])('rejects clock option %j', (clock) => {
    expect(() => createMockRouter({ clock })).toThrow(/^clock: expected an ISO 8601 time/);
  });

  it.each([
    ['1969-12-31T23:59:59.999Z', '"1969-12-31T23:59:59.999Z"'],
    ['0999-01-01T00:00:00Z', '"0999-01-01T00:00:00Z"'],
    [-1, '-1'],
    [0.5, '0.5'],
    [253_402_300_800_000, '253402300800000'],
    [Number.NaN, 'NaN'],
  ] as const)('rejects clock option %j: out of years 1970–9999 or not whole ms', (clock, shown) => {
    expect(() => createMockRouter({ clock })).toThrow(
      new OptionsError('clock', `expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999), got ${shown}`),
    );
  });

  it.each([0, '1970-01-01T00:00:00Z', 253_402_300_799_999, '9999-12-31T23:59:59.999Z'])('accepts clock option %j, at the ends of the range', (clock) => {
    const mock = createMockRouter({ clock });
    expect(mock.gateway.clock.now()).toBe(typeof clock === 'number' ? clock : Date.parse(clock));
  });

  it('gateway.clock.advance and set refuse a move out of whole ms in years 1970–9999 with a RangeError; the clock stays', async () => {
    const mock = createMockRouter({ clock: '2026-01-01T00:00:00Z' });
    const clock = mock.gateway.clock;
    const most = 253_402_300_799_999 - T0;
    const range = '(the clock stays within years 1970–9999)';
    expect(() => clock.advance(0.5)).toThrow(new RangeError(`advance_ms: expected a whole number of ms from 0 to ${most} ${range}, got 0.5`));
    expect(() => clock.advance(1e308)).toThrow(new RangeError(`advance_ms: expected a whole number of ms from 0 to ${most} ${range}, got 1e+308`));
    expect(() => clock.advance(most + 1)).toThrow(RangeError);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    const time = '(whole epoch ms from 0 to 253402300799999)';
    expect(() => clock.set(-1)).toThrow(new RangeError(`now: expected a time within years 1970–9999 ${time}, got -1`));
    expect(() => clock.set(T0 + 0.5)).toThrow(new RangeError(`now: expected a time within years 1970–9999 ${time}, got ${T0 + 0.5}`));
    expect(() => clock.set(253_402_300_800_000)).toThrow(RangeError);
    expect(clock.now()).toBe(T0);

    // The ends of the range are allowed, and ids and times stay well-formed there.
    clock.advance(most);
    expect(clock.now()).toBe(253_402_300_799_999);
    expect(() => clock.advance(1)).toThrow(new RangeError(`advance_ms: expected a whole number of ms from 0 to 0 ${range}, got 1`));
    clock.advance(0);
    clock.set(0);
    expect(clock.now()).toBe(0);
    const res = await mock.gateway.handle(coreSpeechRequest({ model: TTS, input: 'At the epoch.', voice: 'alloy' }, { authorization: 'Bearer sk-test', 'content-type': 'application/json' }));
    expect(res.headers['X-Generation-Id']).toMatch(/^gen-tts-0-[A-Za-z0-9]{20}$/);
  });

  it('a running clock (no clock option) refuses the same moves', () => {
    const mock = createMockRouter({ now: () => 1_000 });
    expect(() => mock.gateway.clock.advance(0.25)).toThrow(RangeError);
    expect(() => mock.gateway.clock.set(-5)).toThrow(RangeError);
    expect(mock.gateway.clock.now()).toBe(1_000);
    mock.gateway.clock.set(0);
    expect(mock.gateway.clock.now()).toBe(0);
  });
});

describe('admin clock API (standalone)', () => {
  let mock: RunningMode;
  let origin: string;
  beforeAll(async () => {
    mock = await serverMode.start({ seed: 4, clock: '2026-01-01T00:00:00Z' });
    origin = adminOrigin(serverMode, mock)!;
  });
  afterAll(() => mock.stop());
  beforeEach(() => mock.gateway.clock.set(T0));

  it('GET /__mock/clock reports the frozen time', async () => {
    const res = await fetch(`${origin}/__mock/clock`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ now: '2026-01-01T00:00:00.000+00:00', now_ms: T0, frozen: true });
  });

  const bad: [string, string, RegExp][] = [
    ['an empty object', '{}', /^body: expected \{"advance_ms": <ms ≥ 0>\} or \{"now": "<ISO 8601 time>"\}$/],
    ['both fields', '{"advance_ms": 10, "now": "2026-01-02T00:00:00Z"}', /^body: /],
    ['an array', '[1]', /^body: /],
    ['null', 'null', /^body: /],
    ['malformed JSON', '{"advance_ms": ', /^Invalid JSON body/],
    ['a negative advance_ms', '{"advance_ms": -5}', /^advance_ms: expected a whole number of ms from 0 to 251635075199999 \(the clock stays within years 1970–9999\), got -5$/],
    ['an infinite advance_ms', '{"advance_ms": 1e400}', /^advance_ms: expected a whole number of ms ≥ 0, got Infinity$/],
    // Past 9999-12-31: ids would read gen-tts-1e+305-…; it answered 500 and the clock moved all the same.
    ['a huge advance_ms', '{"advance_ms": 1e308}', /^advance_ms: expected a whole number of ms from 0 to 251635075199999 \(the clock stays within years 1970–9999\), got 1e\+308$/],
    ['an advance_ms one past 9999', '{"advance_ms": 252635017600000}', /^advance_ms: .*from 0 to 251635075199999 .*got 252635017600000$/],
    ['a fractional advance_ms', '{"advance_ms": 0.5}', /^advance_ms: expected a whole number of ms from 0 to \d+ \(the clock stays within years 1970–9999\), got 0.5$/],
    ['a now before 1970', '{"now": "1969-12-31T23:59:59Z"}', /^now: expected a time within years 1970–9999 \(whole epoch ms from 0 to 253402300799999\), got "1969-12-31T23:59:59Z"$/],
    ['a now in year 0001', '{"now": "0001-01-01T00:00:00Z"}', /^now: expected a time within years 1970–9999 /],
    ['a now in 10000', '{"now": "+010000-01-01T00:00:00Z"}', /^now: /],
    ['a now that is not a time', '{"now": "yesterday"}', /^now: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "yesterday"$/],
    ['a month 13', '{"now": "2026-13-01T00:00:00Z"}', /^now: /],
  ];
  it.each(bad)('POST /__mock/clock with %s is a 400 envelope naming the field; the clock does not move', async (_what, body, message) => {
    const { res, body: envelope } = await postClock(origin, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((envelope as Envelope).error.code).toBe(400);
    expect((envelope as Envelope).error.message).toMatch(message);
    expect(mock.gateway.clock.now()).toBe(T0);
  });

  // The field is there but of the wrong type: the message should name it, as the speech validator does
  // (`model: must be a string, got number 42`). Today it is the generic `body: expected ...` message.
  it.each([
    ['advance_ms as a string', '{"advance_ms": "10"}', /^advance_ms: /],
    ['advance_ms null', '{"advance_ms": null}', /^advance_ms: /],
    ['now as a number', '{"now": 1767225600000}', /^now: /],
  ])('POST /__mock/clock with %s names that field', async (_what, body, message) => {
    const { res, body: envelope } = await postClock(origin, body);
    expect(res.status).toBe(400);
    expect((envelope as Envelope).error.message).toMatch(message);
    expect(mock.gateway.clock.now()).toBe(T0);
  });

  // An impossible calendar date is not a time: Date.parse rolls 2026-02-30 over to March 2.
  it.each(['2026-02-30T00:00:00Z', '2026-04-31T00:00:00Z', '2026-02-29'])('POST /__mock/clock rejects the impossible date %s', async (now) => {
    const { res, body: envelope } = await postClock(origin, { now });
    expect(res.status).toBe(400);
    expect((envelope as Envelope).error.message).toMatch(/^now: /);
    expect(mock.gateway.clock.now()).toBe(T0);
  });

  it('POST /__mock/clock reaches both ends of years 1970–9999 and no further', async () => {
    const post = async (body: unknown) => {
      const { res, body: answer } = await postClock(origin, body);
      return { status: res.status, answer: answer as { now_ms?: number; error?: { message: string } } };
    };
    expect(await post({ now: '9999-12-31T23:59:59.999Z' })).toMatchObject({ status: 200, answer: { now_ms: 253_402_300_799_999 } });
    const refused = await post({ advance_ms: 1 });
    expect(refused.status).toBe(400);
    expect(refused.answer.error!.message).toBe('advance_ms: expected a whole number of ms from 0 to 0 (the clock stays within years 1970–9999), got 1');
    expect(await post({ advance_ms: 0 })).toMatchObject({ status: 200, answer: { now_ms: 253_402_300_799_999 } });
    expect(await post({ now: '1970-01-01T00:00:00Z' })).toMatchObject({ status: 200, answer: { now_ms: 0 } });
    expect(mock.gateway.clock.now()).toBe(0);
  });

  it('a running clock (no --clock) moves by advance_ms and keeps running', async () => {
    const running = await serverMode.start({ seed: 4 });
    try {
      const runningOrigin = adminOrigin(serverMode, running)!;
      const before = Date.now();
      const { res, body } = await postClock(runningOrigin, { advance_ms: 3_600_000 });
      expect(res.status).toBe(200);
      const state = body as { now_ms: number; frozen: boolean };
      expect(state.frozen).toBe(false);
      expect(state.now_ms - before - 3_600_000).toBeGreaterThanOrEqual(0);
      expect(state.now_ms - before - 3_600_000).toBeLessThan(5_000);
      const { createdAt } = await stamp(running.baseUrl);
      const offset = Date.parse(createdAt) - Date.now();
      expect(offset).toBeGreaterThan(3_600_000 - 5_000);
      expect(offset).toBeLessThanOrEqual(3_600_000);
    } finally {
      await running.stop();
    }
  });
});

describe('--clock through the CLI', () => {
  it('freezes the clock at the given time; POST /__mock/clock moves it', async () => {
    const cli = runCli(['--port', '0', '--quiet', '--clock', '2026-01-01T00:00:00Z']);
    try {
      const baseUrl = await cli.ready();
      expect(await stamp(baseUrl)).toEqual(expected(T0));
      const { res } = await postClock(new URL(baseUrl).origin, { advance_ms: 61_000 });
      expect(res.status).toBe(200);
      expect(await stamp(baseUrl)).toEqual(expected(T0 + 61_000));
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('a --clock before 1970 fails at startup in one line naming the range', async () => {
    const cli = runCli(['--port', '0', '--clock', '1969-12-31T23:59:59Z']);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toBe('mockrouter: --clock: expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999), got "1969-12-31T23:59:59Z"\n');
  });

  it('a bad --clock fails at startup in one line', async () => {
    const cli = runCli(['--port', '0', '--clock', 'soon']);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toBe('mockrouter: --clock: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"\n');
  });
});
