/**
 * The admin API's guard on a developer's machine (`src/core/admin/guard.ts`): the admin token by header, cookie,
 * `?token=` (a 303 that sets the cookie) or the login form; the Host check against DNS rebinding (localhost,
 * 127.0.0.1, [::1], the bound address, `allowedHosts`); state-changing requests refused from other sites' origins.
 * The health check and the gateway's API under /api/v1 are not affected.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookieName, guardAdmin } from '../src/core/admin/guard.js';
import { AdminSessions } from '../src/core/admin/login-sessions.js';
import { hostOfHeader, hostPolicyOf, isAllowedHost } from '../src/core/admin/hosts.js';
import { DEFAULT_CORS_POLICY } from '../src/core/http/cors.js';
import { frontDoor } from '../src/core/gateway/api-front-door.js';
import { withAdmin } from '../src/server/admin.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { OptionsError } from '../src/core/base/errors.js';

import { localHostsOf, startServer, type RunningServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { adminUrls } from './support/admin.js';
import { rawHttp, type RawAnswer } from './support/raw-http.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

function message(res: RawAnswer): string {
  expect(res.headers['content-type']).toBe('application/json');
  const body = JSON.parse(res.text) as { error: { code: number; message: string } };
  expect(body.error.code).toBe(res.status);
  return body.error.message;
}

const COOKIE_FLAGS = 'HttpOnly; SameSite=Strict; Path=/__mock';

/** The login cookie a `Set-Cookie` value hands over, checked for its shape: `{ name, value, pair }` (`pair`: `name=value`). */
function loginCookie(setCookie: string | string[] | null | undefined, port: number): { name: string; value: string; pair: string } {
  const line = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  expect(line).toMatch(new RegExp(`^mockrouter_admin_${port}=[0-9a-f]{64}; ${COOKIE_FLAGS}$`));
  const pair = line!.split(';')[0]!;
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), pair };
}

