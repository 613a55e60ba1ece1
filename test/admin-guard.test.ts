/**
 * The admin API's guard on a developer's machine (`src/core/admin-guard.ts`): the admin token by header, cookie,
 * `?token=` (a 303 that sets the cookie) or the login form; the Host check against DNS rebinding (localhost,
 * 127.0.0.1, [::1], the bound address, `allowedHosts`); state-changing requests refused from other sites' origins.
 * The health check and the gateway's API under /api/v1 are not affected.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostOfHeader, hostPolicyOf, isAllowedHost } from '../src/core/admin-guard.js';
import { frontDoor } from '../src/core/front-door.js';
import { createGateway } from '../src/node/gateway.js';
import { OptionsError } from '../src/core/options.js';
import { localHostsOf, startServer, type RunningServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { rawHttp, type RawAnswer } from './support/raw-http.js';

function message(res: RawAnswer): string {
  expect(res.headers['content-type']).toBe('application/json');
  const body = JSON.parse(res.text) as { error: { code: number; message: string } };
  expect(body.error.code).toBe(res.status);
  return body.error.message;
}

const COOKIE_FLAGS = 'HttpOnly; SameSite=Strict; Path=/__mock';

describe('the admin token', () => {
  let server: RunningServer;
  const TOKEN = 'tok-123';
  beforeAll(async () => {
    server = await startServer({ port: 0, adminToken: TOKEN });
  });
  afterAll(() => server.close());
  const url = (path: string) => `${server.url}/__mock/${path}`;

  it('is taken from Authorization: Bearer, X-Mock-Admin-Token or the cookie; anything else is a 401 envelope', async () => {
    expect((await rawHttp(url('requests'))).status).toBe(401);
    expect(message(await rawHttp(url('requests')))).toMatch(/missing or wrong admin token .*open \/__mock\/ui\?token=<token> once/);
    expect((await rawHttp(url('requests'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { 'X-Mock-Admin-Token': TOKEN } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { Cookie: `theme=dark; mockrouter_admin=${TOKEN}` } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { Cookie: 'mockrouter_admin=nope' } })).status).toBe(401);
    expect((await rawHttp(url('requests'), { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await rawHttp(url('health'))).status).toBe(200);
    // The event stream too (an EventSource sends the cookie).
    const events = await fetch(url('events'), { headers: { Cookie: `mockrouter_admin=${TOKEN}` } });
    expect(events.status).toBe(200);
    await events.body!.cancel();
    expect((await fetch(url('events'))).status).toBe(401);
  });

  it('?token= on an admin GET sets the cookie and redirects (303) to the same URL without it', async () => {
    const res = await fetch(url(`ui?x=1&token=${TOKEN}&y=two`), { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/__mock/ui?x=1&y=two');
    expect(res.headers.get('set-cookie')).toBe(`mockrouter_admin=${TOKEN}; ${COOKIE_FLAGS}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const requests = await fetch(url(`requests?token=${TOKEN}`), { redirect: 'manual' });
    expect(requests.status).toBe(303);
    expect(requests.headers.get('location')).toBe('/__mock/requests');
    const wrong = await rawHttp(url('ui?token=wrong'));
    expect(wrong.status).toBe(401);
    expect(message(wrong)).toBe('Admin API: wrong admin token in ?token=');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('POST /__mock/login with the form field token sets the cookie and redirects (303) to /__mock/ui', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const ok = await rawHttp(url('login'), { method: 'POST', headers: form, body: `token=${TOKEN}` });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/__mock/ui');
    expect(ok.headers['set-cookie']).toEqual([`mockrouter_admin=${TOKEN}; ${COOKIE_FLAGS}`]);
    // From the dashboard's own page: same origin.
    const page = await rawHttp(url('login'), { method: 'POST', headers: { ...form, Origin: server.url }, body: `token=${TOKEN}` });
    expect(page.status).toBe(303);
    const wrong = await rawHttp(url('login'), { method: 'POST', headers: form, body: 'token=wrong' });
    expect(wrong.status).toBe(401);
    expect(message(wrong)).toBe('Admin API: wrong admin token');
    // A browser's form (Accept: text/html) goes back to the form, which says the token was wrong; no cookie.
    const browserWrong = await rawHttp(url('login'), { method: 'POST', headers: { ...form, Accept: 'text/html,application/xhtml+xml' }, body: 'token=wrong' });
    expect(browserWrong.status).toBe(303);
    expect(browserWrong.headers.location).toBe('/__mock/ui?login=failed');
    expect(browserWrong.headers['set-cookie']).toBeUndefined();
    const empty = await rawHttp(url('login'), { method: 'POST', headers: form, body: 'user=me' });
    expect(empty.status).toBe(400);
    expect(message(empty)).toMatch(/token=<admin token>/);
    const crossSite = await rawHttp(url('login'), { method: 'POST', headers: { ...form, Origin: 'https://evil.example' }, body: `token=${TOKEN}` });
    expect(crossSite.status).toBe(403);
    expect((await rawHttp(url('login'))).status).toBe(401);
  });

  it('a token with characters a cookie cannot hold is percent-encoded in the cookie and accepted back', async () => {
    const odd = await startServer({ port: 0, adminToken: 'a b;c=d' });
    try {
      const res = await fetch(`${odd.url}/__mock/requests?token=${encodeURIComponent('a b;c=d')}`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).toBe(`mockrouter_admin=a%20b%3Bc%3Dd; ${COOKIE_FLAGS}`);
      const again = await fetch(`${odd.url}/__mock/requests`, { headers: { Cookie: cookie.split(';')[0]! } });
      expect(again.status).toBe(200);
    } finally {
      await odd.close();
    }
  });

  it('without a token set, ?token= only redirects and login sends to the dashboard, neither sets a cookie', async () => {
    const open = await startServer({ port: 0 });
    try {
      const res = await fetch(`${open.url}/__mock/ui?token=whatever`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/__mock/ui');
      expect(res.headers.get('set-cookie')).toBeNull();
      const login = await fetch(`${open.url}/__mock/login`, { method: 'POST', body: 'token=x', redirect: 'manual' });
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe('/__mock/ui');
      expect(login.headers.get('set-cookie')).toBeNull();
    } finally {
      await open.close();
    }
  });
});

describe('the Host check (DNS rebinding)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('refuses admin requests whose Host is another name, with a 403 envelope naming --allowed-hosts', async () => {
    for (const path of ['requests', 'events', 'scenarios', 'ui', 'ui?token=x', 'nope']) {
      const res = await rawHttp(`${server.url}/__mock/${path}`, { headers: { Host: `rebind.evil.example:${server.port}` } });
      expect(res.status, path).toBe(403);
      expect(message(res)).toBe(
        'Admin API: Host "rebind.evil.example" is not allowed (DNS rebinding defense); the admin API answers localhost, 127.0.0.1, [::1] and the server\'s own addresses; start it with --allowed-hosts rebind.evil.example (option allowedHosts) to allow this host',
      );
    }
    const post = await rawHttp(`${server.url}/__mock/reset`, { method: 'POST', headers: { Host: 'evil.example' } });
    expect(post.status).toBe(403);
  });

  it('answers localhost, *.localhost, 127.0.0.1 and [::1], with or without the port', async () => {
    for (const host of [`localhost:${server.port}`, 'localhost', 'LocalHost.', `app.localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`, '[::1]']) {
      expect((await rawHttp(`${server.url}/__mock/requests`, { headers: { Host: host } })).status, host).toBe(200);
    }
  });

  it('leaves the health check and the gateway API alone', async () => {
    const evil = { Host: 'evil.example' };
    expect((await rawHttp(`${server.url}/__mock/health`, { headers: evil })).status).toBe(200);
    expect((await rawHttp(`${server.baseUrl}/model/openai/gpt-4o`, { headers: { ...evil, ...auth() } })).status).toBe(200);
    expect((await rawHttp(`${server.url}/`, { headers: evil })).status).toBe(200);
  });

  it('answers the hosts of allowedHosts: names, .domain and its subdomains; "all" answers any', async () => {
    const allowed = await startServer({ port: 0, allowedHosts: 'mock.internal, .dev.test' });
    try {
      const status = async (host: string) => (await rawHttp(`${allowed.url}/__mock/requests`, { headers: { Host: host } })).status;
      expect(await status('mock.internal:4010')).toBe(200);
      expect(await status('dev.test')).toBe(200);
      expect(await status('a.b.dev.test')).toBe(200);
      expect(await status('evildev.test')).toBe(403);
      expect(await status('other.internal')).toBe(403);
    } finally {
      await allowed.close();
    }
    const any = await startServer({ port: 0, allowedHosts: ['all'] });
    try {
      expect((await rawHttp(`${any.url}/__mock/requests`, { headers: { Host: 'anything.example' } })).status).toBe(200);
    } finally {
      await any.close();
    }
  });

  it('a bad allowedHosts entry is an OptionsError naming the option', async () => {
    const error = await startServer({ port: 0, allowedHosts: 'http://mock.internal' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionsError);
    expect((error as OptionsError).option).toBe('allowedHosts');
    expect((error as OptionsError).problem).toMatch(/^expected "all" or hosts separated by commas: .*; got "http:\/\/mock\.internal"$/);
  });

  it('bound to every interface, each interface address counts as its own', async () => {
    const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []).map((entry) => entry.address);
    expect(localHostsOf('0.0.0.0')).toEqual(['0.0.0.0', ...addresses]);
    expect(localHostsOf('127.0.0.1')).toEqual(['127.0.0.1']);
    const external = Object.values(networkInterfaces()).flatMap((list) => list ?? []).find((entry) => entry.family === 'IPv4' && !entry.internal);
    const wide = await startServer({ port: 0, host: '0.0.0.0' });
    try {
      if (external) expect((await rawHttp(`${wide.url}/__mock/requests`, { headers: { Host: `${external.address}:${wide.port}` } })).status).toBe(200);
      expect((await rawHttp(`${wide.url}/__mock/requests`, { headers: { Host: '203.0.113.9' } })).status).toBe(403);
    } finally {
      await wide.close();
    }
  });

  it('hostPolicyOf and isAllowedHost (pure)', () => {
    const policy = hostPolicyOf('Mock.Internal,.Dev.Test,::2', ['192.0.2.7', '0.0.0.0', '::', 'fe80::1%eth0']);
    expect([...policy.hosts].sort()).toEqual(['127.0.0.1', '192.0.2.7', '[::1]', '[::2]', '[fe80::1]', 'localhost', 'mock.internal']);
    expect(policy.domains).toEqual(['dev.test']);
    expect(isAllowedHost(policy, '[::2]:80')).toBe(true);
    expect(isAllowedHost(policy, '192.0.2.7:4010')).toBe(true);
    expect(isAllowedHost(policy, '192.0.2.8')).toBe(false);
    expect(isAllowedHost(policy, undefined)).toBe(true);
    expect(hostOfHeader('[::1]:4010')).toBe('[::1]');
    expect(hostOfHeader('LocalHost.:80')).toBe('localhost');
    expect(hostPolicyOf(true).any).toBe(true);
    expect(() => hostPolicyOf('a b')).toThrow(OptionsError);
    expect(() => hostPolicyOf('.[::1]')).toThrow(OptionsError);
  });
});

describe('state-changing admin requests from other sites', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, cors: '*,http://localhost:5173' });
  });
  afterAll(() => server.close());

  it('refuses POST, PUT and DELETE with a foreign Origin (403 naming --cors); same-origin, no Origin and --cors origins pass', async () => {
    await (await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: auth() })).arrayBuffer();
    const reset = (headers: Record<string, string>) => rawHttp(`${server.url}/__mock/reset`, { method: 'POST', headers });
    const crossSite = await reset({ Origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(message(crossSite)).toBe(
      'Admin API: POST from origin https://evil.example refused: state-changing admin requests are same-origin only (cross-site request forgery defense); name the origin with --cors (option cors) to allow it',
    );
    expect(crossSite.headers['access-control-allow-origin']).toBeUndefined();
    // Nothing was reset.
    expect(server.gateway.journal.size).toBe(1);
    expect((await reset({ Origin: 'null' })).status).toBe(403);
    const put = await rawHttp(`${server.url}/__mock/scenario`, { method: 'PUT', headers: { Origin: 'http://127.0.0.1:1', 'Content-Type': 'application/json' }, body: '{"name":null}' });
    expect(put.status).toBe(403);
    expect((await rawHttp(`${server.url}/__mock/requests`, { method: 'DELETE', headers: { Origin: 'https://evil.example' } })).status).toBe(403);

    expect((await reset({ Origin: server.url })).status).toBe(204);
    expect((await reset({ Origin: `http://localhost:${server.port}`, Host: `localhost:${server.port}` })).status).toBe(204);
    expect((await reset({})).status).toBe(204);
    const named = await reset({ Origin: 'http://localhost:5173' });
    expect(named.status).toBe(204);
    expect(named.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('reads (GET) are not refused by Origin, and the gateway API takes any origin as before', async () => {
    expect((await rawHttp(`${server.url}/__mock/requests`, { headers: { Origin: 'https://evil.example' } })).status).toBe(200);
    const speech = await rawHttp(`${server.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { ...auth(), Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Hi.', voice: 'alloy' }),
    });
    expect(speech.status).toBe(200);
    expect(speech.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('FrontDoor.guardAdmin, for admin pages an adapter serves itself', () => {
  const door = frontDoor(createGateway(), { admin: 'on', adminToken: 't' });
  const request = (host: string, query = '') => ({ method: 'GET', path: '/__mock/ui', query, headers: { host } });

  it('checks Host and Origin always, the token unless told not to', () => {
    expect(door.guardAdmin!(request('evil.example'), { token: false })?.status).toBe(403);
    expect(door.guardAdmin!(request('localhost:4010'), { token: false })).toBeUndefined();
    expect(door.guardAdmin!(request('localhost:4010'))?.status).toBe(401);
    expect(door.guardAdmin!({ ...request('localhost:4010'), headers: { host: 'localhost', cookie: 'mockrouter_admin=t' } })).toBeUndefined();
    const login = door.guardAdmin!(request('localhost:4010', 'token=t'));
    expect(login).toMatchObject({ status: 303, headers: { Location: '/__mock/ui', 'Set-Cookie': `mockrouter_admin=t; ${COOKIE_FLAGS}` } });
  });
});
