/**
 * `mockrouter/browser` in Chromium behind msw's service worker (`setupWorker`), with the page's own `fetch` to
 * `https://openrouter.ai/api/v1/...`: the three operations (the MP3 decoded by the browser as long as Node.js
 * decodes the same request's MP3), a 429 with its `Retry-After`, a truncated body that gives exactly the
 * promised bytes and then fails (every time, with msw `quiet` and with msw logging each request, which clones the
 * response), and dribbled audio arriving in chunks over time. The page is `pages/worker-page.ts`, bundled the way
 * an app bundles it; any console error or page error fails the test.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createGateway } from '../../src/node-platform/create-gateway.js';
import { decodeMp3 } from '../support/audio.js';
import { bundlePage, describeWithBrowser, launchBrowser, pageDir, serveStatic, watchPage, withMswWorker, type PageDir, type PageProblem, type PageWatch, type StaticServer } from '../support/browser.js';
import type { WorkerPage } from './pages/worker-page.js';
import { sha256Hex } from '../support/sha256.js';
import { STT, TTS } from '../support/speech-model.js';
import { coreSpeechRequest } from '../support/speech-request.js';

const SEED = 7;
const SPEECH = { model: TTS, input: 'Hello from a page behind the service worker.', voice: 'alloy' };
/** The tolerance between the two decoders: 1152 samples at 24 kHz, seconds. */
const MP3_FRAME_S = 1152 / 24_000;
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
/** Runs of the truncated stream, in a row: cut inside the first chunk (the racy case), and after several chunks. */
const SHORT_RUNS = 20;
const LONG_RUNS = 10;

/** The page's global with its API (`pages/worker-page.ts`), for the functions run in the page. */
type PageGlobal = { workerPage: WorkerPage };

