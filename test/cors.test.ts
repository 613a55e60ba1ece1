/**
 * CORS, as a page in a browser meets it (src/core/http/cors.ts, answered by the front door in every mode): preflights,
 * the headers of actual responses, the admin API kept same-origin, a narrowed policy, bad `cors` values. Requests
 * are Node's `fetch` with an explicit `Origin` (undici sends it as given), so no browser is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_EXPOSE_HEADERS, DEFAULT_CORS_POLICY, corsPolicyOf, type CorsOption } from '../src/core/http/cors.js';
import { createGateway, createMockRouter, OptionsError } from '../src/index.js';
import { createHandlers } from '../src/msw/handlers.js';
import { startServer } from '../src/server/index.js';
import { modes, auth, modeTitle, type Mode, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const PAGE = 'http://localhost:5173';
const OTHER = 'https://evil.example';

const speechBody = JSON.stringify({ model: TTS, input: 'Hello from a page.', voice: 'alloy', response_format: 'mp3' });

/** A browser's preflight for a request of `method` with `headers` (comma-separated, lower-case, as browsers send). */
function preflight(url: string, origin: string, method = 'POST', headers?: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, ...(headers === undefined ? {} : { 'Access-Control-Request-Headers': headers }) },
  });
}

/** Every `access-control-*` header of a response. */
function corsHeadersOf(res: Response): Record<string, string> {
  const found: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name.startsWith('access-control-')) found[name] = value;
  });
  return found;
}

