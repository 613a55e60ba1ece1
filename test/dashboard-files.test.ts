/**
 * The dashboard's files as the standalone server serves them (docs/admin-api.md, "Dashboard"): `GET /__mock/ui` and its
 * assets from `dist/ui/` (built here first by scripts/bundle-ui.mjs), content types, `Cache-Control: no-cache`,
 * ETag and 304, the Content-Security-Policy, 503 when there is no build, 404 with `--no-admin`, and the page's
 * size. The page's behaviour in a browser is test/browser/dashboard.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiFiles, UI_DIR } from '../src/node-platform/ui-files.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { answerUi, UI_CONTENT_SECURITY_POLICY } from '../src/server/ui.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** `GET path` exactly as given (no URL normalization). */
function rawGet(port: number, path: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-ui.mjs')], { cwd: ROOT, stdio: 'pipe' });
}, 60_000);

describe('the built page', () => {
  it('is index.html, app.js, app.css and icon.svg, under 100 KB gzipped in all', () => {
    const names = ['index.html', 'app.js', 'app.css', 'icon.svg'];
    const gzipped = names.reduce((sum, name) => sum + gzipSync(readFileSync(join(UI_DIR, name)), { level: 9 }).byteLength, 0);
    expect(gzipped).toBeLessThan(100 * 1024);
    const html = readFileSync(join(UI_DIR, 'index.html'), 'utf8');
    // Only same-origin files; no inline script (the policy forbids it).
    expect(html).toMatch(/<script type="module" src="\/__mock\/ui\/app\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/__mock\/ui\/app\.css">/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    const js = readFileSync(join(UI_DIR, 'app.js'), 'utf8');
    expect(js).not.toMatch(/\bhttps?:\/\/(?!www\.w3\.org)[a-z]/i);
  });
});

describe('GET /__mock/ui', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server?.close());

  it('answers the page with its content type, no-cache and the policy', async () => {
    for (const path of ['/__mock/ui', '/__mock/ui/']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(UI_CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<div id="app">');
    }
    const policy = UI_CONTENT_SECURITY_POLICY.split('; ');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("media-src 'self' blob:");
    expect(UI_CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  it('answers each asset with its type, and 304 to a matching If-None-Match', async () => {
    const types: Record<string, string> = {
      'app.js': 'text/javascript; charset=utf-8',
      'app.css': 'text/css; charset=utf-8',
      'icon.svg': 'image/svg+xml',
    };
    for (const [name, type] of Object.entries(types)) {
      const response = await fetch(`${server.url}/__mock/ui/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const body = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.compare(Buffer.from(body), readFileSync(join(UI_DIR, name)))).toBe(0);
      const etag = response.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await fetch(`${server.url}/__mock/ui/${name}`, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
  });

  it('answers 404 for anything but a file of the build, 405 for other methods', async () => {
    // Raw paths (fetch would resolve the dots before sending).
    for (const path of ['/__mock/ui/nope.js', '/__mock/ui/../package.json', '/__mock/ui/..%2fpackage.json', '/__mock/ui/%2e%2e/package.json', '/__mock/ui/sub/app.js', '/__mock/ui/.hidden.js', '/__mock/ui/index.html/']) {
      const { status, type } = await rawGet(server.port, path);
      expect(status, path).toBe(404);
      expect(type).toBe('application/json');
    }
    const post = await fetch(`${server.url}/__mock/ui`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await post.text();
  });

  it('is not served without the admin API, and takes no token itself (the API does)', async () => {
    const off = await startServer({ port: 0, admin: false });
    try {
      const response = await fetch(`${off.url}/__mock/ui`);
      expect(response.status).toBe(404);
      await response.text();
    } finally {
      await off.close();
    }
    const guarded = await startServer({ port: 0, adminToken: 'secret-token' });
    try {
      const page = await fetch(`${guarded.url}/__mock/ui`);
      expect(page.status).toBe(200);
      await page.text();
      const api = await fetch(`${guarded.url}/__mock/requests`);
      expect(api.status).toBe(401);
      await api.text();
    } finally {
      await guarded.close();
    }
  });
});

describe('answerUi without a build', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mockrouter-ui-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 503 with an envelope saying to run npm run build', async () => {
    const response = answerUi({ method: 'GET', path: '/__mock/ui', query: '', headers: {} }, uiFiles(dir));
    expect(response.status).toBe(503);
    expect(response.headers['Content-Type']).toBe('application/json');
    const body = JSON.parse(String(response.body)) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(503);
    expect(body.error.message).toContain('run npm run build');
  });

  it('serves a file once the folder has an index.html, and reads it again when it changes', () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><p>one</p>');
    const files = uiFiles(dir);
    const first = answerUi({ method: 'GET', path: '/__mock/ui', query: '', headers: {} }, files);
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body as Uint8Array).toString()).toContain('one');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><p>two, longer</p>');
    const second = answerUi({ method: 'GET', path: '/__mock/ui/', query: '', headers: {} }, files);
    expect(Buffer.from(second.body as Uint8Array).toString()).toContain('two');
    expect(second.headers.ETag).not.toBe(first.headers.ETag);
  });
});
