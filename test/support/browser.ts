/**
 * Browser tests in the suite: Debian's Chromium, headless, driven by `playwright-core` (no browser download; one
 * launch per test file), pages bundled with esbuild and served by a small static `node:http` server on 127.0.0.1.
 *
 * - {@link chromium}: the browser found (`CHROMIUM_PATH` when set, else `/usr/bin/chromium`, `chromium-browser`,
 *   or either on the PATH),
 *   and {@link describeWithBrowser}, which runs a file's tests with it; without one, the tests are skipped under a
 *   title that says so, and fail under `CI` (the CI machine must have it: `.ci/run` installs it).
 * - {@link bundlePage}: a page (an `index.html` loading one bundled script) into a folder, the way an app would
 *   bundle it for browsers: esbuild, `conditions: ['browser']`, no shims, no `define` of Node.js globals.
 *   `mockrouter/...` resolves through this package's `exports` to the source file of the target (so a stale
 *   `dist/` cannot hide a change); {@link withMswWorker} copies msw's worker script, as `msw init` would.
 * - {@link serveStatic}: the folder on a free port.
 * - {@link watchPage}: every console error and page error of a page, which the tests treat as failures (but
 *   the lines Chromium logs for the error statuses a test asks for).
 *
 * @module
 */
import { build, type Plugin } from 'esbuild';
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium as playwrightChromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { describeMissingTool } from './required-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));


function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where Chromium is looked for when `CHROMIUM_PATH` is not set: Debian's, then `chromium`/`chromium-browser` on the PATH. */
const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]),
];

/** The Chromium to run: `{ path }`, or `{ missing }` saying what was looked for. */
export const chromium: { path: string; missing?: undefined } | { path?: undefined; missing: string } = (() => {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return executable(chosen) ? { path: chosen } : { missing: `CHROMIUM_PATH=${chosen} is not an executable` };
  const path = CANDIDATES.find(executable);
  return path ? { path } : { missing: 'no chromium or chromium-browser in /usr/bin or on the PATH' };
})();

/**
 * `describe(title, body)` when Chromium is there. Without it: locally, the tests are skipped under the title
 * `<title>: no Chromium found: install Debian's chromium ...` (also written to stderr, which the default reporter
 * shows); under CI, one failing test says the same.
 */
export function describeWithBrowser(title: string, body: () => void): void {
  if (chromium.path !== undefined) {
    describe(title, body);
    return;
  }
  const why = `no Chromium found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH (${chromium.missing})`;
  describeMissingTool(title, 'Chromium', why, body);
}

/** Flags for Chromium headless in a container; without the background-networking ones it gets connections refused. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches the Chromium found, headless. Each launch gets a fresh profile (Playwright's `--user-data-dir` in a temporary folder). */
export function launchBrowser(): Promise<Browser> {
  if (chromium.path === undefined) throw new Error(chromium.missing);
  return playwrightChromium.launch({ executablePath: chromium.path, headless: true, args: CHROMIUM_ARGS });
}

/** A console error or an uncaught error of a page. */
export interface PageProblem {
  kind: 'console' | 'pageerror';
  text: string;
}

/** What {@link watchPage} collected. */
export interface PageWatch {
  /** The problems so far, oldest first; the list is emptied (call it after each test). */
  take(): PageProblem[];
  /** Stops collecting (a page used again by the next test gets a watch of its own). */
  stop(): void;
}

/**
 * Collects every console error and page error of `page`. Chromium also logs each answer with an error status as a
 * console error (`Failed to load resource: the server responded with a status of 429 ...`): a test that asks for
 * one expects exactly that line.
 */
export function watchPage(page: Page): PageWatch {
  let problems: PageProblem[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push({ kind: 'console', text: `${message.text()} (${message.location().url})` });
  };
  const onPageError = (error: Error) => problems.push({ kind: 'pageerror', text: error.stack ?? String(error) });
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return {
    take() {
      const taken = problems;
      problems = [];
      return taken;
    },
    stop() {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
    },
  };
}

/**
 * Resolves `mockrouter` and `mockrouter/<subpath>` as a bundler in an app would, through this package's
 * `exports` with the `browser` condition first, then maps the target in `dist/` to its source in `src/`
 * (`./dist/browser/index.js` → `src/browser/index.ts`).
 */
const mockrouterFromSource: Plugin = {
  name: 'mockrouter-from-source',
  setup(esbuild) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | Record<string, string>> };
    esbuild.onResolve({ filter: /^mockrouter(\/.*)?$/ }, (args) => {
      const subpath = `.${args.path.slice(manifest.name.length)}`;
      const entry = manifest.exports[subpath];
      const target = typeof entry === 'string' ? entry : entry && (entry.browser ?? entry.import ?? entry.default);
      if (target === undefined) return { errors: [{ text: `package.json "exports" has no browser target for ${args.path}` }] };
      const source = join(ROOT, target.replace(/^\.\/dist\/(.*)\.js$/, 'src/$1.ts'));
      if (!existsSync(source)) return { errors: [{ text: `${args.path} → ${target}: no source file ${source}` }] };
      return { path: source };
    });
  },
};

/** A folder of bundled pages; `remove` deletes it. */
export interface PageDir {
  dir: string;
  remove(): void;
}

/** A new temporary folder for pages. */
export function pageDir(): PageDir {
  const dir = mkdtempSync(join(tmpdir(), 'mockrouter-pages-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Bundles `entry` (a test page's script) to `<dir>/<name>.js` for browsers and writes `<dir>/<name>.html`, which
 * loads it as a module. Fails on any esbuild warning (an import of a Node.js module, a missing export).
 */
export async function bundlePage(dir: string, name: string, entry: string): Promise<void> {
  const result = await build({
    entryPoints: { [name]: entry },
    outdir: dir,
    bundle: true,
    platform: 'browser',
    conditions: ['browser'],
    format: 'esm',
    target: 'es2022',
    sourcemap: 'linked',
    plugins: [mockrouterFromSource],
    logLevel: 'silent',
  });
  if (result.warnings.length > 0) throw new Error(`esbuild warnings for ${name}: ${result.warnings.map((w) => w.text).join('; ')}`);
  writeFileSync(join(dir, `${name}.html`), `<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<title>${name}</title>\n<script type="module" src="./${name}.js"></script>\n`);
}

/** Copies msw's worker script into `dir` as `mockServiceWorker.js`, as `msw init <dir>` does. */
export function withMswWorker(dir: string): void {
  copyFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A static file server on 127.0.0.1. */
export interface StaticServer {
  port: number;
  close(): Promise<void>;
}

/** Serves the files of `dir` (GET and HEAD; 404 for anything else) on 127.0.0.1, on a free port. */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    const type = TYPES[extname(path)];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(root + sep) || type === undefined || !existsSync(path)) {
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
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
