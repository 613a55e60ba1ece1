/**
 * The documentation's code is real files under `examples/`, and each runs here or on its own:
 *
 * - `examples/vitest/*.test.ts` are test files of the suite itself (vitest's `include`), importing the package by
 *   its name (`mockrouter`, `mockrouter/vitest`: Node's self-reference through `exports`, on `dist/`, which
 *   `npm test` builds first).
 * - `examples/express/app.ts` (`createMiddleware` of `mockrouter/express`) and `examples/express/msw-handlers.ts`
 *   (the MSW handlers through `@mswjs/http-middleware`, msw 2 only) are started on a free port and answer the three
 *   operations through express, next to the app's own route; on a port another server holds, each rejects with the
 *   listen error under express 4 and express 5, and its default port is not the standalone server's.
 * - `examples/ci/against-standalone.sh` runs with bash and curl against `bin/mockrouter.js`, and fails when the
 *   port belongs to another server; with its default launcher (`npx mockrouter`) it runs twice in a row on one
 *   port, so it stops node and not only npm.
 * - `examples/ci/client.py` (stdlib only) retries an overloaded standalone server, checked through the journal.
 * - `examples/cli/curl.sh` runs against a standalone server and gets the audio, the lookups and the 401 envelope
 *   of `examples/cli/error-envelope.json`; `examples/server/start.ts` runs with tsx.
 * - `examples/clients/*.ts` drive the official clients against a standalone server; `examples/config/keys.yaml`
 *   and `examples/scenarios/flaky-tts.yaml` are loaded by one and answer as the pages say.
 * - `examples/clients/python-openai.py` runs with the `openai` Python client in `test/python-client.test.ts`, against
 *   a server with `examples/scenarios` (so `examples/scenarios/truncated-once.yaml` too).
 * - `examples/browser/mocks.ts` and `examples/browser/words.ts` are type-checked (`npm run typecheck`); the browser
 *   tests run the same handlers in Chromium (`test/browser/words.test.ts` with words).
 * - `examples/speech/round-trip.ts` runs with tsx: text said in words by the standalone server, heard by ffmpeg and
 *   PocketSphinx (skipped with a line where they are missing, failing under CI, as for Chromium).
 * - The shell and Python examples need bash, curl and python3 in the same way (`describeWithCommands` of
 *   `test/support/required-tool.ts`).
 *
 * And the pages show each file exactly: every code block of `README.md` and of `docs/*.md` is a file of
 * `examples/`, named in a link in the paragraph just above it, so the two cannot drift apart; every file of
 * `examples/` is shown on some page; and every link between the pages lands on a file and a heading that exist.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { createServer, connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PORT, startServer } from 'mockrouter/server';
import 'mockrouter/vitest';
import { startApp } from '../examples/express/app.js';
import { startApp as startMswApp } from '../examples/express/msw-handlers.js';
import { speakWithBoth } from '../examples/clients/official-clients.js';
import { clientsWithoutRetries } from '../examples/clients/without-retries.js';
import { freePort } from './support/free-port.js';
import { runProgram } from './support/programs.js';
import { mswMiddlewareMode } from './support/modes.js';
import { describeMissingTool, describeWithCommands } from './support/required-tool.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
const AUTH = { Authorization: 'Bearer sk-example' };
/** The repository of package.json's `repository`: README links into it work on the registry page too. */
const REPOSITORY = 'https://github.com/mockrouter/mockrouter';

/**
 * Why `examples/speech/round-trip.ts` cannot hear speech here, or `undefined`: whether `ffmpeg` and
 * `pocketsphinx_continuous` start (not `missingCommand`: `ffmpeg --version` exits 1, and pocketsphinx has no such flag).
 */
const NO_RECOGNIZER = ['ffmpeg', 'pocketsphinx_continuous']
  .filter((command) => spawnSync(command, ['-version'], { stdio: 'ignore' }).error !== undefined)
  .map((command) => `${command} is not installed`)[0];

/** `runProgram` (`test/support/programs.ts`) with this file's bound. */
const run = (file: string, args: string[], env: Record<string, string | undefined>, cwd?: string) => runProgram(file, args, env, cwd, 30_000);

