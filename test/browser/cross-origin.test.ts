/**
 * A browser app on one origin (`http://localhost:<port>`) calling the standalone server on another
 * (`http://127.0.0.1:<port>/api/v1`) with the official `@openrouter/sdk`, bundled into the page
 * (`pages/sdk-page.ts`): speech, the model and generation lookups, and the `X-Generation-Id` read by a response
 * hook of the SDK's `HTTPClient`, which needs the server's CORS answers (preflights, `Access-Control-Allow-Origin`,
 * `Access-Control-Expose-Headers`). Any console error or page error fails the test.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { bundlePage, describeWithBrowser, launchBrowser, pageDir, serveStatic, watchPage, type PageDir, type PageProblem, type PageWatch, type StaticServer } from '../support/browser.js';
import type { SdkPage } from './pages/sdk-page.js';

const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
const INPUT = 'Hello from another origin.';

/** The page's global with its API (`pages/sdk-page.ts`), for the functions run in the page. */
type PageGlobal = { sdkPage: SdkPage };

describeWithBrowser('@openrouter/sdk in a page on another origin, against the standalone server, in Chromium', () => {
  let pages: PageDir;
  let files: StaticServer;
  let mock: RunningServer;
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  /** The page's origin. */
  let origin: string;
  let expectedProblems: PageProblem[] = [];

  beforeAll(async () => {
    pages = pageDir();
    await bundlePage(pages.dir, 'sdk', new URL('./pages/sdk-page.ts', import.meta.url).pathname);
    [files, mock, browser] = await Promise.all([serveStatic(pages.dir), startServer({ port: 0, seed: 5 }), launchBrowser()]);
    origin = `http://localhost:${files.port}`;
    page = await browser.newPage();
    watch = watchPage(page);
    await page.goto(`${origin}/sdk.html?api=${encodeURIComponent(mock.baseUrl)}`);
    await page.waitForFunction(() => 'sdkPage' in globalThis);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([files?.close(), mock?.close()]);
    pages?.remove();
  });

  afterEach(() => {
    const expected = expectedProblems;
    expectedProblems = [];
    expect(watch.take(), 'console errors or page errors').toEqual(expected);
  });

  it('tts.createSpeech streams the audio, and the response hook reads X-Generation-Id', async () => {
    const speech = await page.evaluate((input) => (globalThis as unknown as PageGlobal).sdkPage.createSpeech(input), INPUT);
    expect(speech).not.toHaveProperty('error');
    if ('error' in speech) return;
    expect(speech.bytes).toBeGreaterThan(48_000); // over a second of 24 kHz 16-bit PCM
    expect(speech.generationId, 'X-Generation-Id as the SDK response hook read it').toMatch(GEN_ID);
    // The server saw a cross-origin request: the page's Origin, after an allowed preflight (not journaled).
    const entry = mock.gateway.journal.list({ operation: 'speech' }).at(-1);
    expect(entry?.headers.origin).toBe(origin);
    expect(entry?.generation_id).toBe(speech.generationId);

    const generation = await page.evaluate((id) => (globalThis as unknown as PageGlobal).sdkPage.getGeneration(id), speech.generationId!);
    expect(generation).toEqual({ id: speech.generationId, apiType: 'tts', tokensPrompt: INPUT.length });
  });

  it('models.get answers the model', async () => {
    const model = await page.evaluate(() => (globalThis as unknown as PageGlobal).sdkPage.getModel('openai', 'gpt-4o-mini'));
    expect(model).toMatchObject({ id: 'openai/gpt-4o-mini', canonicalSlug: 'openai/gpt-4o-mini', pricing: { prompt: '0.00000015' } });
  });

  it('a plain fetch reads Retry-After of a 429 and the exposed headers', async () => {
    const limited = await page.evaluate(() =>
      (globalThis as unknown as PageGlobal).sdkPage.plainFetch('/model/openai/gpt-4o-mini', { headers: { 'X-Mock-Scenario': 'rate-limited' } }),
    );
    expectedProblems = [
      { kind: 'console', text: `Failed to load resource: the server responded with a status of 429 (Too Many Requests) (${mock.baseUrl}/model/openai/gpt-4o-mini)` },
    ];
    expect(limited).toMatchObject({ status: 429, type: 'cors', headers: { 'retry-after': '60', 'x-mock-applied': 'rate-limited/rate-limited' } });
    if ('headers' in limited) expect(Object.keys(limited.headers)).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']));
  });
});