describeWithBrowser('mockrouter/browser behind msw\'s service worker, in Chromium', () => {
  let pages: PageDir;
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  /** The same page with msw logging each request (`?log`, msw's default): msw clones each mocked response and reads the clone. */
  let loggingPage: Page;
  let loggingWatch: PageWatch;
  /** The console errors a test expects (Chromium's line for each error status it asks for); none by default. */
  let expectedProblems: PageProblem[] = [];
  /** The same for the logging page, each problem's first line only (a page error's stack names lines of the bundle). */
  let expectedLoggingProblems: PageProblem[] = [];

  beforeAll(async () => {
    pages = pageDir();
    await bundlePage(pages.dir, 'worker', new URL('./pages/worker-page.ts', import.meta.url).pathname);
    withMswWorker(pages.dir);
    server = await serveStatic(pages.dir);
    browser = await launchBrowser();
    page = await browser.newPage();
    watch = watchPage(page);
    await page.goto(`http://127.0.0.1:${server.port}/worker.html?seed=${SEED}`);
    await page.evaluate(() => (globalThis as unknown as PageGlobal).workerPage.ready);
    loggingPage = await browser.newPage();
    loggingWatch = watchPage(loggingPage);
    await loggingPage.goto(`http://127.0.0.1:${server.port}/worker.html?seed=${SEED}&log`);
    await loggingPage.evaluate(() => (globalThis as unknown as PageGlobal).workerPage.ready);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    pages?.remove();
  });

  afterEach(() => {
    const expected = expectedProblems;
    expectedProblems = [];
    expect(watch.take(), 'console errors or page errors').toEqual(expected);
    const expectedLogging = expectedLoggingProblems;
    expectedLoggingProblems = [];
    const logging = loggingWatch.take().map((problem) => ({ ...problem, text: problem.text.split('\n')[0] }));
    expect(logging, 'console errors or page errors of the logging page').toEqual(expectedLogging);
  });

  it('answers the three operations: speech as MP3 the browser decodes as long as Node.js does, the model, the generation of that speech', async () => {
    const speech = await page.evaluate((body) => (globalThis as unknown as PageGlobal).workerPage.speechMp3(body), SPEECH);
    expect(speech.status).toBe(200);
    expect(speech.headers['content-type']).toBe('audio/mpeg');
    // Readable by page script although the response carries no Access-Control-Expose-Headers (seen in Chromium 156:
    // the request reaches the handlers without `Origin`, so no CORS header is added, and the response the service
    // worker made has type `basic`, which CORS does not filter). The line below says what this Chromium did.
    const id = speech.headers['x-generation-id'];
    expect(id, `headers the page could read: ${Object.keys(speech.headers).join(', ')} (type ${speech.type})`).toMatch(GEN_ID);
    const received = await page.evaluate(() => (globalThis as unknown as PageGlobal).workerPage.journal().at(-1));
    expect(received).toMatchObject({ operation: 'speech', generationId: id });
    console.info(
      `speech through the service worker: request Origin ${received?.headers.origin ?? 'none'}, response type ${speech.type}, ` +
        `headers the page reads: ${Object.keys(speech.headers).join(', ')}`,
    );

    // The same request and seed in Node.js: the same bytes, decoded by the suite's MP3 decoder.
    const gateway = createGateway({ seed: SEED });
    await gateway.warmUp();
    const answer = await gateway.handle(coreSpeechRequest({ ...SPEECH, response_format: 'mp3' }, { authorization: 'Bearer sk-browser', 'content-type': 'application/json' }));
    const chunks: Uint8Array[] = [];
    for await (const chunk of answer.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
    const mp3 = Buffer.concat(chunks);
    const node = await decodeMp3(mp3);
    const nodeSeconds = node.samples.length / node.sampleRate;
    console.info(
      `MP3 of ${speech.bytes} bytes: Chromium decodeAudioData ${speech.decoded.duration.toFixed(4)} s (${speech.decoded.frames} frames at ${speech.decoded.sampleRate} Hz), ` +
        `Node.js mpg123-decoder ${nodeSeconds.toFixed(4)} s (${node.samples.length} samples at ${node.sampleRate} Hz)`,
    );
    expect(speech.bytes).toBe(mp3.byteLength);
    expect(speech.sha256).toBe(sha256Hex(mp3));
    expect(speech.decoded.sampleRate).toBe(24_000);
    expect(Math.abs(speech.decoded.duration - nodeSeconds)).toBeLessThanOrEqual(MP3_FRAME_S);

    const model = await page.evaluate(() => (globalThis as unknown as PageGlobal).workerPage.getJson('/model/openai/gpt-4o-mini'));
    expect(model.status).toBe(200);
    expect(model.body).toMatchObject({ data: { id: 'openai/gpt-4o-mini', canonical_slug: 'openai/gpt-4o-mini' } });

    const generation = await page.evaluate((id) => (globalThis as unknown as PageGlobal).workerPage.getJson(`/generation?id=${encodeURIComponent(id)}`), id!);
    expect(generation.status).toBe(200);
    expect(generation.body).toMatchObject({ data: { id, model: TTS, api_type: 'tts', tokens_prompt: SPEECH.input.length } });
  });

  it('transcribes the MP3 it said, uploaded as a multipart file, back to the input with a time for each word', async () => {
    const heard = await page.evaluate(({ body, stt }) => (globalThis as unknown as PageGlobal).workerPage.hearBack(body, stt), { body: SPEECH, stt: STT });
    expect(heard.status).toBe(200);
    const answer = heard.body as { text: string; words: { word: string; start: number; end: number }[]; duration: number };
    expect(answer.text).toBe(SPEECH.input);
    expect(answer.words.map((w) => w.word).join(' ')).toBe(SPEECH.input.replace(/[^\p{L}\p{N}\s']/gu, ''));
    expect(answer.words.at(-1)!.end).toBeLessThanOrEqual(answer.duration);
  });

  it('answers 429 with a readable Retry-After for X-Mock-Scenario: rate-limited', async () => {
    const limited = await page.evaluate(() => (globalThis as unknown as PageGlobal).workerPage.getJson('/model/openai/gpt-4o-mini', { 'X-Mock-Scenario': 'rate-limited' }));
    expectedProblems = [{ kind: 'console', text: 'Failed to load resource: the server responded with a status of 429 (Too Many Requests) (https://openrouter.ai/api/v1/model/openai/gpt-4o-mini)' }];
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after'], `headers the page could read: ${Object.keys(limited.headers).join(', ')}`).toBe('60');
    expect(limited.body).toMatchObject({ error: { code: 429 } });
  });

  it(`cuts truncated-audio after exactly half of the PCM, then fails the read, every time (${SHORT_RUNS} + ${LONG_RUNS} runs in a row, msw quiet and logging)`, async () => {
    const cases = [
      ['cut inside the first chunk', { model: TTS, input: 'Hi.', voice: 'alloy' }, SHORT_RUNS],
      ['cut after several chunks', { model: TTS, input: 'This sentence is long enough to be sent as a dozen chunks, or more.', voice: 'alloy' }, LONG_RUNS],
    ] as const;
    // msw logs a mocked response by reading a clone of it without catching: each cut clone fails that read, an
    // uncaught rejection in the page (msw's, not the mock's: the clone fails as the response does).
    expectedLoggingProblems = Array.from({ length: SHORT_RUNS + LONG_RUNS }, () => ({ kind: 'pageerror', text: 'TypeError: Failed to fetch' }));
    for (const [msw, on] of [['quiet', page], ['logging', loggingPage]] as const) {
      for (const [label, body, runs] of cases) {
        const result = await on.evaluate(({ body, runs }) => (globalThis as unknown as PageGlobal).workerPage.truncatedRuns(body, runs), { body, runs });
        const exact = result.runs.filter((run) => run.bytes === result.promised && run.error !== undefined).length;
        const seen = [...new Set(result.runs.map((run) => `${run.bytes} B${run.error === undefined ? ', no error' : `, ${run.error}`}`))];
        console.info(`truncated-audio, ${label}, msw ${msw}: ${exact} of ${result.runs.length} runs got exactly ${result.promised} of ${result.full} bytes, then an error (seen: ${seen.join('; ')})`);
        expect(result.promised).toBe(Math.floor(result.full / 2));
        for (const run of result.runs) expect(run).toMatchObject({ status: 200, applied: 'truncated-audio/truncated-audio' });
        expect(exact, `${label}, msw ${msw}: runs with exactly the promised bytes, then an error (seen: ${seen.join('; ')})`).toBe(result.runs.length);
      }
    }
  });

  it('dribbles slow-audio: the headers after the 800 ms delay, then the audio in chunks about 100 ms apart', async () => {
    const body = { model: TTS, input: 'Slowly, slowly.', voice: 'alloy', response_format: 'pcm' };
    const slow = await page.evaluate((body) => (globalThis as unknown as PageGlobal).workerPage.speechRead(body, { 'X-Mock-Scenario': 'slow-audio' }), body);
    const whole = await page.evaluate((body) => (globalThis as unknown as PageGlobal).workerPage.speechRead(body), body);
    expect(slow.status).toBe(200);
    expect(slow.error).toBeUndefined();
    expect(slow.headers['x-mock-applied']).toBe('slow-audio/slow-audio');
    expect(slow.bytes).toBe(whole.bytes);
    expect(slow.headersAfter).toBeGreaterThanOrEqual(790);
    // Real time: 1 s of audio (48 000 bytes) takes about 1 s, one chunk every 100 ms.
    const seconds = whole.bytes / 48_000;
    const span = slow.chunks.at(-1)!.at - slow.chunks[0]!.at;
    console.info(`slow-audio: ${slow.chunks.length} chunks over ${Math.round(span)} ms for ${seconds.toFixed(2)} s of audio; headers after ${Math.round(slow.headersAfter)} ms`);
    expect(slow.chunks.length).toBeGreaterThanOrEqual(Math.floor(seconds * 10));
    expect(span).toBeGreaterThanOrEqual((slow.chunks.length - 1) * 100 * 0.8);
    expect(whole.chunks.length).toBeLessThan(slow.chunks.length);
  });
});