/** Whether a TCP connection to 127.0.0.1:`port` is refused (nothing listens). */
async function refused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve) => {
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

describe('the pages show the files of examples/', () => {
  const read = (relative: string): string => readFileSync(path(relative), 'utf8');
  /** The pages: the README (shown on the registry too) and docs/*.md (read on the repository's site). */
  const PAGES = ['README.md', ...readdirSync(path('docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const README = read('README.md');

  /** The paragraph that ends just above line `at` (blank lines between allowed), as one string. */
  function paragraphBefore(lines: string[], at: number): string {
    let end = at;
    while (end > 0 && lines[end - 1]!.trim() === '') end--;
    let start = end;
    while (start > 0 && lines[start - 1]!.trim() !== '') start--;
    return lines.slice(start, end).join(' ');
  }

  /**
   * The fenced blocks of `page`: the file each names (the last link to a file of `examples/` in the paragraph
   * above: from README an absolute URL into the repository, from docs/ a relative path) and its text.
   */
  function blocks(page: string): { line: number; file: string | undefined; text: string }[] {
    const lines = read(page).split('\n');
    const found: { line: number; file: string | undefined; text: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.trimStart().startsWith('```')) continue;
      expect(lines[i], `${page}:${i + 1}: a code block starts at the line's start (not inside a list)`).toMatch(/^```/);
      const end = lines.findIndex((line, j) => j > i && line === '```');
      expect(end, `${page}:${i + 1}: unclosed code block at "${lines[i]}"`).toBeGreaterThan(i);
      const caption = paragraphBefore(lines, i);
      const link = [...caption.matchAll(/\[`(examples\/[^`]+)`\]\(([^)]+)\)/g)].at(-1);
      if (link) {
        const target = page === 'README.md' ? `${REPOSITORY}/blob/main/${link[1]}` : `../${link[1]}`;
        expect(link[2], `${page}:${i + 1}: the link points at the file it names`).toBe(target);
      }
      found.push({ line: i + 1, file: link?.[1], text: lines.slice(i + 1, end).join('\n') + '\n' });
      i = end;
    }
    return found;
  }

  /** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
  function slug(heading: string): string {
    return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
  }

  /** The anchors of a page's headings (outside code blocks), a repeated one numbered as GitHub numbers it. */
  function anchors(page: string): Set<string> {
    const counts = new Map<string, number>();
    const found = new Set<string>();
    let inCode = false;
    for (const line of read(page).split('\n')) {
      if (line.startsWith('```')) inCode = !inCode;
      const heading = inCode ? null : /^#{1,6} (.+)$/.exec(line);
      if (!heading) continue;
      const base = slug(heading[1]!);
      const count = counts.get(base) ?? 0;
      found.add(count === 0 ? base : `${base}-${count}`);
      counts.set(base, count + 1);
    }
    return found;
  }

  /** Fails unless `file#anchor` (a path of this repository) exists, with that heading when an anchor is given. */
  function expectTarget(from: string, file: string, anchor: string | undefined): void {
    expect(existsSync(path(file)), `${from}: links to ${file}, which exists in this repository`).toBe(true);
    if (anchor !== undefined && file.endsWith('.md')) {
      expect([...anchors(file)], `${from}: links to ${file}#${anchor}, a heading of that page`).toContain(anchor);
    }
  }

  it('the README is an entrance: at most 300 lines, with the quick start', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
    expect(README).toContain('`npm ci && npm start`');
    expect(README).toContain('`npm ci && npm test`');
    expect(README).toContain('http://127.0.0.1:4010/api/v1');
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node bin/mockrouter.js');
    // npm test: the build (its emit only: the type checks beside vitest check the same sources), then vitest with the
    // type checks and lint beside it (scripts/test.mjs).
    expect(pkg.scripts.test).toBe('node scripts/clean-dist.mjs && tsc -p tsconfig.build.json --noCheck && npm run -s bundle && node scripts/test.mjs');
    expect(pkg.scripts.build).toBe('node scripts/clean-dist.mjs && tsc -p tsconfig.build.json && npm run -s bundle');
    expect(read('tsconfig.json')).toContain('"include": ["src",');
    expect(read('scripts/test.mjs')).toContain("[vitestBin, 'run', ...process.argv.slice(2)]");
    expect(pkg.scripts.checks).toBe('run-p --aggregate-output typecheck:* lint');
  });

  it('the README links only absolute URLs (they work on the registry page), and those into the repository name its files and headings', () => {
    const pkg = JSON.parse(read('package.json')) as { repository: { url: string }; homepage: string };
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(pkg.homepage).toBe(`${REPOSITORY}#readme`);
    const targets = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(target, 'a link of README.md').toMatch(/^(https?:\/\/|#)/);
    const inRepository = targets.filter((t) => t.startsWith(`${REPOSITORY}/`));
    expect(inRepository).toContain(`${REPOSITORY}/tree/main/examples`);
    for (const target of inRepository) {
      const match = /^\/(?:blob|tree)\/main\/([^#]+)(?:#(.+))?$/.exec(target.slice(REPOSITORY.length));
      expect(match, `${target}: a blob/main or tree/main URL`).not.toBeNull();
      expectTarget('README.md', match![1]!, match![2]);
    }
    for (const target of targets.filter((t) => t.startsWith('#'))) expectTarget('README.md', 'README.md', target.slice(1));
  });

  it.for(PAGES.filter((page) => page !== 'README.md'))('%s links relative paths that exist, and headings that exist', (page) => {
    for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https?:\/\//.test(target!)) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : new URL(file, new URL(page, ROOT)).pathname.slice(path('.').length);
      expectTarget(page, resolved, anchor);
    }
  });

  it.for(PAGES)('every code block of %s is a file of examples/, byte for byte', (page) => {
    for (const { line, file, text } of blocks(page)) {
      expect(file, `${page}:${line}: a code block with no link to its file of examples/ in the paragraph above`).toBeDefined();
      expect(text, `${page}:${line}: the block of ${file}`).toBe(read(file!));
    }
  });

  it('every file of examples/ is shown on a page', () => {
    const shown = new Set(PAGES.flatMap((page) => blocks(page).map((b) => b.file)));
    // Not what Python leaves beside files it ran (bytecode, pytest's cache): examples/pytest/ is run in place too.
    const files = readdirSync(path('examples'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !/(^|\/)(__pycache__|\.pytest_cache)(\/|$)/.test(entry.parentPath))
      .map((entry) => `${join(entry.parentPath, entry.name).slice(path('.').length)}`);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(shown.has(file), `${file} is shown on a page`).toBe(true);
  });
});

/**
 * Checks an example app of `examples/express/` (started on a free port): its own `/health`, then speech, model and
 * generation lookups and a 401 through the gateway it mounts; closed, its port is free.
 */
async function expectExpressApp(app: { baseUrl: string; close: () => Promise<void> }): Promise<void> {
  const port = Number(new URL(app.baseUrl).port);
  try {
    expect(app.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const health = await fetch(new URL('/health', app.baseUrl));
    expect(await health.json()).toEqual({ status: 'ok' });

    const input = 'Hello from express.';
    const speech = await postSpeech(app.baseUrl, { model: TTS, input, voice: 'alloy', response_format: 'mp3' }, AUTH);
    expect(speech.status).toBe(200);
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = new Uint8Array(await speech.arrayBuffer());
    expect(mp3.byteLength).toBeGreaterThan(1000);
    expect(mp3[0]).toBe(0xff);
    const id = speech.headers.get('x-generation-id');
    expect(id).toMatch(GEN_ID);

    const model = await fetch(`${app.baseUrl}/model/openai/gpt-4o-mini%3Afree`, { headers: AUTH });
    expect(model.status).toBe(200);
    expect((await model.json()).data).toMatchObject({ id: 'openai/gpt-4o-mini:free', canonical_slug: 'openai/gpt-4o-mini' });

    const generation = await fetch(`${app.baseUrl}/generation?id=${id}`, { headers: AUTH });
    expect(generation.status).toBe(200);
    expect((await generation.json()).data).toMatchObject({ id, api_type: 'tts', model: TTS, tokens_prompt: input.length });

    const anonymous = await fetch(`${app.baseUrl}/model/openai/gpt-4o-mini`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, message: 'No auth credentials found' } });
  } finally {
    await app.close();
  }
  expect(await refused(port)).toBe(true);
}

describe('examples/express/app.ts', () => {
  it('answers speech, model and generation lookups through createMiddleware, next to its own routes, journaled', async () => {
    const app = await startApp(0);
    await expectExpressApp(app);
    expect(app.mock.journal.list().map((entry) => [entry.operation, entry.status])).toEqual([
      ['speech', 200],
      ['model', 200],
      ['generation', 200],
      ['model', 401],
    ]);
  });

  it('answers a malformed body on a gateway path with the gateway\'s 400 envelope, its parser mounted after the mock', async () => {
    const app = await startApp(0);
    try {
      const res = await fetch(`${app.baseUrl}/audio/speech`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: '{bad' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(400);
      expect(body.error.message).toMatch(/^Invalid JSON body: /);
      // No stack trace: no frame (`at f (file.js:1:2)`), no file of the program.
      expect(JSON.stringify(body)).not.toMatch(/\bat \S+ \(|node_modules|\.[jt]s:\d+/);
      expect(app.mock.journal.last()).toMatchObject({ operation: 'speech', status: 400 });
    } finally {
      await app.close();
    }
  });
});

/**
 * The example apps of `examples/express/`, each loaded afresh with `express` resolving to express 4 (`express`) or
 * express 5 (the alias `express5`): express 5's `app.listen` hands a listen error to its callback, where express 4
 * emits it on the server.
 */
const EXPRESS_EXAMPLES = {
  'app.ts': () => import('../examples/express/app.js'),
  'msw-handlers.ts': () => import('../examples/express/msw-handlers.js'),
};

describe('examples/express/*.ts on a port another server holds', () => {
  for (const [file, load] of Object.entries(EXPRESS_EXAMPLES)) {
    for (const express of ['express', 'express5']) {
      it(`${file} with ${express === 'express' ? 'express 4' : 'express 5'}: startApp rejects with the listen error`, async () => {
        vi.resetModules();
        if (express === 'express5') vi.doMock('express', () => import('express5' as string));
        const holder = createServer().listen(0, '127.0.0.1');
        try {
          await once(holder, 'listening');
          const { port } = holder.address() as AddressInfo;
          const { startApp: start } = await load();
          const failure = await start(port).then(
            (app) => app.close().then(() => 'listening'),
            (error: unknown) => error,
          );
          expect(failure).toBeInstanceOf(Error);
          expect(failure).toMatchObject({ code: 'EADDRINUSE', message: `listen EADDRINUSE: address already in use 127.0.0.1:${port}` });
        } finally {
          vi.doUnmock('express');
          vi.resetModules();
          holder.close();
        }
      });
    }
    it(`${file}: its default port is not the standalone server's (${DEFAULT_PORT})`, () => {
      const source = readFileSync(path(`examples/express/${file}`), 'utf8');
      const port = /export async function startApp\(port = (\d+)\)/.exec(source)?.[1];
      expect(port).toBeDefined();
      expect(Number(port)).not.toBe(DEFAULT_PORT);
    });
  }
});

describe.skipIf(mswMiddlewareMode.unsupported !== undefined)(
  `examples/express/msw-handlers.ts${mswMiddlewareMode.unsupported === undefined ? '' : ` (skipped: ${mswMiddlewareMode.unsupported})`}`,
  () => {
    it('answers speech, model and generation lookups through @mswjs/http-middleware, next to its own routes', async () => {
      await expectExpressApp(await startMswApp(0));
    });
  },
);

describeWithCommands('examples/ci/against-standalone.sh', ['bash', 'curl'], () => {
  const SCRIPT = path('examples/ci/against-standalone.sh');
  const MOCKROUTER = `node ${path('bin/mockrouter.js')}`;

  it('starts the server, gets the 529 envelope, then the three operations, reads the journal, stops the server', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await run('bash', [SCRIPT], { PORT: String(port), MOCKROUTER });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      new RegExp(
        [
          '^speech while overloaded: 529 Provider returned error',
          'speech: 200, \\d{4,} bytes of mp3, (gen-tts-\\d{10}-[A-Za-z0-9]{20})',
          `model: ${TTS}`,
          'generation: \\1 \\(tts, 14 characters\\)',
          'journal: 1 request answered 529\n$',
        ].join('\n'),
      ),
    );
    expect(await refused(port)).toBe(true);
  });

  it('with its default launcher, `npx mockrouter`, twice in a row on one port: each run stops node too', async () => {
    // A project that has mockrouter installed, as a user's has: node_modules/mockrouter is this repository, and
    // node_modules/.bin/mockrouter its bin. npx then runs node as a child of npm (offline: never the registry).
    const project = mkdtempSync(join(tmpdir(), 'mockrouter-npx-'));
    try {
      writeFileSync(join(project, 'package.json'), '{ "name": "ci-project", "private": true }\n');
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(path('.').replace(/\/$/, ''), join(project, 'node_modules', 'mockrouter'), 'dir');
      symlinkSync('../mockrouter/bin/mockrouter.js', join(project, 'node_modules', '.bin', 'mockrouter'));
      const port = await freePort();
      for (const round of [1, 2]) {
        const env = { PORT: String(port), MOCKROUTER: undefined, npm_config_offline: 'true' };
        const { code, stdout, stderr } = await run('bash', [SCRIPT], env, project);
        expect({ round, code, stderr }).toEqual({ round, code: 0, stderr: '' });
        expect(stdout).toMatch(/^speech while overloaded: 529 Provider returned error\n[^]*\njournal: 1 request answered 529\n$/);
        expect(await refused(port), `round ${round}: nothing listens on ${port} afterwards`).toBe(true);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails when another server holds the port, even one that answers the health check', async () => {
    const other = createHttpServer((_req, res) => res.end('{"status":"ok"}')).listen(0, '127.0.0.1');
    await once(other, 'listening');
    const { port } = other.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await run('bash', [SCRIPT], { PORT: String(port), MOCKROUTER });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(`mockrouter exited: mockrouter: port ${port} on 127.0.0.1 is already in use`);
    } finally {
      other.close();
    }
  });
});

describeWithCommands('examples/ci/client.py', ['python3'], () => {
  it('retries an overloaded provider with growing waits, then gets the audio, the model and the record', async () => {
    const server = await startServer({ port: 0, seed: 1, scenario: 'overloaded-then-ok' });
    try {
      const { code, stdout, stderr } = await run('python3', [path('examples/ci/client.py')], {
        OPENROUTER_BASE_URL: server.baseUrl,
        OPENROUTER_API_KEY: 'sk-python',
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(
        new RegExp(
          [
            '^529 Provider returned error, retrying in 0.25 s',
            '529 Provider returned error, retrying in 0.5 s',
            'speech: \\d{4,} bytes of mp3, (gen-tts-\\d{10}-[A-Za-z0-9]{20})',
            `model: ${TTS}, 13 voices`,
            'generation: \\1 \\(tts, 18 characters\\)\n$',
          ].join('\n'),
        ),
      );
      // As a CI job would check it: the admin API's journal, with the package's matchers.
      const journal = await (await fetch(`${server.url}/__mock/requests`)).json();
      expect(journal.requests.map((r: { status: number }) => r.status)).toEqual([529, 529, 200, 200, 200]);
      expect(journal).toBackOffBetweenRetries();
      expect(journal).toRetryStatus(529);
    } finally {
      await server.close();
    }
  });
});


describeWithCommands('examples/cli/curl.sh', ['bash', 'curl'], () => {
  it('gets MP3 and PCM, the model and generation lookups, and without a key the envelope of examples/cli/error-envelope.json', async () => {
    const server = await startServer({ port: 0, seed: 1 });
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-curl-'));
    try {
      const { code, stdout, stderr } = await run('bash', [path('examples/cli/curl.sh')], { API: server.baseUrl }, dir);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-type: audio\/mpeg\r\n/im);
      expect(stdout).toMatch(/content-type: audio\/pcm;rate=24000;channels=1\r\n/i);
      expect(stdout).toMatch(/x-generation-id: gen-tts-\d{10}-[A-Za-z0-9]{20}\r\n/i);
      const mp3 = readFileSync(join(dir, 'hello.mp3'));
      expect(mp3[0]).toBe(0xff);
      expect(readFileSync(join(dir, 'hello.pcm')).byteLength % 2).toBe(0);
      const lines = stdout.trimEnd().split('\n');
      const [free, alias, generation, envelope] = lines.slice(-4).map((line) => JSON.parse(line));
      expect(free.data).toMatchObject({ id: 'openai/gpt-4o-mini:free', canonical_slug: 'openai/gpt-4o-mini' });
      expect(alias.data.id).toMatch(/^anthropic\/claude-3[.-]5-sonnet/);
      expect(generation.data).toMatchObject({ id: 'gen-tts-1773480472-MockrouterFixtureTts', api_type: 'tts' });
      expect(envelope).toEqual(JSON.parse(readFileSync(path('examples/cli/error-envelope.json'), 'utf8')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});

describe('examples/server/start.ts', () => {
  it('prints the base URL of a server on a free port, then stops it', async () => {
    const { code, stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path('examples/server/start.ts')], {});
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\n$/);
    expect(await refused(Number(new URL(stdout.trim()).port))).toBe(true);
  });
});

/** Says the example's sentence in words, hears it, and checks that most words came back (the script's own bound is 3 in 4). */
function roundTripSuite(): void {
  it('says the sentence in words through the standalone server; ffmpeg and PocketSphinx hear most of its words', async () => {
    const { code, stdout, stderr } = await runProgram(process.execPath, ['--import', 'tsx', path('examples/speech/round-trip.ts')], {}, undefined, 120_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const match = /^said: {2}Please call Stella\. Ask her to bring these things with her from the store\.\nheard: (.*)\n(\d+) of 14 words came back\n$/.exec(stdout);
    expect(match, stdout).not.toBeNull();
    expect(Number(match![2]), `heard: ${match![1]}`).toBeGreaterThanOrEqual(11);
  }, 150_000);
}

if (NO_RECOGNIZER === undefined) describe('examples/speech/round-trip.ts', roundTripSuite);
else {
  describeMissingTool('examples/speech/round-trip.ts', 'ffmpeg and pocketsphinx', `${NO_RECOGNIZER} (Debian: apt-get install ffmpeg pocketsphinx pocketsphinx-en-us)`, roundTripSuite);
}

describe('examples/clients', () => {
  it('official-clients.ts: MP3 through @openrouter/sdk and PCM through openai', async () => {
    const server = await startServer({ port: 0, seed: 1 });
    try {
      const { mp3, pcm } = await speakWithBoth(server.baseUrl);
      expect(new Uint8Array(await mp3.arrayBuffer())[0]).toBe(0xff);
      expect(pcm.size).toBeGreaterThan(1000);
      expect(pcm.size % 2).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('without-retries.ts: each client fails on the first 503 and 429, and asks once', async () => {
    const server = await startServer({ port: 0, seed: 1, scenario: 'service-unavailable' });
    const admin = (body: unknown) => fetch(`${server.url}/__mock/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const statuses = async () => ((await (await fetch(`${server.url}/__mock/requests`)).json()) as { requests: { status: number }[] }).requests.map((r) => r.status);
    try {
      const { openai, openRouter } = clientsWithoutRetries(server.baseUrl);
      const request = { model: TTS, input: 'Hi.', voice: 'alloy' };
      await expect(openRouter.tts.createSpeech({ speechRequest: request })).rejects.toThrow();
      await expect(openai.audio.speech.create(request)).rejects.toMatchObject({ status: 503 });
      expect(await statuses()).toEqual([503, 503]);
      expect((await admin({ name: 'rate-limited' })).ok).toBe(true);
      await expect(openai.audio.speech.create(request)).rejects.toMatchObject({ status: 429 });
      expect(await statuses()).toEqual([503, 503, 429]);
    } finally {
      await server.close();
    }
  });
});

describe('examples/config/keys.yaml and examples/scenarios/flaky-tts.yaml', () => {
  it('a server started with them knows the keys and the scenario as the pages say', async () => {
    const server = await startServer({ port: 0, seed: 1, keys: path('examples/config/keys.yaml'), scenarios: path('examples/scenarios') });
    const get = async (route: string, key: string) => {
      const res = await fetch(`${server.baseUrl}${route}`, { headers: { Authorization: `Bearer ${key}` } });
      return { status: res.status, body: await res.json() };
    };
    try {
      expect(await get('/key', 'sk-test-1')).toMatchObject({
        status: 200,
        body: { data: { limit: 0.05, creator_user_id: 'user_2yX0aBcDeFgHiJkLmNoPqRsTuVw', is_free_tier: false } },
      });
      expect(await get('/key', 'sk-test-2')).toMatchObject({ status: 200, body: { data: { is_free_tier: true } } });
      expect(await get('/key', 'sk-test-3')).toMatchObject({ status: 200, body: { data: { limit: null } } });
      expect(await get('/credits', 'sk-admin')).toMatchObject({ status: 200 });
      expect(await get('/credits', 'sk-test-1')).toMatchObject({ status: 403 });
      expect(await get('/key', 'sk-other')).toMatchObject({ status: 401, body: { error: { message: 'User not found.' } } });

      const scenario = await (await fetch(`${server.url}/__mock/scenarios/flaky-tts`)).json();
      expect(scenario).toMatchObject({ name: 'flaky-tts', rules: [{ name: 'flaky' }, { name: 'slow-mp3' }] });
    } finally {
      await server.close();
    }
  });

  it("flaky-tts.yaml's schema line, relative to the file, names the package's schema.json from a project's scenarios/", () => {
    const line = readFileSync(path('examples/scenarios/flaky-tts.yaml'), 'utf8').split('\n')[0]!;
    const target = /^# yaml-language-server: \$schema=(\S+)$/.exec(line)?.[1];
    expect(target).toBeDefined();
    expect(posix.relative('/project', posix.join('/project/scenarios', target!))).toBe('node_modules/mockrouter/scenarios/schema.json');
    const pkg = JSON.parse(readFileSync(path('package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('scenarios');
    expect(existsSync(path('scenarios/schema.json'))).toBe(true);
  });
});