describe('the admin token', () => {
  let server: RunningServer;
  const TOKEN = 'tok-123';
  beforeAll(async () => {
    server = await startServer({ port: 0, adminToken: TOKEN });
  });
  afterAll(() => server.close());
  const url = adminUrls(() => server);

  it('is taken from Authorization: Bearer, X-Mock-Admin-Token or a login session\'s cookie; anything else is a 401 envelope', async () => {
    expect((await rawHttp(url('requests'))).status).toBe(401);
    expect(message(await rawHttp(url('requests')))).toMatch(/missing or wrong admin token .*open \/__mock\/ui\?token=<token> once/);
    expect((await rawHttp(url('requests'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { 'X-Mock-Admin-Token': TOKEN } })).status).toBe(200);
    const cookie = loginCookie((await fetch(url(`ui?token=${TOKEN}`), { redirect: 'manual' })).headers.get('set-cookie'), server.port);
    expect((await rawHttp(url('requests'), { headers: { Cookie: `theme=dark; ${cookie.pair}` } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { Cookie: `${cookie.name}=${'0'.repeat(64)}` } })).status).toBe(401);
    expect((await rawHttp(url('requests'), { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await rawHttp(url('health'))).status).toBe(200);
    // The event stream too (an EventSource sends the cookie).
    const events = await fetch(url('events'), { headers: { Cookie: cookie.pair } });
    expect(events.status).toBe(200);
    await events.body!.cancel();
    expect((await fetch(url('events'))).status).toBe(401);
  });

  it('the cookie carries a random session id, never the token: the token itself in a cookie is refused', async () => {
    const first = loginCookie((await fetch(url(`ui?token=${TOKEN}`), { redirect: 'manual' })).headers.get('set-cookie'), server.port);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const second = loginCookie((await rawHttp(url('login'), { method: 'POST', headers: form, body: `token=${TOKEN}` })).headers['set-cookie'], server.port);
    expect(first.value).not.toContain(TOKEN);
    expect(second.value).not.toBe(first.value);
    for (const name of ['mockrouter_admin', `mockrouter_admin_${server.port}`]) {
      expect((await rawHttp(url('requests'), { headers: { Cookie: `${name}=${TOKEN}` } })).status, name).toBe(401);
    }
    // Both sessions stay valid.
    expect((await rawHttp(url('requests'), { headers: { Cookie: first.pair } })).status).toBe(200);
    expect((await rawHttp(url('requests'), { headers: { Cookie: second.pair } })).status).toBe(200);
  });

  it('the cookie is named per port, so two servers on one host keep their own; a session of one is no key to the other', async () => {
    const other = await startServer({ port: 0, adminToken: TOKEN });
    try {
      const mine = loginCookie((await fetch(url(`ui?token=${TOKEN}`), { redirect: 'manual' })).headers.get('set-cookie'), server.port);
      const theirs = loginCookie((await fetch(`${other.url}/__mock/ui?token=${TOKEN}`, { redirect: 'manual' })).headers.get('set-cookie'), other.port);
      expect(mine.name).not.toBe(theirs.name);
      // A browser sends every cookie of the host to both ports: each server takes its own.
      const both = `${mine.pair}; ${theirs.pair}`;
      expect((await rawHttp(url('requests'), { headers: { Cookie: both } })).status).toBe(200);
      expect((await rawHttp(`${other.url}/__mock/requests`, { headers: { Cookie: both } })).status).toBe(200);
      expect((await rawHttp(`${other.url}/__mock/requests`, { headers: { Cookie: `${theirs.name}=${mine.value}` } })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('the cookie\'s name follows the port of Host (the port the browser sees), 80 without one', () => {
    expect(adminCookieName('127.0.0.1:4010')).toBe('mockrouter_admin_4010');
    expect(adminCookieName('localhost:04011')).toBe('mockrouter_admin_4011');
    expect(adminCookieName('[::1]:8080')).toBe('mockrouter_admin_8080');
    expect(adminCookieName('[::1]')).toBe('mockrouter_admin_80');
    expect(adminCookieName('mockrouter')).toBe('mockrouter_admin_80');
    expect(adminCookieName(undefined)).toBe('mockrouter_admin_80');
    expect(adminCookieName('localhost:x')).toBe('mockrouter_admin_80');
  });

  it('keeps a bounded number of sessions: past the bound the oldest must log in again', () => {
    const sessions = new AdminSessions(2);
    const [a, b, c] = [sessions.issue(), sessions.issue(), sessions.issue()];
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(sessions.size).toBe(2);
    expect([sessions.has(a), sessions.has(b), sessions.has(c), sessions.has(undefined)]).toEqual([false, true, true, false]);
  });

  it('?token= on an admin GET sets the cookie and redirects (303) to the same URL without it', async () => {
    const res = await fetch(url(`ui?x=1&token=${TOKEN}&y=two`), { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/__mock/ui?x=1&y=two');
    loginCookie(res.headers.get('set-cookie'), server.port);
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
    expect(ok.headers['set-cookie']).toHaveLength(1);
    loginCookie(ok.headers['set-cookie'], server.port);
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

  it('a token with characters a cookie cannot hold logs in all the same (the cookie holds a session id, not the token)', async () => {
    const odd = await startServer({ port: 0, adminToken: 'a b;c=d' });
    try {
      const res = await fetch(`${odd.url}/__mock/requests?token=${encodeURIComponent('a b;c=d')}`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const cookie = loginCookie(res.headers.get('set-cookie'), odd.port);
      const again = await fetch(`${odd.url}/__mock/requests`, { headers: { Cookie: cookie.pair } });
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
      body: JSON.stringify({ model: TTS, input: 'Hi.', voice: 'alloy' }),
    });
    expect(speech.status).toBe(200);
    expect(speech.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('admin requests another site made (Sec-Fetch-Site), with or without Origin', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, cors: '*,http://localhost:5173' });
  });
  afterAll(() => server.close());
  const url = adminUrls(() => server);
  const REFUSED = /^Admin API: (GET|POST|PUT|DELETE|HEAD) \/__mock\/\S+ from another site \(Sec-Fetch-Site: (cross|same)-site\) refused: admin requests are same-origin only \(cross-site request forgery defense\); name the origin with --cors \(option cors\) to allow it$/;

  it('refuses state-changing ones from cross-site and same-site pages without Origin (403), and changes nothing', async () => {
    await (await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: auth() })).arrayBuffer();
    const scenario = server.gateway.scenarios.defaultScenario;
    for (const site of ['cross-site', 'same-site']) {
      const reset = await rawHttp(url('reset'), { method: 'POST', headers: { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'no-cors' } });
      expect(reset.status, site).toBe(403);
      expect(message(reset)).toMatch(REFUSED);
      const clear = await rawHttp(url('requests'), { method: 'DELETE', headers: { 'Sec-Fetch-Site': site } });
      expect(clear.status, site).toBe(403);
      const put = await rawHttp(url('scenario'), { method: 'PUT', headers: { 'Sec-Fetch-Site': site, 'Content-Type': 'text/plain' }, body: '{"name":"rate-limited"}' });
      expect(put.status, site).toBe(403);
    }
    expect(server.gateway.journal.size).toBe(1);
    expect(server.gateway.scenarios.defaultScenario).toBe(scenario);
  });

  it('refuses reads of admin resources from other sites: an <img> of a journal entry\'s audio renders nothing', async () => {
    const speech = await postSpeech(server.baseUrl, { model: TTS, input: 'Not for other sites.', voice: 'alloy', response_format: 'pcm' }, auth());
    await speech.arrayBuffer();
    const seq = server.gateway.journal.last()!.seq;
    const image = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' };
    for (const path of [`requests/${seq}/audio`, `requests/${seq}`, 'requests', 'scenarios', 'clock', 'events', 'ui', 'ui/app.js']) {
      const res = await rawHttp(url(path), { headers: image });
      expect(res.status, path).toBe(403);
      expect(message(res)).toMatch(REFUSED);
    }
    expect((await rawHttp(url(`requests/${seq}/audio`), { headers: { ...image, 'Sec-Fetch-Site': 'same-site' } })).status).toBe(403);
    expect((await rawHttp(url(`requests/${seq}/audio`), { method: 'HEAD', headers: image })).status).toBe(403);
    // A page of another site that frames the dashboard, or fetches it, is refused too.
    expect((await rawHttp(url('ui'), { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' } })).status).toBe(403);
    expect((await rawHttp(url('ui'), { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors', 'Origin': 'https://evil.example' } })).status).toBe(403);
    // The same requests from the dashboard itself (same-origin), typed in the address bar (none) or without the header pass.
    for (const site of ['same-origin', 'none', undefined]) {
      const headers: Record<string, string> = site === undefined ? {} : { 'Sec-Fetch-Site': site };
      const audio = await rawHttp(url(`requests/${seq}/audio`), { headers });
      expect(audio.status, site).toBe(200);
      expect(audio.headers['content-type']).toMatch(/^audio\/pcm/);
      expect((await rawHttp(url('requests'), { headers })).status, site).toBe(200);
      expect((await rawHttp(url('scenario'), { method: 'PUT', headers: { ...headers, Origin: server.url, 'Content-Type': 'application/json' }, body: '{"name":null}' })).status, site).toBe(200);
    }
  });

  it('passes a link to the dashboard (a top-level navigation), origins named by --cors, and the health check', async () => {
    const navigate = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-User': '?1' };
    expect([200, 503]).toContain((await rawHttp(url('ui'), { headers: navigate })).status);
    // A navigation elsewhere in the admin API is still refused.
    expect((await rawHttp(url('requests'), { headers: navigate })).status).toBe(403);
    const named = await rawHttp(url('requests'), { headers: { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors', Origin: 'http://localhost:5173' } });
    expect(named.status).toBe(200);
    expect(named.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect((await rawHttp(url('reset'), { method: 'POST', headers: { 'Sec-Fetch-Site': 'same-site', Origin: 'http://localhost:5173' } })).status).toBe(204);
    const health = await rawHttp(url('health'), { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' } });
    expect(health.status).toBe(200);
    // The gateway API under /api/v1 is not affected.
    expect((await rawHttp(`${server.baseUrl}/model/openai/gpt-4o`, { headers: { ...auth(), 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(200);
  });

  it('guardAdmin (pure): Sec-Fetch-Site cross-site and same-site are refused before the token is looked at', () => {
    const guard = { token: 't', sessions: new AdminSessions(), hosts: hostPolicyOf(undefined), cors: DEFAULT_CORS_POLICY };
    const request = (method: string, site: string | undefined) => ({
      method,
      path: '/__mock/reset',
      query: '',
      headers: { host: 'localhost:4010', authorization: 'Bearer t', ...(site === undefined ? {} : { 'sec-fetch-site': site }) },
    });
    for (const method of ['GET', 'POST']) {
      expect(guardAdmin(request(method, 'cross-site'), guard)?.status, method).toBe(403);
      expect(guardAdmin(request(method, 'Same-Site'), guard)?.status, method).toBe(403);
      expect(guardAdmin(request(method, 'same-origin'), guard), method).toBeUndefined();
      expect(guardAdmin(request(method, 'none'), guard), method).toBeUndefined();
      expect(guardAdmin(request(method, undefined), guard), method).toBeUndefined();
    }
  });
});

describe('AdminDoor.guardAdmin, for admin pages the server serves itself', () => {
  const gateway = createGateway();
  const door = withAdmin(frontDoor(gateway), gateway, { exposure: 'on', token: 't', hosts: hostPolicyOf(undefined), cors: DEFAULT_CORS_POLICY });
  const request = (host: string, query = '') => ({ method: 'GET', path: '/__mock/ui', query, headers: { host } });

  it('checks Host and Origin always, the token unless told not to', async () => {
    expect(door.guardAdmin(request('evil.example'), { token: false })?.status).toBe(403);
    expect(door.guardAdmin(request('localhost:4010'), { token: false })).toBeUndefined();
    expect(door.guardAdmin(request('localhost:4010'))?.status).toBe(401);
    expect(door.guardAdmin({ ...request('localhost:4010'), headers: { host: 'localhost:4010', cookie: 'mockrouter_admin=t' } })?.status).toBe(401);
    const login = door.guardAdmin(request('localhost:4010', 'token=t'))!;
    expect(login).toMatchObject({ status: 303, headers: { Location: '/__mock/ui' } });
    const cookie = loginCookie(login.headers['Set-Cookie'], 4010);
    expect(door.guardAdmin({ ...request('localhost:4010'), headers: { host: 'localhost:4010', cookie: cookie.pair } })).toBeUndefined();
    // The session is the front door's: the admin routes behind it take it too.
    expect((await door({ ...request('localhost:4010'), path: '/__mock/requests', headers: { host: 'localhost:4010', cookie: cookie.pair } })).status).toBe(200);
  });
});
