/**
 * `createMiddleware` of `mockrouter/express` (`src/express/`) in express 4 and express 5 apps: the gateway under
 * `/api/v1` of its mount path, the app's own routes still answered, a body an earlier parser read, a streamed speech
 * body, a mid-stream failure that ends only its request, and no msw loaded. The contract cases run through it too
 * (the `express` mode of `test/support/modes.ts`). The MSW handlers mounted with `@mswjs/http-middleware` (msw 2
 * only) are run by `test/examples.test.ts` (`examples/express/msw-handlers.ts`) and `test/scenarios-parity.test.ts`.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express4, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMiddleware, type MockRouterMiddleware } from '../src/express/index.js';
import { bytesOf, decodeMp3, rms } from './support/audio.js';
import { auth, listenOnFreePort } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

/** express 5, installed as the alias `express5` (no types of its own: its API is express 4's for what is used here). */
const express5 = ((await import('express5' as string)) as { default: typeof express4 }).default;
const EXPRESSES = [
  { name: 'express 4', express: express4 },
  { name: 'express 5', express: express5 },
];

const INPUT = 'Hello from an express app, mounted on the core.';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A speech request's body. */
const speechBody = (input = INPUT, format = 'mp3') => JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: format });

/** POSTs a speech request to `base` (an API base, `.../api/v1`). */
function speech(base: string, headers: Record<string, string> = {}, body = speechBody()): Promise<Response> {
  return postSpeech(base, body, { ...auth(), ...headers });
}

/** Reads a body to its end: its byte count, and the error that ended it early, if any. */
async function readAll(res: Response): Promise<{ bytes: number; error: unknown }> {
  const reader = res.body!.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes, error: undefined };
      bytes += value.byteLength;
    }
  } catch (error) {
    return { bytes, error };
  }
}

