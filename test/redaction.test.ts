/**
 * Secrets never leave the simulator in clear (`src/core/http/redact.ts`): the one redaction
 * function's rules, pure; and the journal (in-process and over the admin API the dashboard reads) in every mode,
 * with every credential header and query parameter a client may send. The request log line: test/logger.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, REDACTED_BEARER, isSecretHeader, isSecretParam, redactHeaders, redactQueryParams, redactUrl, redactUrlsIn } from '../src/core/http/redact.js';
import { startServer } from '../src/server/index.js';
import { rawHttp } from './support/raw-http.js';
import { modes, type RunningMode } from './support/modes.js';

const SECRET = 'sk-or-v1-redaction-secret-0123456789';
const FIXTURE_GENERATION = 'gen-1773480413-MockrouterFixture001';

/** Every header that carries a credential, as a client may send them (mixed case). */
const SECRET_HEADERS: Record<string, string> = {
  Authorization: `Bearer ${SECRET}`,
  'Proxy-Authorization': `Basic ${SECRET}`,
  Cookie: `session=${SECRET}`,
  'Api-Key': SECRET,
  'X-Api-Key': SECRET,
  'X-Goog-Api-Key': SECRET,
  'X-Mock-Admin-Token': SECRET,
  'X-OpenRouter-Key': SECRET,
  'X-Session-Token': SECRET,
  'Client-Secret': SECRET,
};

/** Every query parameter that carries a credential, one of them in upper case. */
const SECRET_PARAMS = ['key', 'api_key', 'APIKEY', 'token', 'access_token'];

describe('the redaction rules (pure)', () => {
  it('redacts the named credential headers and any name ending in -key, -token or -secret, in any case', () => {
    for (const name of Object.keys(SECRET_HEADERS)) expect(isSecretHeader(name), name).toBe(true);
    for (const name of ['content-type', 'x-mock-session', 'x-title', 'http-referer', 'keyboard', 'x-keys', 'x-token-count', 'secretary']) {
      expect(isSecretHeader(name), name).toBe(false);
    }
    const headers = Object.fromEntries(Object.entries(SECRET_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));
    const redacted = redactHeaders({ ...headers, 'x-mock-session': 's-1', accept: ['a', 'b'], absent: undefined });
    expect(redacted).toEqual({
      authorization: REDACTED_BEARER,
      'proxy-authorization': REDACTED,
      cookie: REDACTED,
      'api-key': REDACTED,
      'x-api-key': REDACTED,
      'x-goog-api-key': REDACTED,
      'x-mock-admin-token': REDACTED,
      'x-openrouter-key': REDACTED,
      'x-session-token': REDACTED,
      'client-secret': REDACTED,
      'x-mock-session': 's-1',
      accept: 'a, b',
    });
    expect(redactHeaders({ authorization: 'bearer\tx' }).authorization).toBe('Bearer [redacted]');
  });

  it('redacts the query parameters key, api_key, apikey, token and access_token, in any case', () => {
    for (const name of SECRET_PARAMS) expect(isSecretParam(name), name).toBe(true);
    for (const name of ['id', 'keys', 'token_id', 'session']) expect(isSecretParam(name), name).toBe(false);
    expect(redactQueryParams(`id=gen-1&Key=${SECRET}&api_key=${SECRET}&x=1&x=2`)).toEqual({ id: 'gen-1', Key: REDACTED, api_key: REDACTED, x: '2' });
    expect(redactQueryParams('')).toEqual({});
  });

  it('redactUrl replaces only credential values and keeps the rest of the URL byte for byte', () => {
    expect(redactUrl(`/__mock/ui?x=%20a+b&token=${SECRET}&y`)).toBe('/__mock/ui?x=%20a+b&token=[redacted]&y');
    expect(redactUrl(`/api/v1/models?%74oken=${SECRET}&ACCESS_TOKEN=${SECRET}&api%5Fkey=${SECRET}&apikey=`)).toBe(
      '/api/v1/models?%74oken=[redacted]&ACCESS_TOKEN=[redacted]&api%5Fkey=[redacted]&apikey=[redacted]',
    );
    expect(redactUrl('/api/v1/generation?id=gen-1&key')).toBe('/api/v1/generation?id=gen-1&key');
    expect(redactUrl('/api/v1/models')).toBe('/api/v1/models');
    expect(redactUrl(`/x?%zz=1&key=${SECRET}`)).toBe('/x?%zz=1&key=[redacted]');
  });

  it('redactUrlsIn redacts the URLs an error message quotes', () => {
    expect(redactUrlsIn(`'/__mock/ui%zz?x=1&token=${SECRET}' is not a valid url component`)).toBe("'/__mock/ui%zz?x=1&token=[redacted]' is not a valid url component");
    expect(redactUrlsIn('no URL here: key=1')).toBe('no URL here: key=1');
  });
});

describe.each(modes)('the journal keeps no credential ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start();
  });
  afterAll(() => mock.stop());

  it('redacts every credential header and query parameter; the secret appears nowhere, the admin API included', async () => {
    const query = [`id=${FIXTURE_GENERATION}`, ...SECRET_PARAMS.map((name) => `${name}=${SECRET}`)].join('&');
    const res = await fetch(`${mock.baseUrl}/generation?${query}`, { headers: { ...SECRET_HEADERS, 'X-Mock-Session': 'redaction' } });
    await res.arrayBuffer();
    const entry = mock.gateway.journal.last()!;
    expect(entry.query).toEqual({ id: FIXTURE_GENERATION, key: REDACTED, api_key: REDACTED, APIKEY: REDACTED, token: REDACTED, access_token: REDACTED });
    for (const name of Object.keys(SECRET_HEADERS)) {
      expect(entry.headers[name.toLowerCase()], name).toBe(name === 'Authorization' ? REDACTED_BEARER : REDACTED);
    }
    expect(entry.headers['x-mock-session']).toBe('redaction');
    expect(JSON.stringify(mock.gateway.journal.list())).not.toContain(SECRET);
    if (mock.adminUrl !== undefined) {
      const listed = await (await fetch(`${mock.adminUrl}/__mock/requests`)).text();
      expect(listed).toContain('"x-mock-session":"redaction"');
      expect(listed).not.toContain(SECRET);
      expect(await (await fetch(`${mock.adminUrl}/__mock/requests/${entry.seq}`)).text()).not.toContain(SECRET);
    }
  });
});

describe('errors repeat no credential (server)', () => {
  it('the envelope of a URL the server cannot read quotes it with the admin token and keys redacted', async () => {
    const server = await startServer({ port: 0, adminToken: SECRET });
    try {
      for (const path of [`/__mock/ui%zz?token=${SECRET}`, `/api/v1/models%?x=1&key=${SECRET}`]) {
        const res = await rawHttp(`${server.url}${path}`);
        expect(res.status, path).toBe(400);
        expect(res.text, path).toContain('=[redacted]');
        expect(res.text, path).not.toContain(SECRET);
      }
    } finally {
      await server.close();
    }
  });
});
