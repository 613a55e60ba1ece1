/**
 * Audio stream effects as a client sees them, in every mode: a truncated stream stops after exactly the cut
 * and then fails; a dribbled stream arrives in many chunks spread over time; a client that hangs up mid-stream
 * leaves the mock healthy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modes, modeTitle, auth, MSW_MAJOR, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

/** About 4 s of audio: 190 KB of PCM, a dozen 16 KiB chunks. */
const LONG_INPUT = 'This sentence is long enough to be sent as a dozen chunks, or more.';
const SHORT_INPUT = 'Hello there, dribbled audio.';

const drip = { name: 'drip', rules: [{ match: { operation: 'speech' as const }, audio: { dribble: { chunks: 5, over_ms: 400 } } }] };

function speech(mock: RunningMode, input: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return postSpeech(mock.baseUrl, { model: TTS, input, voice: 'alloy' }, { ...auth(), ...headers }, signal ? { signal } : {});
}

/** Reads a body to its end or its failure, with each chunk's size and arrival time (ms after the headers). */
async function readTimed(res: Response): Promise<{ bytes: number; chunks: { size: number; at: number }[]; error?: unknown }> {
  const reader = res.body!.getReader();
  const started = performance.now();
  const chunks: { size: number; at: number }[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes, chunks };
      if (value.byteLength === 0) continue;
      bytes += value.byteLength;
      chunks.push({ size: value.byteLength, at: performance.now() - started });
    }
  } catch (error) {
    return { bytes, chunks, error };
  }
}

for (const mode of modes) {
  describe.skipIf(mode.unsupported !== undefined)(modeTitle('audio streams', mode), () => {
    let mock: RunningMode;
    beforeAll(async () => {
      mock = await mode.start({ seed: 3 });
    });
    afterAll(() => mock.stop());

    it.for([
      ['long audio, cut after several chunks', LONG_INPUT],
      ['short audio, cut inside the first chunk', 'Hi.'],
    ])('truncated-audio sends exactly half of the bytes, then the body fails (%s)', async ([, input]) => {
      const full = await readTimed(await speech(mock, input!));
      expect(full.error).toBeUndefined();
      const res = await speech(mock, input!, { 'X-Mock-Scenario': 'truncated-audio' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mock-applied')).toBe('truncated-audio/truncated-audio');
      const cut = await readTimed(res);
      expect(cut.bytes).toBe(Math.floor(0.5 * full.bytes));
      if (mode.name === 'msw' && MSW_MAJOR >= 3) {
        // msw 3 intercepts at the socket and ends the response cleanly when the mocked body errors, so in-process
        // the client gets exactly the cut bytes but no read error (docs/scenarios.md: "Truncated audio in-process under msw 3").
        expect(cut.error).toBeUndefined();
      } else {
        expect(cut.error, 'reading the body must reject after the cut').toBeDefined();
      }
      // The mock stays healthy, and the journal has the cut request as a 200 by the scenario, finished.
      const after = await speech(mock, SHORT_INPUT);
      expect(after.status).toBe(200);
      expect((await readTimed(after)).error).toBeUndefined();
      // The entry of every replica (another replica's end may reach the store a moment after its client saw it).
      let entry = (await mock.gateway.sharedJournal.list({ operation: 'speech' })).at(-2);
      for (let i = 0; i < 500 && entry?.duration_ms === null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        entry = (await mock.gateway.sharedJournal.list({ operation: 'speech' })).at(-2);
      }
      expect(entry).toMatchObject({ status: 200, scenario: 'truncated-audio', rule: 'truncated-audio' });
      expect(entry?.duration_ms).toEqual(expect.any(Number));
    });

    it('truncated-audio cuts a render still in progress at exactly half of its final length', async () => {
      const input = `${LONG_INPUT} Never heard before.`;
      const res = await speech(mock, input, { 'X-Mock-Scenario': 'truncated-audio' }); // first: not cached, streamed
      const cut = await readTimed(res);
      const full = await readTimed(await speech(mock, input)); // now complete
      expect(full.error).toBeUndefined();
      expect(cut.bytes).toBe(Math.floor(0.5 * full.bytes));
    });

    it('a dribble of 5 chunks over 400 ms arrives as 5 chunks spread over about 400 ms', async () => {
      mock.gateway.useScenario(drip);
      try {
        const started = performance.now();
        const res = await speech(mock, SHORT_INPUT);
        const headersAt = performance.now() - started;
        expect(res.status).toBe(200);
        expect(res.headers.get('x-mock-applied')).toBe('drip/rule-1');
        const { bytes, chunks, error } = await readTimed(res);
        expect(error).toBeUndefined();
        expect(chunks.length).toBeGreaterThanOrEqual(5);
        // Chunks sent 100 ms apart: the last can leave no sooner than 400 ms after the request arrived; between the
        // first and the last arrival, allow for a first read that the test process itself was late for.
        expect(chunks.at(-1)!.at - chunks[0]!.at).toBeGreaterThanOrEqual(320);
        expect(chunks.at(-1)!.at + headersAt).toBeGreaterThanOrEqual(395);
        expect(performance.now() - started).toBeLessThan(5000); // not seconds per chunk; loose for a busy machine
        // Same audio as without the scenario.
        mock.gateway.useScenario(null);
        expect((await readTimed(await speech(mock, SHORT_INPUT))).bytes).toBe(bytes);
      } finally {
        mock.gateway.useScenario(null);
      }
    });

    it('a client that hangs up after the first chunk leaves the mock healthy', async () => {
      mock.gateway.useScenario(drip);
      try {
        const controller = new AbortController();
        const res = await speech(mock, SHORT_INPUT, {}, controller.signal);
        const reader = res.body!.getReader();
        const first = await reader.read();
        expect(first.done).toBe(false);
        controller.abort();
        // Over a socket the body fails at once. In-process, msw does not tie the fetch signal to a mocked body (the
        // next read would still get data), so the client also cancels its reader, as undici does on abort. (The msw
        // mode uses `mock.attach(server)`, without which that cancel never settles under msw 2.)
        if (mode.name !== 'msw') await expect(reader.read()).rejects.toThrow();
        void reader.cancel().catch(() => undefined);
      } finally {
        mock.gateway.useScenario(null);
      }
      // Longer than the rest of the dribble, so a broken pipe or a leftover timer would have shown.
      await new Promise((resolve) => setTimeout(resolve, 450));
      const abandoned = mock.gateway.journal.last();
      expect(abandoned).toMatchObject({ operation: 'speech', status: 200, scenario: 'drip' });
      const next = await speech(mock, SHORT_INPUT);
      expect(next.status).toBe(200);
      expect((await readTimed(next)).error).toBeUndefined();
      const model = await fetch(`${mock.baseUrl}/model/openai/gpt-4o-mini`, { headers: auth() });
      expect(model.status).toBe(200);
      if (mock.adminUrl) {
        const health = await fetch(`${mock.adminUrl}/__mock/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
      }
      // The abandoned response is over, so its journal entry has a duration (CoreResponse.onDone: "called once the
      // response is fully sent, cut off, or abandoned by the client").
      expect(abandoned?.duration_ms, 'duration_ms of the abandoned request').toEqual(expect.any(Number));
    });
  });
}
