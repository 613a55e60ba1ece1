/**
 * The README's recipes are real files under `examples/`, and each runs here or on its own:
 *
 * - `examples/vitest/speech.test.ts` is a test file of the suite itself (vitest's `include`), importing the package
 *   by its name (`mockrouter`, `mockrouter/vitest`: Node's self-reference through `exports`, on `dist/`, which
 *   `npm test` builds first).
 * - `examples/express/app.ts` is started on a free port and answers the three operations through express.
 * - `examples/ci/against-standalone.sh` runs with bash and curl against `bin/mockrouter.js`, and fails when the
 *   port belongs to another server; with its default launcher (`npx mockrouter`) it runs twice in a row on one
 *   port, so it stops node and not only npm.
 * - `examples/ci/client.py` (stdlib only) retries an overloaded standalone server, checked through the journal.
 *
 * And the README shows each file exactly: every code block of a recipe section is a file of `examples/`, named in a
 * link just above it, so the two cannot drift apart.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { createServer, connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startServer } from 'mockrouter/server';
import 'mockrouter/vitest';
import { startApp } from '../examples/express/app.js';
import { expressMode } from './support/modes.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const TTS = 'openai/gpt-4o-mini-tts-2025-12-15';
const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
const AUTH = { Authorization: 'Bearer sk-example' };
/** The repository of package.json's `repository`: README links into it work on the registry page too. */
const REPOSITORY = 'https://github.com/mockrouter/mockrouter';

/** Why `command` cannot run here (not installed), or `undefined`. */
function missing(command: string): string | undefined {
  const probe = spawnSync(command, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0 ? undefined : `${command} is not installed`;
}
const NO_SHELL = missing('bash') ?? missing('curl');
const NO_PYTHON = missing('python3');

/** Runs a program to its end (in `cwd`, default this process's; `undefined` in `env` removes a variable): exit code and output. */
function run(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a TCP connection to 127.0.0.1:`port` is refused (nothing listens). */
async function refused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve) => {
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

describe('README recipes are the files of examples/', () => {
  const README = readFileSync(path('README.md'), 'utf8');
  /** Each recipe section and the files its code blocks show, in order. */
  const RECIPES: Record<string, string[]> = {
    'In a vitest suite': ['examples/vitest/speech.test.ts'],
    'In CI, against the standalone server': ['examples/ci/against-standalone.sh', 'examples/ci/client.py'],
    'Mounted in your own express app': ['examples/express/app.ts'],
    'In the browser (MSW service worker)': ['examples/browser/mocks.ts'],
  };

  /** The lines of the `### <title>` section, up to the next heading of level 1 to 3 (outside code blocks). */
  function section(title: string): string[] {
    const lines = README.split('\n');
    const start = lines.indexOf(`### ${title}`);
    expect(start, `README has no "### ${title}"`).toBeGreaterThanOrEqual(0);
    let inCode = false;
    for (let i = start + 1; i < lines.length; i++) {
      if (lines[i]!.startsWith('```')) inCode = !inCode;
      else if (!inCode && /^#{1,3} /.test(lines[i]!)) return lines.slice(start + 1, i);
    }
    return lines.slice(start + 1);
  }

  /** The paragraph that ends just above line `at` (blank lines between allowed), as one string. */
  function paragraphBefore(lines: string[], at: number): string {
    let end = at;
    while (end > 0 && lines[end - 1]!.trim() === '') end--;
    let start = end;
    while (start > 0 && lines[start - 1]!.trim() !== '') start--;
    return lines.slice(start, end).join(' ');
  }

  /** The fenced blocks of `lines`: the file each names (the last link to one in the paragraph above) and its text. */
  function blocks(lines: string[]): { file: string | undefined; text: string }[] {
    const found: { file: string | undefined; text: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('```')) continue;
      const end = lines.findIndex((line, j) => j > i && line === '```');
      expect(end, `unclosed code block at "${lines[i]}"`).toBeGreaterThan(i);
      const caption = paragraphBefore(lines, i);
      const link = [...caption.matchAll(/\[`(examples\/[^`]+)`\]\(([^)]+)\)/g)].at(-1);
      if (link) expect(link[2], 'the link points at the file it names').toBe(`${REPOSITORY}/blob/main/${link[1]}`);
      found.push({ file: link?.[1], text: lines.slice(i + 1, end).join('\n') + '\n' });
      i = end;
    }
    return found;
  }

  it('links only absolute URLs (they work on the registry page), and those into the repository name its files', () => {
    const pkg = JSON.parse(readFileSync(path('package.json'), 'utf8')) as { repository: { url: string }; homepage: string };
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(pkg.homepage).toBe(`${REPOSITORY}#readme`);
    const targets = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(target, 'a link of README.md').toMatch(/^(https?:\/\/|#)/);
    const inRepository = targets.filter((t) => t.startsWith(`${REPOSITORY}/`));
    expect(inRepository).toContain(`${REPOSITORY}/tree/main/examples`);
    for (const target of inRepository) {
      const file = /^\/(?:blob|tree)\/main\/(.+)$/.exec(target.slice(REPOSITORY.length))?.[1];
      expect(file, `${target}: a blob/main or tree/main URL`).toBeDefined();
      expect(existsSync(path(file!)), `${target}: ${file} exists in this repository`).toBe(true);
    }
  });

  for (const [title, files] of Object.entries(RECIPES)) {
    it(`"${title}" shows ${files.join(' and ')}, byte for byte`, () => {
      const shown = blocks(section(title));
      expect(shown.map((b) => b.file)).toEqual(files);
      for (const { file, text } of shown) expect(text, `README block of ${file}`).toBe(readFileSync(path(file!), 'utf8'));
    });
  }
});

describe.skipIf(expressMode.unsupported !== undefined)(
  `examples/express/app.ts${expressMode.unsupported === undefined ? '' : ` (skipped: ${expressMode.unsupported})`}`,
  () => {
    it('answers speech, model and generation lookups through express, next to its own routes', async () => {
      const app = await startApp(0);
      const port = Number(new URL(app.baseUrl).port);
      try {
        expect(app.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
        const health = await fetch(new URL('/health', app.baseUrl));
        expect(await health.json()).toEqual({ status: 'ok' });

        const input = 'Hello from express.';
        const speech = await fetch(`${app.baseUrl}/audio/speech`, {
          method: 'POST',
          headers: { ...AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: 'mp3' }),
        });
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
    });
  },
);

describe.skipIf(NO_SHELL !== undefined)(`examples/ci/against-standalone.sh${NO_SHELL ? ` (skipped: ${NO_SHELL})` : ''}`, () => {
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

describe.skipIf(NO_PYTHON !== undefined)(`examples/ci/client.py${NO_PYTHON ? ` (skipped: ${NO_PYTHON})` : ''}`, () => {
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