/** The names of `Access-Control-Expose-Headers`, lower-case. */
function exposed(res: Response): string[] {
  return (res.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
}

const EXPOSE = CORS_EXPOSE_HEADERS.map((name) => name.toLowerCase());

/** Starts `mode` with `cors` (option `cors` of `createMockRouter` and `startServer`). */
function startWithCors(mode: Mode, cors: CorsOption): Promise<RunningMode> {
  return mode.start({ cors });
}

for (const mode of modes) {
  describe.skipIf(mode.unsupported !== undefined)(modeTitle('CORS, the default policy', mode), () => {
    let mock: RunningMode;
    beforeAll(async () => {
      mock = await mode.start({ seed: 5 });
    });
    afterAll(() => mock?.stop());

    it('answers a preflight for the speech call with 204 and the requested headers allowed, not journaled, no key needed', async () => {
      const before = (await mock.gateway.sharedJournal.list()).length;
      const res = await preflight(`${mock.baseUrl}/audio/speech`, PAGE, 'POST', 'authorization,content-type,x-mock-scenario');
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const methods = res.headers.get('access-control-allow-methods')!.split(',').map((m) => m.trim());
      expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'OPTIONS']));
      const allowed = res.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim().toLowerCase());
      expect(allowed).toEqual(['authorization', 'content-type', 'x-mock-scenario']);
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('vary')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect((await mock.gateway.sharedJournal.list()).length).toBe(before);
    });

    it('allows the bearer key, the JSON body and the X-Mock-* headers when the preflight names no header', async () => {
      const res = await preflight(`${mock.baseUrl}/model/openai/gpt-4o`, PAGE, 'GET');
      expect(res.status).toBe(204);
      const allowed = res.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim().toLowerCase());
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-mock-status', 'x-mock-scenario', 'x-mock-session']));
    });

    it('answers a preflight on the index and on a path the simulator does not serve', async () => {
      for (const url of [mock.baseUrl, `${mock.baseUrl}/chat/completions`]) {
        const res = await preflight(url, PAGE);
        expect(res.status, url).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
    });

    it('lets the page read a streamed speech response and its generation id', async () => {
      const res = await postSpeech(mock.baseUrl, speechBody, { ...auth(), Origin: PAGE });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(exposed(res)).toEqual(expect.arrayContaining(EXPOSE));
      expect(res.headers.get('x-generation-id')).toMatch(/^gen-tts-/);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    });

    it('lets the page read a 429 envelope, its Retry-After and rate-limit headers', async () => {
      const res = await postSpeech(mock.baseUrl, speechBody, { ...auth(), 'X-Mock-Status': '429', Origin: PAGE });
      expect(res.status).toBe(429);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(exposed(res)).toEqual(expect.arrayContaining(EXPOSE));
      expect(res.headers.get('retry-after')).toBe('60');
      expect((await res.json()).error.code).toBe(429);
    });

    it('adds the headers to a 401 and to the 405 of an OPTIONS that is no preflight (no Access-Control-Request-Method)', async () => {
      const unauthorized = await fetch(`${mock.baseUrl}/key`, { headers: { Origin: PAGE } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe('*');
      const options = await fetch(`${mock.baseUrl}/audio/speech`, { method: 'OPTIONS', headers: { Origin: PAGE } });
      expect(options.status).toBe(405);
      expect(options.headers.get('allow')).toBe('POST');
      expect(options.headers.get('access-control-allow-origin')).toBe('*');
      expect((await options.json()).error.code).toBe(405);
    });

    it('adds the headers to the 404 of an unknown path under /api/v1', async () => {
      const res = await fetch(`${mock.baseUrl}/chat/completions`, { method: 'POST', headers: { ...auth(), Origin: PAGE } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('changes nothing for requests without Origin', async () => {
      const speech = await postSpeech(mock.baseUrl, speechBody, auth());
      expect(speech.status).toBe(200);
      expect(corsHeadersOf(speech)).toEqual({});
      await speech.arrayBuffer();
      const limited = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: { ...auth(), 'X-Mock-Status': '429' } });
      expect(limited.status).toBe(429);
      expect(corsHeadersOf(limited)).toEqual({});
      expect(limited.headers.get('vary')).toBeNull();
      // An OPTIONS with Access-Control-Request-Method but no Origin is no preflight either: the 405 of today.
      const options = await fetch(`${mock.baseUrl}/audio/speech`, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } });
      expect(options.status).toBe(405);
      expect(options.headers.get('allow')).toBe('POST');
      expect(corsHeadersOf(options)).toEqual({});
    });
  });

  describe.skipIf(mode.unsupported !== undefined)(modeTitle('CORS, a narrowed policy', mode), () => {
    let mock: RunningMode;
    beforeAll(async () => {
      mock = await startWithCors(mode, [PAGE]);
    });
    afterAll(() => mock?.stop());

    it('echoes an allowed origin, with Vary: Origin', async () => {
      const pre = await preflight(`${mock.baseUrl}/audio/speech`, PAGE, 'POST', 'authorization,content-type');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(pre.headers.get('vary')).toBe('Origin');
      const res = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: { ...auth(), Origin: PAGE } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(res.headers.get('vary')).toBe('Origin');
      expect(exposed(res)).toEqual(expect.arrayContaining(EXPOSE));
    });

    it('rejects another origin: its preflight gets a 403 envelope, its responses no CORS header', async () => {
      const before = (await mock.gateway.sharedJournal.list()).length;
      const pre = await preflight(`${mock.baseUrl}/audio/speech`, OTHER, 'POST', 'authorization,content-type');
      expect(pre.status).toBe(403);
      expect(corsHeadersOf(pre)).toEqual({});
      const envelope = await pre.json();
      expect(envelope.error).toMatchObject({ code: 403, metadata: { error_type: 'permission_denied' } });
      expect(envelope.error.message).toBe(`CORS: origin ${OTHER} is not allowed by the cors option (--cors): allowed ${PAGE}`);
      const res = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: { ...auth(), Origin: OTHER } });
      expect(res.status).toBe(200);
      expect(corsHeadersOf(res)).toEqual({});
      expect((await mock.gateway.sharedJournal.list()).length).toBe(before + 1);
    });
  });
}

