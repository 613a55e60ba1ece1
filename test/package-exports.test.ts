/**
 * The package's entry points load from CommonJS as well as from ES modules: `exports` (package.json) gives each one
 * a `default` target, so `require('mockrouter')` gets the ES module through Node's `require(esm)` (Node.js 20.19
 * and 22.12 on) instead of `ERR_PACKAGE_PATH_NOT_EXPORTED`. Run in a child process through the package's
 * self-reference, on `dist/` (built by `npm test`). Installed without msw (an optional peer), the main entry fails
 * on import with one error that says `npm i -D msw`, and `mockrouter/server` and `mockrouter/express` still load
 * (the middleware answers too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What `require(id)` gives a CommonJS script in the package's folder: the type of export `name`, or the error. */
function requireFromCommonJs(id: string, name: string): string {
  const script = `try { console.log(typeof require(${JSON.stringify(id)})[${JSON.stringify(name)}]); } catch (e) { console.log(e.code ?? e.message); }`;
  return execFileSync(process.execPath, ['--no-warnings', '--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim();
}

describe('the package from CommonJS', () => {
  it.each([
    ['mockrouter', 'createMockRouter'],
    ['mockrouter/server', 'startServer'],
    ['mockrouter/express', 'createMiddleware'],
    ['mockrouter/vitest', 'honorsRetryAfter'],
    // The errors startServer throws, without importing the main entry (which needs msw).
    ['mockrouter/server', 'OptionsError'],
    ['mockrouter/server', 'ScenarioError'],
    ['mockrouter/express', 'OptionsError'],
  ])('require(%j) gives %s', (id, name) => {
    expect(requireFromCommonJs(id, name)).toBe('function');
  });
});

describe('the package installed without msw', () => {
  /** A project folder whose node_modules holds a copy of the package and its dependencies (linked), but no msw. */
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'mockrouter-no-msw-'));
    const modules = join(project, 'node_modules');
    const own = join(modules, 'mockrouter');
    mkdirSync(own, { recursive: true });
    // A copy, not a link: Node resolves a linked package from its real folder, whose node_modules has msw.
    for (const entry of ['package.json', 'dist', 'fixtures', 'scenarios']) cpSync(join(ROOT, entry), join(own, entry), { recursive: true });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of Object.keys(pkg.dependencies)) {
      mkdirSync(join(modules, name, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
    }
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  /** Runs a script in the project folder: its exit status and stderr. */
  const run = (type: 'module' | 'commonjs', script: string) => {
    const child = spawnSync(process.execPath, ['--no-warnings', `--input-type=${type}`, '-e', script], { cwd: project, encoding: 'utf8' });
    return { status: child.status, stdout: child.stdout.trim(), stderr: child.stderr };
  };

  it.each([
    ['import', 'module', "await import('mockrouter')"],
    ['require', 'commonjs', "require('mockrouter')"],
  ] as const)('%s(\'mockrouter\') throws one MswMissingError that says npm i -D msw', (_how, type, script) => {
    const { status, stderr } = run(type, script);
    expect(status).not.toBe(0);
    expect(stderr).toContain('MswMissingError');
    expect(stderr).toContain('npm i -D msw');
    expect(stderr).not.toContain('ERR_MODULE_NOT_FOUND');
  });

  it('the error is catchable and names itself', () => {
    const { stdout } = run('module', "try { await import('mockrouter'); } catch (e) { console.log(e.name + ': ' + e.message); }");
    expect(stdout).toMatch(/^MswMissingError: .*npm i -D msw/);
  });

  it('mockrouter/server loads without msw', () => {
    expect(run('module', "const m = await import('mockrouter/server'); console.log(typeof m.startServer);").stdout).toBe('function');
  });

  it('mockrouter/express loads without msw, and its middleware answers (on node:http: express is no dependency)', () => {
    const script = `
      const { createMiddleware } = await import('mockrouter/express');
      const { createServer } = await import('node:http');
      const mock = createMiddleware({ seed: 1 });
      const server = createServer((req, res) => mock(req, res, () => res.writeHead(418).end()));
      server.listen(0, '127.0.0.1', async () => {
        const origin = 'http://127.0.0.1:' + server.address().port;
        const key = await fetch(origin + '/api/v1/key', { headers: { Authorization: 'Bearer sk-test' } });
        const other = await fetch(origin + '/elsewhere');
        console.log(key.status, other.status, mock.journal.size);
        server.closeAllConnections();
        server.close();
      });`;
    expect(run('module', script)).toMatchObject({ status: 0, stdout: '200 418 1' });
  });
});

describe('one set of public errors', () => {
  it('every entry exports every class of src/core/base/errors.ts, the same classes', async () => {
    const errors = await import('../src/core/base/errors.js');
    const names = Object.keys(errors).filter((name) => /Error$/.test(name)).sort();
    expect(names).toEqual(expect.arrayContaining(['ConfigFileError', 'FixtureError', 'GatewayError', 'KeysError', 'MswCompatibilityError', 'MswMissingError', 'OptionsError', 'ScenarioError', 'StoreConnectError']));
    const entries: Record<string, Record<string, unknown>> = {
      mockrouter: await import('../src/index.js'),
      'mockrouter/server': await import('../src/server/index.js'),
      'mockrouter/express': await import('../src/express/index.js'),
      'mockrouter/browser': await import('../src/browser/index.js'),
    };
    for (const [entry, exported] of Object.entries(entries)) {
      for (const name of names) expect(`${entry} ${name}: ${exported[name] === (errors as Record<string, unknown>)[name]}`).toBe(`${entry} ${name}: true`);
    }
  });
});