for (const { name, express } of EXPRESSES) {
  describe(`createMiddleware in ${name}`, () => {
    let mock: MockRouterMiddleware;
    let app: Express;
    let server: { url: string; close(): Promise<void> };
    let base: string;
    beforeAll(async () => {
      mock = createMiddleware({ seed: 11 });
      app = express();
      app.get('/', (_req, res) => void res.send('the app home'));
      app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
      app.use(mock);
      // After the mock: a request it passed on, body unread, reaches the app's own parser.
      app.post('/echo', express.json(), (req, res) => void res.json({ echoed: req.body as unknown }));
      app.get('/api/v2/things', (_req, res) => void res.json({ things: [] }));
      server = await listenOnFreePort(app);
      base = `${server.url}/api/v1`;
    });
    afterAll(() => server.close());

    it('answers the three operations under /api/v1 and journals them', async () => {
      mock.reset();
      const res = await speech(base);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      const id = res.headers.get('x-generation-id');
      await res.arrayBuffer();
      const model = await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: auth() });
      expect(model.status).toBe(200);
      expect((await model.json()).data.id).toBe('openai/gpt-4o-mini');
      const generation = await fetch(`${base}/generation?id=${id}`, { headers: auth() });
      expect(generation.status).toBe(200);
      expect((await generation.json()).data).toMatchObject({ id, api_type: 'tts', model: TTS });
      expect(mock.journal.list().map((e) => [e.operation, e.status, e.path])).toEqual([
        ['speech', 200, '/api/v1/audio/speech'],
        ['model', 200, '/api/v1/model/openai/gpt-4o-mini'],
        ['generation', 200, '/api/v1/generation'],
      ]);
      expect(mock.gateway.journal).toBe(mock.journal);
    });

    it("leaves every path outside /api/v1 to the app's own routes, unread", async () => {
      expect(await (await fetch(`${server.url}/`)).text()).toBe('the app home');
      expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${server.url}/api/v2/things`)).json()).toEqual({ things: [] });
      const echo = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
      expect(await echo.json()).toEqual({ echoed: { a: 1 } });
      // Not the gateway's: express's own 404 page.
      const other = await fetch(`${server.url}/api/v1x`);
      expect(other.status).toBe(404);
      expect(other.headers.get('content-type')).toMatch(/^text\/html/);
    });

    it('answers the index at /api/v1 and the gateway 404 envelope for a path it does not serve under it', async () => {
      const index = await fetch(base);
      expect(index.status).toBe(200);
      expect((await index.json()).admin).toEqual([]);
      const missing = await fetch(`${base}/chat/completions`, { method: 'POST', headers: auth() });
      expect(missing.status).toBe(404);
      expect((await missing.json()).error.code).toBe(404);
    });

    it('streams a speech body that decodes to the spoken length, identical to a second answer', async () => {
      const first = await bytesOf(await speech(base));
      const decoded = await decodeMp3(first);
      expect(decoded.sampleRate).toBe(24000);
      expect(decoded.samples.length / 24000).toBeGreaterThan((INPUT.length / 15) * 0.9);
      expect(rms(decoded.samples)).toBeGreaterThan(0.02);
      expect(Buffer.from(await bytesOf(await speech(base))).equals(Buffer.from(first))).toBe(true);
    });

    it('ends only the request whose body fails mid-stream (truncated-audio): the app and the gateway keep answering', async () => {
      const full = await readAll(await speech(base, {}, speechBody('A mid-stream failure.')));
      expect(full.error).toBeUndefined();
      const cut = await speech(base, { 'X-Mock-Scenario': 'truncated-audio' }, speechBody('A mid-stream failure.'));
      expect(cut.status).toBe(200);
      const read = await readAll(cut);
      expect(read.bytes).toBe(Math.floor(full.bytes / 2));
      expect(read.error, 'the client sees the cut').toBeDefined();
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect((await speech(base)).status).toBe(200);
      expect(mock.journal.list({ operation: 'speech' }).at(-2)).toMatchObject({ status: 200, scenario: 'truncated-audio', duration_ms: expect.any(Number) });
    });

    it('answers a body over 1 MiB with the 413 envelope', async () => {
      const res = await speech(base, {}, speechBody('x'.repeat(1024 * 1024 + 1)));
      expect(res.status).toBe(413);
      expect((await res.json()).error.code).toBe(413);
    });

    it('sets the default scenario and resets through the middleware', async () => {
      mock.useScenario('rate-limited');
      expect((await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: auth() })).status).toBe(429);
      mock.useScenario(null);
      mock.reset();
      expect(mock.journal.size).toBe(0);
      expect((await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: auth() })).status).toBe(200);
    });
  });

  describe(`createMiddleware in ${name}, mounted under a prefix and after body parsers`, () => {
    /** An app with `use(...)` run before the mock, which is mounted at `/mock`. */
    async function appWith(before: (app: Express) => void): Promise<{ mock: MockRouterMiddleware; base: string; close(): Promise<void> }> {
      const mock = createMiddleware({ seed: 11 });
      const app = express();
      before(app);
      app.use('/mock', mock);
      const server = await listenOnFreePort(app);
      return { mock, base: `${server.url}/mock/api/v1`, close: server.close };
    }

    it('routes by the path relative to the mount: /mock/api/v1 is the gateway, /api/v1 the app', async () => {
      const { mock, base, close } = await appWith(() => undefined);
      try {
        const res = await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: auth() });
        expect(res.status).toBe(200);
        expect(mock.journal.last()).toMatchObject({ operation: 'model', path: '/api/v1/model/openai/gpt-4o-mini' });
        const outside = await fetch(`${new URL(base).origin}/api/v1/model/openai/gpt-4o-mini`, { headers: auth() });
        expect(outside.status).toBe(404);
        expect(outside.headers.get('content-type')).toMatch(/^text\/html/);
      } finally {
        await close();
      }
    });

    it.for([
      ['express.json()', (app: Express): void => void app.use(express.json())],
      ['express.raw()', (app: Express): void => void app.use(express.raw({ type: '*/*' }))],
      ['express.text()', (app: Express): void => void app.use(express.text({ type: '*/*' }))],
    ] as const)('takes the body %s already read from req.body', async ([, before]) => {
      const { mock, base, close } = await appWith(before);
      try {
        const res = await speech(base, {}, speechBody('Parsed first.', 'pcm'));
        expect(res.status).toBe(200);
        expect((await bytesOf(res)).byteLength).toBeGreaterThan(1000);
        expect(mock.journal.last()?.body).toMatchObject({ input: 'Parsed first.', response_format: 'pcm' });
        const invalid = await speech(base, {}, JSON.stringify({ model: TTS, voice: 'alloy' }));
        expect(invalid.status).toBe(400);
      } finally {
        await close();
      }
    });
  });
}

describe('createMiddleware on a bare node:http server', () => {
  it('needs no express: next() is the fallback for the paths it leaves', async () => {
    const mock = createMiddleware({ seed: 1 });
    const server = createServer((req, res) => mock(req, res, () => void res.writeHead(418).end('mine')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${origin}/api/v1/key`, { headers: auth() })).status).toBe(200);
      const mine = await fetch(`${origin}/elsewhere`);
      expect([mine.status, await mine.text()]).toEqual([418, 'mine']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('mockrouter/express without msw', () => {
  it('mounts in express and answers while msw is never resolved (a child process whose loader refuses msw)', async () => {
    // The package by its name (dist/, built by `npm test`), in a child process whose resolve hook throws for
    // msw and @mswjs/*, so any import of them fails; a require() of them (which that hook does not see) would
    // show in the CommonJS module cache, printed last.
    const hook = `export async function resolve(specifier, context, next) {
      if (/^(msw|@mswjs\\/)/.test(specifier)) throw new Error('msw was imported: ' + specifier);
      return next(specifier, context);
    }`;
    const script = `
      import { createRequire, register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { createMiddleware } = await import('mockrouter/express');
      const { default: express } = await import('express');
      const app = express();
      app.use(createMiddleware({ seed: 1 }));
      const server = app.listen(0, '127.0.0.1', async () => {
        const base = 'http://127.0.0.1:' + server.address().port + '/api/v1';
        const res = await fetch(base + '/audio/speech', { method: 'POST', headers: { Authorization: 'Bearer sk', 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: '${TTS}', input: 'No msw here.', voice: 'alloy' }) });
        console.log(res.status, (await res.arrayBuffer()).byteLength > 1000);
        console.log(Object.keys(createRequire(import.meta.url).cache).filter((file) => /[\\\\/]node_modules[\\\\/](msw|@mswjs)[\\\\/]/.test(file)));
        server.closeAllConnections();
        server.close();
      });`;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 15_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '200 true\n[]\n', stderr: '' });
  });
});