describe('CORS on the admin API (standalone server)', () => {
  it('is same-origin by default: no preflight success, no CORS header', async () => {
    const server = await startServer({ port: 0 });
    try {
      const pre = await preflight(`${server.url}/__mock/requests`, PAGE, 'DELETE');
      expect(pre.status).toBe(403);
      expect(corsHeadersOf(pre)).toEqual({});
      expect((await pre.json()).error.message).toMatch(/^CORS: origin http:\/\/localhost:5173 may not call the admin API; it is same-origin unless/);
      const res = await fetch(`${server.url}/__mock/requests`, { headers: { Origin: PAGE } });
      expect(res.status).toBe(200);
      expect(corsHeadersOf(res)).toEqual({});
      const health = await fetch(`${server.url}/__mock/health`, { headers: { Origin: PAGE } });
      expect(corsHeadersOf(health)).toEqual({});
    } finally {
      await server.close();
    }
  });

  it.each([[[PAGE]], ['*, http://localhost:5173']] as const)('opens to an origin the policy names: cors %j', async (cors) => {
    const server = await startServer({ port: 0, cors });
    try {
      const pre = await preflight(`${server.url}/__mock/scenario`, PAGE, 'PUT', 'content-type,x-mock-admin-token');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
      expect(pre.headers.get('access-control-allow-headers')).toBe('content-type, x-mock-admin-token');
      expect(pre.headers.get('vary')).toBe('Origin');
      const res = await fetch(`${server.url}/__mock/requests`, { headers: { Origin: PAGE } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
      // Any other origin: still same-origin on the admin API.
      expect((await preflight(`${server.url}/__mock/requests`, OTHER, 'GET')).status).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe('CORS, what only the standalone server shows', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('answers a preflight 204 with no Content-Length and no body', async () => {
    const res = await preflight(`${server.baseUrl}/audio/speech`, PAGE);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBeNull();
  });

  it("adds the headers to the server's own errors (a body over 1 MiB)", async () => {
    const res = await postSpeech(server.baseUrl, 'x'.repeat(1024 * 1024 + 1), { ...auth(), Origin: PAGE });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(exposed(res)).toEqual(expect.arrayContaining(EXPOSE));
  });

  it('rejects a bad cors option before listening, naming it', async () => {
    await expect(startServer({ port: 0, cors: 'localhost:5173' })).rejects.toMatchObject({ name: 'OptionsError', option: 'cors' });
    expect(() => createHandlers(createGateway(), { cors: ['http://ok.example', 'ftp:/x'] })).toThrow(OptionsError);
    expect(() => createMockRouter({ cors: 'localhost:5173' })).toThrow(expect.objectContaining({ name: 'OptionsError', option: 'cors' }));
  });
});

describe('corsPolicyOf', () => {
  it('is any origin by default', () => {
    expect(corsPolicyOf(undefined)).toBe(DEFAULT_CORS_POLICY);
    expect(corsPolicyOf('*')).toMatchObject({ anyOrigin: true, origins: new Set(), description: '*' });
  });

  it('serializes origins as browsers send Origin', () => {
    const policy = corsPolicyOf(' HTTP://LocalHost:5173/ , https://app.example:443,http://[::1]:3000,tauri://localhost,');
    expect([...policy.origins]).toEqual(['http://localhost:5173', 'https://app.example', 'http://[::1]:3000', 'tauri://localhost']);
    expect(policy.anyOrigin).toBe(false);
    expect(corsPolicyOf(['*', 'http://localhost:5173'])).toMatchObject({ anyOrigin: true, description: '*, http://localhost:5173' });
  });

  it.each([
    ['localhost:5173', '"localhost:5173"'],
    ['http://localhost:5173/app', '"http://localhost:5173/app"'],
    ['http://x.example?q=1', '"http://x.example?q=1"'],
    ['http://user@x.example', '"http://user@x.example"'],
    ['http://x.example:99999', '"http://x.example:99999"'],
    ['null', '"null"'],
    ['', '""'],
    [' , ', '" , "'],
    [[], '[]'],
    [[42], '42'],
  ] as const)('rejects %j, naming the option and what was expected', (value, shown) => {
    let error: unknown;
    try {
      corsPolicyOf(value as CorsOption);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option: 'cors' });
    expect((error as Error).message).toBe(
      `cors: expected "*" or origins scheme://host[:port] separated by commas, such as http://localhost:5173,https://app.example; got ${shown}`,
    );
  });
});
